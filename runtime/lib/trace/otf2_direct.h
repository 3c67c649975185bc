//===- trace/otf2_direct.h - hot OTF2 records, written in place -*- C++ -*-===//
//
// The records a task stream is made of (Enter, Leave, ThreadTaskCreate,
// ThreadTaskSwitch, ThreadTaskComplete, without attributes) written straight
// into the OTF2 event writer's current chunk, byte for byte what OTF2's own
// OTF2_EvtWriter_* calls write there, at ~20 instructions a record instead
// of ~130 (argument checks, a record-length estimate, a call to the
// timestamp writer and a compressed-integer loop per field in libotf2).
//
// How: an OTF2 event writer owns an OTF2 buffer (libotf2's internal
// OTF2_Buffer: not in OTF2's public headers, but the format it writes is
// OTF2's documented chunk format). We keep a pointer to it and read / update
// the four things OTF2 itself updates per record: the write position, the
// last timestamp written, the current chunk's end and its event counter --
// taken into this object for a whole flushed buffer of events (begin(),
// end()) and given back before every OTF2 call on the writer.
// Their offsets are those of libotf2 3.0 (Debian 12); attach() checks them
// against values it knows (the archive, the writer, the location, the chunk
// size, the chunk header just written) and the library's version, and when
// anything differs the writer stays on OTF2's API for the whole run (same
// archive, only slower). So does every record that does not fit the chunk's
// rest with a margin larger than OTF2's own estimate, or whose time is older
// than the last one (OTF2 then reports the error as before): at a chunk
// boundary OTF2 decides and writes exactly as without this file.
// test/unit/trace_test.cpp (Trace.DirectRecordsAreOtf2sBytes) compares the
// event files of both ways byte for byte.
//
// Record layout (OTF2 3.0, little-endian chunks): an optional timestamp
// record (type 5, the time as 8 raw bytes) when the time differs from the
// last one written; then Enter = 12, Leave = 13 followed by the region as a
// compressed uint32; ThreadTaskCreate = 59, ThreadTaskSwitch = 60,
// ThreadTaskComplete = 61 followed by a record-length byte and three
// compressed uint32 (communicator, creating thread, generation). A
// compressed uint32 is one byte for 0 and UINT32_MAX (the value's low byte),
// else a byte count n (1-4) and the n low bytes.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_OTF2_DIRECT_H
#define OTTER_TRACE_OTF2_DIRECT_H

#include <otf2/otf2.h>

#include <bit>
#include <cstdint>
#include <cstring>

namespace otter::trace {

class Otf2Direct {
public:
  enum Record : std::uint8_t {
    Enter = 12,
    Leave = 13,
    TaskCreate = 59,
    TaskSwitch = 60,
    TaskComplete = 61,
  };

  /// Starts writing W's records in place, if W's buffer is laid out as this
  /// file expects. Call right after OTF2_Archive_GetEvtWriter (nothing
  /// written yet). False: stay on OTF2's API.
  bool attach(OTF2_EvtWriter *W, OTF2_Archive *A, std::uint64_t Location,
              std::uint64_t ChunkBytes) {
    B = nullptr;
    if constexpr (std::endian::native != std::endian::little ||
                  OTF2_VERSION_MAJOR != 3 || OTF2_VERSION_MINOR != 0)
      return false;
    // The library's version (an archive opened for writing has it).
    std::uint8_t Major = 0, Minor = 0, Bugfix = 0;
    if (!W || !A ||
        OTF2_Archive_GetVersion(A, &Major, &Minor, &Bugfix) != OTF2_SUCCESS ||
        Major != 3 || Minor != 0)
      return false;
    unsigned char *Wr = reinterpret_cast<unsigned char *>(W);
    if (load<OTF2_Archive *>(Wr, WriterArchive) != A)
      return false;
    unsigned char *Buf = load<unsigned char *>(Wr, WriterBuffer);
    if (!Buf || load<OTF2_Archive *>(Buf, BufArchive) != A ||
        load<OTF2_EvtWriter *>(Buf, BufOperator) != W ||
        load<std::uint8_t>(Buf, BufMode) != 0 /* write */ ||
        load<std::uint64_t>(Buf, BufChunkSize) != ChunkBytes ||
        load<std::uint8_t>(Buf, BufFileType) != OTF2_FILETYPE_EVENTS ||
        load<std::uint64_t>(Buf, BufLocation) != Location ||
        load<std::uint64_t>(Buf, BufTime) != 0)
      return false;
    unsigned char *C = load<unsigned char *>(Buf, BufChunk);
    if (!C)
      return false;
    unsigned char *Begin = load<unsigned char *>(C, ChunkBegin);
    unsigned char *End = load<unsigned char *>(C, ChunkEnd);
    // A fresh buffer: its chunk holds just the 18-byte header (chunk header
    // type 3, the host's endianness, first event 1, last event 0).
    if (!Begin || End != Begin + ChunkBytes ||
        load<unsigned char *>(Buf, BufWritePos) != Begin + 18 ||
        Begin[0] != 3 || Begin[1] != 0x42 ||
        load<std::uint64_t>(Begin, 2) != 1 ||
        load<std::uint64_t>(C, ChunkEvents) != 0)
      return false;
    B = Buf;
    return true;
  }
  bool attached() const { return B != nullptr; }
  void detach() {
    end();
    B = nullptr;
  }

  /// Takes OTF2's buffer state (write position, chunk end, last time) into
  /// this object for a run of records written in place: they then update
  /// it here, not in OTF2's buffer (loads and stores per record saved).
  /// end() gives it back; it must, before any OTF2 call on the writer (its
  /// records, a chunk flush) and before anyone else looks at the buffer.
  void begin() {
    if (!B)
      return;
    P = load<unsigned char *>(B, BufWritePos);
    Chunk = load<unsigned char *>(B, BufChunk);
    End = load<unsigned char *>(Chunk, ChunkEnd);
    Last = load<std::uint64_t>(B, BufTime);
    Pending = 0;
  }
  /// Gives the state back to OTF2's buffer. True if begin() had taken it.
  bool end() {
    if (!End)
      return false;
    store(B, BufWritePos, P);
    store(B, BufTime, Last);
    store(Chunk, ChunkEvents,
          load<std::uint64_t>(Chunk, ChunkEvents) + Pending);
    P = End = nullptr;
    return true;
  }

  /// Enter / Leave of Region at T. False: not written (use OTF2's call).
  [[gnu::always_inline]] bool region(Record R, std::uint64_t T,
                                     std::uint32_t Region) {
    unsigned char *C, *Pos = open(T, C);
    if (!Pos)
      return false;
    close(C, putRegion(Pos, R, Region), 1);
    return true;
  }
  /// ThreadTaskCreate / Switch / Complete at T.
  [[gnu::always_inline]] bool task(Record R, std::uint64_t T,
                                   std::uint32_t Comm, std::uint32_t Thread,
                                   std::uint32_t Generation) {
    unsigned char *C, *Pos = open(T, C);
    if (!Pos)
      return false;
    close(C, putTask(Pos, R, Comm, Thread, Generation), 1);
    return true;
  }

  // Room the records at one time need beyond the write position: a
  // timestamp record (9) and at most Leave + ThreadTaskComplete +
  // ThreadTaskSwitch + Enter (6 + 17 + 17 + 6), plus the end-of-chunk byte
  // OTF2 keeps. OTF2 asks for no more per record (its estimate: 26 for a
  // task record, 15 for a region), so it would write every record written
  // here in the same chunk.
  static constexpr std::ptrdiff_t Room = 64;
  // A creation, then at a later time the switch to the new task and the
  // Enter of its body: 9 + 17 + 9 + 17 + 6 bytes at most, and more than
  // OTF2's estimate still left before each record.
  static constexpr std::ptrdiff_t RoomCreateSwitch = 80;

  /// Several records at one time T (at most Room - 9 bytes of them: a task
  /// switch's Leave, ThreadTaskComplete, ThreadTaskSwitch and Enter): one
  /// room check, one timestamp, one update of OTF2's buffer. open() gives
  /// the write position (its chunk in C), or null: use OTF2's calls for
  /// all of them. Then putRegion / putTask (later() between records at a
  /// later time, with Need = RoomCreateSwitch), then close() with the count.
  template <std::ptrdiff_t Need = Room>
  /// Outside begin() ... end(): null (End - P is 0).
  [[gnu::always_inline]] unsigned char *open(std::uint64_t T,
                                             unsigned char *&C) {
    C = nullptr;
    if (End - P <= Need || T < Last) [[unlikely]]
      return nullptr;
    if (T > Last || T == 0) // as OTF2: a time 0 is written at the start
      return putTime(P, T);
    return P;
  }
  /// After open(T0): the records that follow are at T >= T0 (a timestamp
  /// record when T is later, as OTF2 writes it).
  [[gnu::always_inline]] unsigned char *
  later(unsigned char *Pos, std::uint64_t T0, std::uint64_t T) {
    return T > T0 || T == 0 ? putTime(Pos, T) : Pos;
  }
  [[gnu::always_inline]] void close(unsigned char *, unsigned char *Pos,
                                    unsigned Records) {
    P = Pos;
    Pending += Records;
  }
  [[gnu::always_inline]] static unsigned char *
  putRegion(unsigned char *P, Record R, std::uint32_t Region) {
    P[0] = R;
    return putU32(P + 1, Region);
  }
  [[gnu::always_inline]] static unsigned char *
  putTask(unsigned char *P, Record R, std::uint32_t Comm, std::uint32_t Thread,
          std::uint32_t Generation) {
    P[0] = R;
    unsigned char *Q = putU32(putU32(putU32(P + 2, Comm), Thread), Generation);
    P[1] = std::uint8_t(Q - P - 2); // the record's length
    return Q;
  }

  /// Bytes of records in the chunk being filled, for the trace's size
  /// (OTTER_MAX_TRACE_SIZE); 0 when not attached.
  std::uint64_t chunkUsed() const {
    if (!B)
      return 0;
    if (End) // taken (begin()): the position is here
      return std::uint64_t(P - load<unsigned char *>(Chunk, ChunkBegin));
    const unsigned char *C = load<unsigned char *>(B, BufChunk);
    if (!C)
      return 0;
    return std::uint64_t(load<unsigned char *>(B, BufWritePos) -
                         load<unsigned char *>(C, ChunkBegin));
  }

private:
  // libotf2 3.0's OTF2_EvtWriter and OTF2_Buffer / chunk fields (byte
  // offsets, x86-64 / LP64), checked by attach().
  static constexpr unsigned WriterArchive = 0, WriterBuffer = 8;
  static constexpr unsigned BufArchive = 0, BufOperator = 8, BufMode = 16,
                            BufChunkSize = 24, BufFileType = 41,
                            BufLocation = 48, BufTime = 56, BufWritePos = 72,
                            BufChunk = 104;
  static constexpr unsigned ChunkBegin = 0, ChunkEnd = 8, ChunkEvents = 24;

  [[gnu::always_inline]] unsigned char *putTime(unsigned char *Pos,
                                                std::uint64_t T) {
    *Pos = 5;
    std::memcpy(Pos + 1, &T, 8);
    Last = T;
    return Pos + 9;
  }

  template <class T> static T load(const unsigned char *Base, unsigned Off) {
    T V;
    std::memcpy(&V, Base + Off, sizeof V);
    return V;
  }
  template <class T> static void store(unsigned char *Base, unsigned Off, T V) {
    std::memcpy(Base + Off, &V, sizeof V);
  }

  /// V compressed, exactly its bytes: the chunk after the last record
  /// must stay zero (a copy of it ends there, see flushToDisk in
  /// writer_disk.cpp). Branches beat a bit count here: ids and generations
  /// are mostly small.
  [[gnu::always_inline]] static unsigned char *putU32(unsigned char *P,
                                                      std::uint32_t V) {
    if (V == 0 || V == ~0u) {
      *P = std::uint8_t(V);
      return P + 1;
    }
    if (V < 0x100) {
      P[0] = 1;
      P[1] = std::uint8_t(V);
      return P + 2;
    }
    if (V < 0x10000) {
      P[0] = 2;
      std::memcpy(P + 1, &V, 2);
      return P + 3;
    }
    if (V < 0x1000000) {
      P[0] = 3;
      std::memcpy(P + 1, &V, 3);
      return P + 4;
    }
    P[0] = 4;
    std::memcpy(P + 1, &V, 4);
    return P + 5;
  }

  unsigned char *B = nullptr; // the writer's OTF2_Buffer
  // Between begin() and end(): its write position, current chunk and the
  // chunk's end, last time written, records written here since begin().
  unsigned char *P = nullptr, *End = nullptr, *Chunk = nullptr;
  std::uint64_t Last = 0, Pending = 0;
};

} // namespace otter::trace

#endif // OTTER_TRACE_OTF2_DIRECT_H
