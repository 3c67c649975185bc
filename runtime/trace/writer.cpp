//===- trace/writer.cpp - OTF2 archive from flushed event buffers ---------===//
#include "trace/writer.h"
#include "otter/mpi.h"
#include "trace/codec.h"
#include "trace/errors.h"
#include "trace/merge.h"
#include "trace/otf2_direct.h"

#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace otter::trace {

namespace {

constexpr OTF2_CommRef TeamComm = 0;

// OTF2 fills the unused rest of a definition chunk when it writes it out (a
// memset of up to a chunk, at close and at every checkpoint): the smallest
// chunk OTF2 allows is plenty for our definitions (they grow by chunks).
constexpr std::uint64_t DefinitionChunkBytes = OTF2_CHUNK_SIZE_MIN;

// Defined after TraceWriter::Impl (they call into it).
OTF2_FlushType preFlush(void *User, OTF2_FileType Type, OTF2_LocationRef Loc,
                        void *, bool Final);

// OTF2's default pool lets each writer grow to 128 MiB before it writes
// anything. Ours gives an event writer at most EventChunks chunks: when they
// are full, allocation fails, OTF2 flushes them to the file (preFlush) and
// "frees" them, and we hand the same chunks out again. Memory per thread is
// bounded by EventChunks * chunk size whatever the run length.
constexpr unsigned EventChunks = 1;
struct ChunkPool {
  unsigned Used = 0, Count = 0;
  void *Chunks[EventChunks];
};
std::atomic<std::uint64_t> EventChunkSize{0}; // as OTF2 allocates them
/// Every event writer's pool, by (writer, location): what a flush on
/// request copies to disk (TraceWriter::flushToDisk). Its own lock, taken
/// with no other held inside it.
std::mutex PoolsM;
std::map<std::pair<void *, std::uint64_t>, ChunkPool *> &pools() {
  static auto *M = new std::map<std::pair<void *, std::uint64_t>, ChunkPool *>;
  return *M;
}
void *allocChunk(void *User, OTF2_FileType Type, OTF2_LocationRef Loc,
                 void **Data, uint64_t Size) {
  if (Type != OTF2_FILETYPE_EVENTS)
    return std::malloc(Size); // definitions: few, freed by free_all below
  EventChunkSize.store(Size, std::memory_order_relaxed);
  auto *P = static_cast<ChunkPool *>(*Data);
  if (!P) {
    P = new (std::nothrow) ChunkPool();
    if (!P)
      return nullptr;
    *Data = P;
    try {
      std::lock_guard<std::mutex> G(PoolsM);
      pools()[{User, Loc}] = P;
    } catch (...) { // out of memory: this location is not flushed on request
    }
  }
  // Zeros after the last record: a copy of the chunk being filled ends
  // where its records do (flushToDisk; zeros read as the end of a chunk).
  // A new chunk comes zeroed (fresh pages: calloc writes nothing); one
  // handed out again after OTF2 wrote it out is cleared here.
  if (P->Used < P->Count) {
    void *C = P->Chunks[P->Used++];
    std::memset(C, 0, Size);
    return C;
  }
  if (P->Count == EventChunks)
    return nullptr; // full: OTF2 flushes, then calls freeAllChunks
  void *C = std::calloc(1, Size);
  if (!C)
    return nullptr;
  P->Chunks[P->Count++] = C;
  ++P->Used;
  return C;
}
void afterFlush(void *User, OTF2_LocationRef Loc);
void freeAllChunks(void *User, OTF2_FileType Type, OTF2_LocationRef Loc,
                   void **Data, bool Final) {
  if (Type != OTF2_FILETYPE_EVENTS)
    return; // definition chunks: leaked once per run, at close (small)
  auto *P = static_cast<ChunkPool *>(*Data);
  if (!P)
    return;
  // OTF2 frees the chunks of an event writer right after writing them out.
  if (!Final && P->Used)
    afterFlush(User, Loc);
  P->Used = 0;
  if (Final) {
    {
      std::lock_guard<std::mutex> G(PoolsM);
      pools().erase({User, Loc});
    }
    for (unsigned I = 0; I < P->Count; ++I)
      std::free(P->Chunks[I]);
    delete P;
    *Data = nullptr;
  }
}
const OTF2_MemoryCallbacks MemoryCallbacks = {allocChunk, freeAllChunks};

struct CodeEntry {
  std::uint64_t Code = 0;
  SourceLabel Label;
  std::string Key;   // identity of the source construct
  std::string Where; // short text for region names
  std::uint32_t Region = NoRef; // region of first use
};

struct RegionEntry {
  RegionClass Class;
  std::uint16_t Sub;
  std::uint32_t Code;
};

/// Per-location state: touched only by the flushing thread (calls for one
/// thread never overlap) and by close().
struct Location {
  explicit Location(std::uint32_t I) : Index(I), P(I) {}
  std::uint32_t Index;
  std::uint32_t Type = 0;
  OTF2_EvtWriter *W = nullptr;
  Otf2Direct D; // W's hot records written in place (otf2_direct.h)
  OTF2_AttributeList *Attrs = nullptr;
  Predictor P;
  // Clock range (LastT: the latest). Atomic: a checkpoint made by another
  // thread's flush reads them while this location is being written.
  std::atomic<std::uint64_t> MinT{~0ull}, LastT{0};
  std::uint32_t LockOrder = 0;
  std::vector<std::uint8_t> TaskSiteNamed; // by code id: task region made
  /// Open regions (Enter without Leave), with what the encoder needs of
  /// them: the shared region table may grow (and move) under another
  /// thread's flush, so nothing here reads it without the lock.
  struct Open {
    std::uint32_t Region;
    RegionClass Class;
    std::uint16_t Sub;
  };
  /// Fixed capacity, no allocation: deeper nesting is not tracked (a Leave
  /// then looks its region up instead).
  struct OpenStack {
    static constexpr unsigned Capacity = 4096;
    Open Items[Capacity];
    unsigned Size = 0;
    bool empty() const { return Size == 0; }
    Open &back() { return Items[Size - 1]; }
    void pop_back() { --Size; }
    void push(const Open &O) {
      if (Size < Capacity)
        Items[Size++] = O;
    }
  } Stack;
  /// The tasks executing on this thread, innermost last: implicit tasks
  /// (from their begin to their end) and the explicit tasks whose body
  /// region is open on Stack (see "Task bodies" below). Beyond the capacity
  /// no body region is entered.
  static constexpr unsigned RunningCapacity = 1024;
  std::uint64_t Running[RunningCapacity];
  unsigned RunN = 0;
  std::mutex M;                     // consume vs close
  bool Closed = false;
  bool Failed = false; // a record could not be written: no more events
  std::uint64_t AttrEvents = 0;
  MpiModel Mpi; // codec.h: MPI payloads predicted from the last ones
  // What of this location's event file is on disk and readable (guarded
  // by TraceWriter::Impl::M; see "Surviving SIGKILL" below).
  int Fd = -1;                  // our own descriptor on the event file
  std::uint64_t DiskEnd = 0;    // end of the complete chunks written
  std::uint64_t DiskEvents = 0; // events in them
  bool OnDisk = false;          // listed in the checkpoint definitions
  std::uint64_t FlushedEvents = 0; // on disk after a flush on request
                                   // (TraceWriter::flushToDisk)
  bool Sentinel = false;        // a flush is in progress (see beforeFlush)
  unsigned char Endian = 0;     // of the chunks written (0: none yet)
  // Direct-mapped caches in front of the shared tables.
  std::uint64_t CodeKeys[256] = {};
  std::uint32_t CodeVals[256] = {};
  std::uint64_t RegionKeys[256] = {};
  std::uint32_t RegionVals[256] = {};
};

// The records of a task stream without attributes: written in place when
// the location's Otf2Direct can, else by OTF2's own calls (otf2_direct.h).
[[gnu::always_inline]] inline OTF2_ErrorCode
writeEnter(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Enter, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return OTF2_EvtWriter_Enter(L.W, nullptr, T, Region);
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeLeave(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Leave, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return OTF2_EvtWriter_Leave(L.W, nullptr, T, Region);
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeTask(Location &L, Otf2Direct::Record R, OTF2_TimeStamp T,
          std::uint32_t Thread, std::uint32_t Gen) {
  if (L.D.task(R, T, TeamComm, Thread, Gen)) [[likely]]
    return OTF2_SUCCESS;
  switch (R) {
  case Otf2Direct::TaskCreate:
    return OTF2_EvtWriter_ThreadTaskCreate(L.W, nullptr, T, TeamComm, Thread,
                                           Gen);
  case Otf2Direct::TaskComplete:
    return OTF2_EvtWriter_ThreadTaskComplete(L.W, nullptr, T, TeamComm, Thread,
                                             Gen);
  default:
    return OTF2_EvtWriter_ThreadTaskSwitch(L.W, nullptr, T, TeamComm, Thread,
                                           Gen);
  }
}

} // namespace

struct TraceWriter::Impl {
  WriterOptions Opt;
  Resolver Resolve;
  OTF2_Archive *Archive = nullptr;
  bool Open = false, Closed = false;
  std::mutex M; // archive, tables, location list
  std::vector<Location *> Locs;
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIds;
  std::vector<CodeEntry> Codes;
  std::unordered_map<std::string, std::uint32_t> RegionIds;
  std::vector<RegionEntry> Regions;
  std::uint64_t EventCount = 0;
  std::uint64_t DroppedEvents = 0; // out of memory while encoding (M)
  // Task id -> code id of its creation, for naming the body region of a
  // task that another thread created (direct-mapped, lock-free: a task
  // whose creation was not encoded yet, or whose slot was taken since, gets
  // the unnamed `task` region). Written at TaskCreate, read at its start.
  static constexpr unsigned TaskSlotBits = 14;
  static constexpr std::size_t TaskSlots = std::size_t(1) << TaskSlotBits;
  static std::size_t taskSlot(std::uint64_t Task) {
    return std::size_t((Task * 0x9E3779B97F4A7C15ull) >> (64 - TaskSlotBits));
  }
  std::unique_ptr<std::atomic<std::uint64_t>[]> TaskKeys{
      new std::atomic<std::uint64_t>[TaskSlots]()};
  std::unique_ptr<std::atomic<std::uint32_t>[]> TaskCodes{
      new std::atomic<std::uint32_t>[TaskSlots]()};
  // Checkpoints (all guarded by M).
  std::atomic<bool> Closing{false}; // close() owns the archive: no more
  std::size_t DefRegions = 0, DefCodes = 0; // in the last checkpoint
  std::uint64_t LastCheckpointNs = 0;
  std::uint64_t Checkpoints = 0;
  std::string WriteError; // the first failed write (guarded by M)
  std::uint64_t ErrorsAtOpen = 0; // OTF2's error count when opened
  // MPI (guarded by M; written at the rare MpiInit / MpiComm* events). An
  // OTF2 communicator ref is the event stream's comm index (1..65535; 0 is
  // the OpenMP thread team): no lookup when encoding a message.
  struct MpiComm {
    std::uint64_t Key = 0, Parent = 0;
    std::uint32_t Size = 0;
    std::vector<std::uint32_t> Members; // world ranks; empty: 0..Size-1
  };
  std::map<std::uint16_t, MpiComm> MpiComms;
  bool SawMpi = false;
  std::int64_t Rank = -1; // from MpiInit (else WriterOptions::Rank)
  std::uint32_t WorldSize = 0;
  std::string ClockOffsets; // "time:offset:roundtrip;..." (merge.h)

  Location *location(std::uint32_t Index, std::uint32_t Type);
  std::uint32_t codeId(Location &L, std::uint64_t Code);
  std::uint32_t newCodeId(Location &L, std::uint64_t Code);
  std::uint32_t region(Location &L, RegionClass C, std::uint16_t Sub,
                       std::uint32_t Code);
  std::uint32_t newRegion(Location &L, RegionClass C, std::uint16_t Sub,
                          std::uint32_t Code);
  void encode(Location &L, const Event &E);
  void encodeSplitEnd(Location &L, const Event &E);
  bool leaveMismatched(Location &L, RegionClass C, OTF2_TimeStamp T);
  std::uint32_t taskBodyRegion(Location &L, std::uint64_t Task);
  void writeFailed(Location &L);
  OTF2_AttributeList *attributes(Location &L, unsigned Miss, const Event &Ev,
                                 std::uint32_t Code);
  void encodeAs(Location &L, const Event &E, EventKind K);
  void encodeAny(Location &L, const Event &E);
  void encodeMpi(Location &L, const Event &E);
  void noteMpi(const Event &E);
  void writeDefinitions(OTF2_GlobalDefWriter *D, bool Checkpoint);
  std::string evtPath(std::uint32_t I) const {
    return Opt.Dir + "/traces/" + std::to_string(I) + ".evt";
  }
  bool terminate(Location &L, std::uint64_t End, std::uint64_t Events);
  void cutBackToDisk(Location &L);
  void beforeFlush(std::uint32_t Loc);
  void afterFlush(std::uint32_t Loc);
  bool checkpoint();
  void listOnDisk(Location &L);
  /// The name table as an anchor property (NamesProperty), if there is
  /// one; keeps it for the phase regions' names. False: OTF2 failed.
  bool setNames(OTF2_Archive *A) {
    if (!Opt.Names)
      return true;
    Names = Opt.Names();
    return Names.size() < 2 || OTF2_Archive_SetProperty(
                                   A, NamesProperty, encodeNames(Names).c_str(),
                                   true) == OTF2_SUCCESS;
  }
  std::vector<std::string> Names; // as last stored (M)
  void flushToDisk(Location &L);
};

// --- Surviving SIGKILL ----------------------------------------------------
//
// OTF2 writes the anchor and the global definitions only at close, and an
// event file is only terminated (END_OF_FILE record) at close: a file that
// ends after a chunk boundary makes OTF2's readers (otf2-print included)
// re-read their last chunk forever. So, per location, at every chunk flush
// OTF2 does while the program runs (preFlush / freeAllChunks below):
//  - before OTF2 writes: if the tables grew since the last checkpoint,
//    write the definitions (they then cover every event that can reach the
//    disk), and put a one-byte sentinel far beyond the end of the event
//    file: while OTF2 writes, the file is followed by zeros, on which a
//    reader stops with an error instead of looping;
//  - after OTF2 wrote: find the new complete chunks (their headers), write a
//    19-byte empty terminating chunk (header + END_OF_FILE) after them and
//    cut the file there. OTF2's next write, at its own file position, starts
//    exactly there and overwrites the terminator; the final chunk written at
//    close is never shorter than it.
// Definitions (anchor + traces.def) are written by a second OTF2 archive
// object into <dir>/.checkpoint and renamed into place, definitions first,
// anchor last (the empty local definition file of a location is written
// before the location is first listed). They list only
// locations whose event file is terminated, with the number of events that
// reached the disk. A checkpoint also runs every 0.5 s of flushes (clock
// range, event counts). What a SIGKILL loses: per thread, the events still in
// the recorder's buffer and in OTF2's chunk in memory (<= 4 MiB).

namespace {
constexpr std::uint64_t SentinelGap = 64ull << 20;
constexpr unsigned ChunkHeaderBytes = 18; // type, endianness, 2 x uint64
constexpr unsigned char ChunkHeaderType = 3, EndOfFile = 2;

OTF2_FlushType flushAlways(void *, OTF2_FileType, OTF2_LocationRef, void *,
                           bool) {
  return OTF2_FLUSH;
}
const OTF2_FlushCallbacks CheckpointFlush = {flushAlways, nullptr};

std::uint64_t wallNs() {
  return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count());
}
} // namespace

/// Writes the empty terminating chunk (header + END_OF_FILE) at End, after
/// the location's first Events events. Called with M held.
bool TraceWriter::Impl::terminate(Location &L, std::uint64_t End,
                                  std::uint64_t Events) {
  unsigned char T[ChunkHeaderBytes + 1];
  std::uint64_t First = Events + 1;
  T[0] = ChunkHeaderType;
  T[1] = L.Endian;
  std::memcpy(T + 2, &First, 8);
  std::memcpy(T + 10, &Events, 8);
  T[ChunkHeaderBytes] = EndOfFile;
  return L.Fd >= 0 &&
         ::pwrite(L.Fd, T, sizeof T, off_t(End)) == ssize_t(sizeof T);
}

/// After a failed write (disk full): the event file back to what the last
/// complete chunk flush left, terminated, so that it reads as it did then
/// (a partly written chunk after it would make it unreadable). Overwriting
/// and truncating need no free space. Called with M held.
void TraceWriter::Impl::cutBackToDisk(Location &L) {
  if (L.Fd < 0 || !L.Endian)
    return;
  // (If even this overwrite fails, the terminator the last flush left is
  // still there unless the failed write reached it.)
  (void)terminate(L, L.DiskEnd, L.DiskEvents);
  (void)::ftruncate(L.Fd, off_t(L.DiskEnd + ChunkHeaderBytes + 1));
  L.FlushedEvents = 0; // a copy flushed on request was cut off too
}

void TraceWriter::Impl::beforeFlush(std::uint32_t Loc) {
  if (Closing.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> G(M);
  if (Closed || Loc >= Locs.size() || !Locs[Loc])
    return;
  Location &L = *Locs[Loc];
  if (Regions.size() != DefRegions || Codes.size() != DefCodes)
    checkpoint();
  if (L.Fd < 0) // the first flush: OTF2 creates (truncates) the file itself
    L.Fd = ::open(evtPath(Loc).c_str(), O_WRONLY | O_CLOEXEC);
  if (L.Fd < 0)
    return;
  char Zero = 0;
  L.Sentinel = ::pwrite(L.Fd, &Zero, 1, off_t(L.DiskEnd + SentinelGap)) == 1;
}

void TraceWriter::Impl::afterFlush(std::uint32_t Loc) {
  if (Closing.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> G(M);
  if (Closed || Loc >= Locs.size() || !Locs[Loc])
    return;
  Location &L = *Locs[Loc];
  if (L.Fd < 0)
    L.Fd = ::open(evtPath(Loc).c_str(), O_WRONLY | O_CLOEXEC);
  int Rd = ::open(evtPath(Loc).c_str(), O_RDONLY | O_CLOEXEC);
  std::uint64_t Chunk = EventChunkSize.load(std::memory_order_relaxed);
  if (L.Fd < 0 || Rd < 0 || Chunk < 64) {
    if (Rd >= 0)
      ::close(Rd);
    return;
  }
  // Walk the chunk headers OTF2 wrote after the last terminated end.
  std::uint64_t End = L.DiskEnd, Last = L.DiskEvents;
  unsigned char Endian = 0;
  for (;;) {
    unsigned char H[ChunkHeaderBytes];
    if (::pread(Rd, H, sizeof H, off_t(End)) != ssize_t(sizeof H) ||
        H[0] != ChunkHeaderType)
      break;
    std::uint64_t First, LastEv;
    std::memcpy(&First, H + 2, 8);
    std::memcpy(&LastEv, H + 10, 8);
    if (First != Last + 1 || LastEv < First)
      break; // our own terminator (empty chunk), or not ours to judge
    Endian = H[1];
    Last = LastEv;
    End += Chunk;
  }
  ::close(Rd);
  if (Endian) {
    L.Endian = Endian;
    if (terminate(L, End, Last)) {
      L.DiskEnd = End;
      L.DiskEvents = Last;
    }
  }
  if (L.Sentinel || Endian) {
    // Drop the sentinel (and nothing OTF2 wrote: it writes whole chunks,
    // and zeros read as an end of chunk anyway).
    if (::ftruncate(L.Fd, off_t(L.DiskEnd + ChunkHeaderBytes + 1)) == 0)
      L.Sentinel = false;
  }
  std::uint64_t Now = wallNs();
  if (L.DiskEvents && !L.OnDisk && Endian) {
    listOnDisk(L);
    if (L.OnDisk)
      checkpoint();
  } else if (L.OnDisk && Now - LastCheckpointNs > 500000000ull) {
    checkpoint();
  }
}

/// A location's first events reached the disk: its (empty) local
/// definition file first, then it may be listed in the checkpoints
/// (readers expect one per location). Called with M held.
void TraceWriter::Impl::listOnDisk(Location &L) {
  // The bytes OTF2 itself writes for an empty one.
  unsigned char D[ChunkHeaderBytes + 2] = {ChunkHeaderType, L.Endian};
  std::uint64_t One = 1;
  std::memcpy(D + 2, &One, 8);
  D[ChunkHeaderBytes] = EndOfFile;
  D[ChunkHeaderBytes + 1] = 1; // end of buffer
  std::string F = Opt.Dir + "/traces/" + std::to_string(L.Index) + ".def";
  int Fd = ::open((F + ".tmp").c_str(),
                  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  bool Ok = Fd >= 0 && ::write(Fd, D, sizeof D) == ssize_t(sizeof D);
  if (Fd >= 0)
    ::close(Fd);
  L.OnDisk = Ok && ::rename((F + ".tmp").c_str(), F.c_str()) == 0;
}

// --- Flush on request (omp_control_tool flush) -----------------------------
//
// OTF2 has no call that writes an event writer's chunk before it is full.
// Its memory is ours, though (allocChunk): a flush on request copies the
// chunk being filled -- zeros after its last record, its header's event
// range completed -- to where OTF2 will write it (the end of the complete
// chunks), terminates the file after it, and lists the events in the next
// checkpoint. When OTF2 writes that chunk for real, at the same offset, it
// overwrites the copy with the same records and more (afterFlush finds the
// copy's terminator beyond it, as it finds its own). Called with L.M and M
// held: the location's thread is not encoding.
void TraceWriter::Impl::flushToDisk(Location &L) {
  std::uint64_t N = 0;
  const std::uint64_t Chunk = EventChunkSize.load(std::memory_order_relaxed);
  if (L.Closed || L.Failed || !L.W || Chunk < 64 ||
      OTF2_EvtWriter_GetNumberOfEvents(L.W, &N) != OTF2_SUCCESS ||
      N <= std::max(L.DiskEvents, L.FlushedEvents))
    return;
  std::vector<unsigned char> Copy;
  {
    std::lock_guard<std::mutex> G(PoolsM);
    auto It = pools().find({this, L.Index});
    if (It == pools().end() || !It->second->Used)
      return;
    const auto *C = static_cast<const unsigned char *>(It->second->Chunks[0]);
    Copy.assign(C, C + Chunk);
  }
  std::uint64_t First;
  std::memcpy(&First, Copy.data() + 2, 8);
  if (Copy[0] != ChunkHeaderType || First != L.DiskEvents + 1)
    return; // not the chunk this model expects: leave it to OTF2
  std::memcpy(Copy.data() + 10, &N, 8);
  if (L.Fd < 0) // OTF2 creates (truncates) the file at its first flush
    L.Fd =
        ::open(evtPath(L.Index).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (L.Fd < 0)
    return;
  if (!L.Endian)
    L.Endian = Copy[1];
  if (::pwrite(L.Fd, Copy.data(), Copy.size(), off_t(L.DiskEnd)) !=
          ssize_t(Copy.size()) ||
      !terminate(L, L.DiskEnd + Chunk, N)) {
    cutBackToDisk(L);
    return;
  }
  L.FlushedEvents = N;
  if (!L.OnDisk)
    listOnDisk(L);
}

/// Writes anchor + global definitions of what is on disk now, atomically enough: each file is renamed into place, the
/// definitions before the anchor. Called with M held.
bool TraceWriter::Impl::checkpoint() {
  // OTF2 may report a failed write (disk full) without failing the call
  // that made it: a checkpoint with any new error is not renamed in.
  const std::uint64_t ErrorsBefore = otf2ErrorCount();
  LastCheckpointNs = wallNs();
  DefRegions = Regions.size();
  DefCodes = Codes.size();
  std::string Tmp = Opt.Dir + "/.checkpoint";
  ::mkdir(Tmp.c_str(), 0777);
  for (const char *F : {"/traces.otf2", "/traces.def"})
    ::unlink((Tmp + F).c_str());
  ::rmdir((Tmp + "/traces").c_str()); // OTF2 refuses an existing one
  OTF2_Archive *A = OTF2_Archive_Open(Tmp.c_str(), "traces",
                                      OTF2_FILEMODE_WRITE, Opt.ChunkBytes,
                                      DefinitionChunkBytes, OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
  if (!A)
    return false;
  bool Ok =
      OTF2_Archive_SetFlushCallbacks(A, &CheckpointFlush, nullptr) ==
          OTF2_SUCCESS &&
      OTF2_Archive_SetSerialCollectiveCallbacks(A) == OTF2_SUCCESS &&
      OTF2_Archive_SetCreator(A, Opt.Creator.c_str()) == OTF2_SUCCESS &&
      OTF2_Archive_SetProperty(A, FormatProperty, FormatVersion, true) ==
          OTF2_SUCCESS &&
      OTF2_Archive_SetProperty(A, StateProperty, StateRunning, true) ==
          OTF2_SUCCESS &&
      (Opt.Filter.empty() ||
       OTF2_Archive_SetProperty(A, FilterProperty, Opt.Filter.c_str(), true) ==
           OTF2_SUCCESS) &&
      (ClockOffsets.empty() ||
       OTF2_Archive_SetProperty(A, ClockOffsetsProperty, ClockOffsets.c_str(),
                                true) == OTF2_SUCCESS) &&
      setNames(A);
  // Every code id needs a region for its calling context: lend one for
  // this checkpoint only (the final definitions may find a better one).
  std::size_t NRegions = Regions.size();
  std::vector<std::uint32_t> Lent;
  for (std::size_t I = 1; I < Codes.size(); ++I)
    if (Codes[I].Region == NoRef) {
      Codes[I].Region = std::uint32_t(Regions.size());
      Regions.push_back({RegionClass::Site, 0, std::uint32_t(I)});
      Lent.push_back(std::uint32_t(I));
    }
  OTF2_GlobalDefWriter *D = Ok ? OTF2_Archive_GetGlobalDefWriter(A) : nullptr;
  if (D)
    writeDefinitions(D, true);
  else
    Ok = false;
  for (std::uint32_t I : Lent)
    Codes[I].Region = NoRef;
  Regions.resize(NRegions);
  if (OTF2_Archive_Close(A) != OTF2_SUCCESS ||
      otf2ErrorCount() != ErrorsBefore)
    Ok = false;
  if (!Ok)
    return false;
  bool Renamed =
      ::rename((Tmp + "/traces.def").c_str(),
               (Opt.Dir + "/traces.def").c_str()) == 0 &&
      ::rename((Tmp + "/traces.otf2").c_str(),
               (Opt.Dir + "/traces.otf2").c_str()) == 0;
  if (Renamed)
    ++Checkpoints;
  return Renamed;
}

namespace {
OTF2_FlushType preFlush(void *User, OTF2_FileType Type, OTF2_LocationRef Loc,
                        void *, bool Final) {
  if (User && Type == OTF2_FILETYPE_EVENTS && !Final)
    static_cast<TraceWriter::Impl *>(User)->beforeFlush(std::uint32_t(Loc));
  return OTF2_FLUSH; // bounded memory: write full chunks out at once
}
void afterFlush(void *User, OTF2_LocationRef Loc) {
  if (User)
    static_cast<TraceWriter::Impl *>(User)->afterFlush(std::uint32_t(Loc));
}
const OTF2_FlushCallbacks FlushCallbacks = {preFlush, nullptr};
} // namespace

TraceWriter::TraceWriter(WriterOptions O, Resolver R)
    : P(std::make_unique<Impl>()) {
  P->Opt = std::move(O);
  P->Resolve = std::move(R);
  P->Codes.emplace_back(); // id 0: no address
}

TraceWriter::~TraceWriter() {
  for (Location *L : P->Locs)
    delete L;
}

bool TraceWriter::open(std::string &Error) {
  installQuietOtf2Errors();
  std::lock_guard<std::mutex> G(P->M);
  // A previous run's archive in the same directory would make OTF2 refuse.
  for (const char *F : {"/traces.otf2", "/traces.def"})
    ::unlink((P->Opt.Dir + F).c_str());
  P->Archive = OTF2_Archive_Open(P->Opt.Dir.c_str(), "traces",
                                 OTF2_FILEMODE_WRITE, P->Opt.ChunkBytes,
                                 DefinitionChunkBytes, OTF2_SUBSTRATE_POSIX,
                                 OTF2_COMPRESSION_NONE);
  if (!P->Archive) {
    Error = "cannot create OTF2 archive in '" + P->Opt.Dir + "': " +
            lastOtf2Error();
    return false;
  }
  ::unlink((P->Opt.Dir + "/.checkpoint/traces.otf2").c_str());
  ::unlink((P->Opt.Dir + "/.checkpoint/traces.def").c_str());
  if (OTF2_Archive_SetFlushCallbacks(P->Archive, &FlushCallbacks, P.get()) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetMemoryCallbacks(P->Archive, &MemoryCallbacks, P.get()) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetSerialCollectiveCallbacks(P->Archive) != OTF2_SUCCESS ||
      OTF2_Pthread_Archive_SetLockingCallbacks(P->Archive, nullptr) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetCreator(P->Archive, P->Opt.Creator.c_str()) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetProperty(P->Archive, FormatProperty, FormatVersion,
                               true) != OTF2_SUCCESS ||
      OTF2_Archive_SetProperty(P->Archive, StateProperty, StateComplete,
                               true) != OTF2_SUCCESS ||
      (!P->Opt.Filter.empty() &&
       OTF2_Archive_SetProperty(P->Archive, FilterProperty,
                                P->Opt.Filter.c_str(), true) != OTF2_SUCCESS) ||
      OTF2_Archive_OpenEvtFiles(P->Archive) != OTF2_SUCCESS) {
    Error = "cannot set up OTF2 archive in '" + P->Opt.Dir + "': " +
            lastOtf2Error();
    OTF2_Archive_Close(P->Archive);
    P->Archive = nullptr;
    return false;
  }
  P->Open = true;
  P->ErrorsAtOpen = otf2ErrorCount();
  return true;
}

Location *TraceWriter::Impl::location(std::uint32_t Index,
                                      std::uint32_t Type) {
  std::lock_guard<std::mutex> G(M);
  if (!Open || Closed)
    return nullptr;
  if (Index < Locs.size() && Locs[Index])
    return Locs[Index];
  if (Index >= Locs.size())
    Locs.resize(Index + 1, nullptr);
  auto *L = new Location(Index); // bad_alloc: write() counts the loss
  L->Type = Type;
  L->W = OTF2_Archive_GetEvtWriter(Archive, Index);
  L->Attrs = OTF2_AttributeList_New();
  if (!L->W || !L->Attrs) {
    if (L->Attrs)
      OTF2_AttributeList_Delete(L->Attrs);
    delete L;
    return nullptr;
  }
  if (Opt.DirectRecords)
    L->D.attach(L->W, Archive, Index, Opt.ChunkBytes);
  Locs[Index] = L;
  return L;
}

namespace {
std::string labelKey(const SourceLabel &L) {
  if (L.Quality == LabelQuality::Exact || L.Quality == LabelQuality::Fallback)
    return "d:" + std::to_string(L.RegionId) + ":" + L.File + ":" +
           std::to_string(L.Line) + ":" + std::to_string(L.Col);
  if (!L.File.empty() && L.Line)
    return "f:" + L.File + ":" + std::to_string(L.Line) + ":" + L.Function;
  return "a:" + L.Location;
}
std::string labelWhere(const SourceLabel &L) {
  if (!L.File.empty() && L.Line)
    return L.File + ":" + std::to_string(L.Line);
  if (!L.Function.empty())
    return "~" + L.Function;
  if (!L.Location.empty())
    return "~" + L.Location;
  return "";
}
inline std::size_t mixSlot(std::uint64_t K) {
  return std::size_t((K * 0x9E3779B97F4A7C15ull) >> 56);
}
} // namespace

inline std::uint32_t TraceWriter::Impl::codeId(Location &L,
                                               std::uint64_t Code) {
  if (!Code)
    return 0;
  std::size_t S = mixSlot(Code);
  if (L.CodeKeys[S] == Code) [[likely]]
    return L.CodeVals[S];
  return newCodeId(L, Code);
}

std::uint32_t TraceWriter::Impl::newCodeId(Location &L, std::uint64_t Code) {
  std::size_t S = mixSlot(Code);
  std::uint32_t Id;
  {
    std::lock_guard<std::mutex> G(M);
    auto It = CodeIds.find(Code);
    if (It != CodeIds.end())
      Id = It->second;
    else {
      CodeEntry C;
      C.Code = Code;
      try {
        C.Label = Resolve(Code);
      } catch (...) {
      }
      C.Key = labelKey(C.Label);
      C.Where = labelWhere(C.Label);
      Id = std::uint32_t(Codes.size());
      Codes.push_back(std::move(C));
      CodeIds.emplace(Code, Id);
    }
  }
  L.CodeKeys[S] = Code;
  L.CodeVals[S] = Id;
  return Id;
}

inline std::uint32_t TraceWriter::Impl::region(Location &L, RegionClass C,
                                               std::uint16_t Sub,
                                               std::uint32_t Code) {
  std::uint64_t K = (std::uint64_t(Code) << 24) |
                    (std::uint64_t(C) << 16) | Sub;
  std::size_t S = mixSlot(K + 1);
  if (L.RegionKeys[S] == K + 1) [[likely]]
    return L.RegionVals[S];
  return newRegion(L, C, Sub, Code);
}

std::uint32_t TraceWriter::Impl::newRegion(Location &L, RegionClass C,
                                           std::uint16_t Sub,
                                           std::uint32_t Code) {
  std::uint64_t K = (std::uint64_t(Code) << 24) |
                    (std::uint64_t(C) << 16) | Sub;
  std::size_t S = mixSlot(K + 1);
  std::uint32_t Id;
  {
    std::lock_guard<std::mutex> G(M);
    std::string Key = std::to_string(unsigned(C)) + ":" +
                      std::to_string(Sub) + "|" + Codes[Code].Key;
    auto It = RegionIds.find(Key);
    if (It != RegionIds.end())
      Id = It->second;
    else {
      Id = std::uint32_t(Regions.size());
      Regions.push_back({C, Sub, Code});
      RegionIds.emplace(std::move(Key), Id);
    }
    if (Codes[Code].Region == NoRef)
      Codes[Code].Region = Id;
  }
  L.RegionKeys[S] = K + 1;
  L.RegionVals[S] = Id;
  return Id;
}

void TraceWriter::consume(const ThreadInfo &T, const Event *Events,
                          std::size_t N) {
  write(T.Index, T.Type, Events, N);
}

void TraceWriter::write(std::uint32_t Index, std::uint32_t Type,
                        const Event *Events, std::size_t N) {
  std::size_t Done = 0;
  try {
    Location *L = P->location(Index, Type);
    if (!L)
      return;
    std::lock_guard<std::mutex> G(L->M);
    if (L->Closed || L->Failed)
      return; // (after a failed write: dropped, see writeFailed)
    if (N && L->MinT.load(std::memory_order_relaxed) == ~0ull)
      L->MinT.store(Events[0].Time, std::memory_order_relaxed);
    for (; Done < N; ++Done)
      P->encode(*L, Events[Done]);
    std::lock_guard<std::mutex> G2(P->M);
    P->EventCount += N;
  } catch (...) {
    // Out of memory (the tables of code addresses and regions grow, a new
    // location): the rest of this buffer is lost, the application runs on.
    // Counted, and reported once when the trace is closed (as the graph
    // sink reports its own).
    std::lock_guard<std::mutex> G(P->M);
    P->EventCount += Done;
    P->DroppedEvents += N - Done;
  }
}

/// OTF2 could not write a full chunk of this location out (the disk is
/// full, or the file system failed). The application must run on as if
/// nothing happened: the location takes no more events (each would retry
/// the failing write), and close() reports the trace incomplete. What was
/// written before stays readable (see "Surviving SIGKILL").
[[gnu::noinline, gnu::cold]] void TraceWriter::Impl::writeFailed(Location &L) {
  L.Failed = true;
  std::lock_guard<std::mutex> G(M);
  if (WriteError.empty())
    WriteError = "thread " + std::to_string(L.Index) + ": " + lastOtf2Error();
  cutBackToDisk(L);
}

/// The location's attribute list holding the fields in Miss (a bit per
/// Attr): out of line, as it is rare.
[[gnu::noinline, gnu::cold]] OTF2_AttributeList *
TraceWriter::Impl::attributes(Location &L, unsigned Miss, const Event &Ev,
                              std::uint32_t Code) {
  OTF2_AttributeList *AL = L.Attrs;
  if (Miss & 1u << AttrTask)
    OTF2_AttributeList_AddUint64(AL, AttrTask, Ev.Task);
  if (Miss & 1u << AttrSeq)
    OTF2_AttributeList_AddUint32(AL, AttrSeq, Ev.Seq);
  if (Miss & 1u << AttrA)
    OTF2_AttributeList_AddUint64(AL, AttrA, Ev.A);
  if (Miss & 1u << AttrCode)
    OTF2_AttributeList_AddUint32(AL, AttrCode, Code);
  if (Miss & 1u << AttrAux)
    OTF2_AttributeList_AddUint32(AL, AttrAux, Ev.Aux);
  if (Miss & 1u << AttrSub)
    OTF2_AttributeList_AddUint32(AL, AttrSub, Ev.Sub);
  if (Miss & 1u << AttrExtra)
    OTF2_AttributeList_AddUint32(AL, AttrExtra, Ev.Extra);
  ++L.AttrEvents;
  return AL;
}

/// Encodes one event as its primary OTF2 record (plus decorations), with
/// attributes for the fields the prediction gets wrong. `K` is `Ev.Kind`;
/// encode() calls this with constant kinds for the events of steady task
/// streams (create, schedule, taskwait), so that the compiler folds every
/// test of the kind here and in the Predictor away -- one source, a lean
/// instance per hot kind.
[[gnu::always_inline]] inline void
TraceWriter::Impl::encodeAs(Location &L, const Event &Ev, const EventKind K) {
  const std::uint32_t Code = codeId(L, Ev.Code);
  // OTF2 refuses a timestamp older than the location's last one (and drops
  // the record): a counter read on another core may lag by a few ticks.
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Ev.Time > Latest ? Ev.Time : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  OTF2_EvtWriter *W = L.W;
  Native N;
  N.Kind = K;
  N.Time = Ev.Time;

  // Choose the primary record and fill in what it carries natively.
  enum { PEnter, PLeave, PFork, PJoin, PCreate, PSwitch, PParam } Prim;
  std::uint32_t Region = 0, Th = 0, Gen = 0, ParamRef = 0;
  RegionClass RClass = RegionClass::Count; // Region's class and sub
  std::uint16_t RSub = 0;
  std::uint64_t ParamVal = 0;
  bool StartBody = false;
  // A task switch's records before its ThreadTaskSwitch, written with it
  // (PSwitch below): the Leave of the prior task's body region, its
  // ThreadTaskComplete.
  bool LeaveBody = false, SwitchComplete = false;
  std::uint32_t BodyRegion = 0, CTh = 0, CGen = 0;
  // A Leave closes the innermost open region, or it is not written as one
  // (see "Balanced regions" below): false then.
  auto leaveRegion = [&](RegionClass C) __attribute__((always_inline)) {
    if ((!L.Stack.empty() && L.Stack.back().Class == C) ||
        leaveMismatched(L, C, T)) [[likely]] {
      Region = L.Stack.back().Region;
      RSub = L.Stack.back().Sub;
      RClass = C;
      L.Stack.pop_back();
      return true;
    }
    return false;
  };
  auto enterRegion = [&](RegionClass C, std::uint16_t Sub)
                         __attribute__((always_inline)) {
    Region = region(L, C, Sub, Code);
    RClass = C;
    RSub = Sub;
    L.Stack.push({Region, C, Sub});
  };
  // The event table (otter/event_kinds.def) gives the record; the cases
  // below add what some kinds need beyond it. K is a constant in the hot
  // encoders (see encode()): the lookups fold away.
  const KindInfo &Info = kindInfo(K);
  auto subFromRegion = [&]() __attribute__((always_inline)) {
    if (Info.SubInRegion) {
      N.HasSub = true;
      N.Sub = RSub;
    }
  };

  switch (Info.Record) {
  case Otf2Record::Enter: {
    std::uint16_t Sub = Ev.Sub;
    if (K == EventKind::ThreadBegin)
      L.Type = Ev.Sub;
    if (K == EventKind::ImplicitTaskBegin) {
      if (!(Ev.Extra & TaskInitial))
        OTF2_EvtWriter_ThreadTeamBegin(W, nullptr, T, TeamComm);
      Sub = (Ev.Extra & TaskInitial) ? 1 : 0;
      if (L.RunN < Location::RunningCapacity)
        L.Running[L.RunN++] = Ev.Task;
    }
    // A nest lock the task already owns is acquired again with no
    // mutex_acquired (libomp reports nest_lock_begin instead), and a region
    // of its wait would never be left: that wait is a parameter, as is any
    // region past the open-region capacity (see "Balanced regions").
    if ((K == EventKind::MutexAcquire &&
         (Ev.Sub == std::uint16_t(MutexKind::NestLock) ||
          Ev.Sub == std::uint16_t(MutexKind::TestNestLock))) ||
        L.Stack.Size == Location::OpenStack::Capacity) [[unlikely]] {
      ParamRef = ParamEvent;
      ParamVal = std::uint64_t(K);
      Prim = PParam;
      break;
    }
    enterRegion(Info.Class, Sub);
    subFromRegion();
    Prim = PEnter;
    break;
  }
  case Otf2Record::Leave:
    if (K == EventKind::ImplicitTaskEnd && L.RunN &&
        L.Running[L.RunN - 1] == Ev.Task)
      --L.RunN;
    if (leaveRegion(Info.Class)) [[likely]] {
      subFromRegion();
      Prim = PLeave;
    } else {
      // No open region of its class to close: the event as a parameter
      // (read back the same), so that the location stays balanced.
      ParamRef = ParamEvent;
      ParamVal = std::uint64_t(K);
      Prim = PParam;
    }
    break;
  case Otf2Record::Fork:
    N.HasAux = true;
    N.Aux = Ev.Aux;
    Prim = PFork;
    break;
  case Otf2Record::Join:
    Prim = PJoin;
    break;
  case Otf2Record::Create:
    N.HasA = true;
    N.A = idToPair(Ev.A, Th, Gen);
    {
      // Where the task was created, for its body region (taskBodyRegion).
      const std::size_t Slot = taskSlot(Ev.A);
      TaskCodes[Slot].store(Code, std::memory_order_relaxed);
      TaskKeys[Slot].store(Ev.A, std::memory_order_release);
    }
    if (Code && (Code >= L.TaskSiteNamed.size() || !L.TaskSiteNamed[Code])) {
      // Name the task construct (a region of role TASK) once per site.
      region(L, RegionClass::Task, 0, Code);
      if (Code >= L.TaskSiteNamed.size())
        L.TaskSiteNamed.resize(Code + 64, 0);
      L.TaskSiteNamed[Code] = 1;
    }
    Prim = PCreate;
    break;
  case Otf2Record::Switch: {
    bool Complete = Ev.Sub == std::uint16_t(ScheduleStatus::Complete) ||
                    Ev.Sub == std::uint16_t(ScheduleStatus::Cancel);
    // Task bodies (see "Task bodies" below): the prior task's body region
    // ends when its body did, or when the thread goes back to the task it
    // was running before (an untied task's part); the next task's begins
    // when it starts here.
    const bool Resume = L.RunN >= 2 && L.Running[L.RunN - 2] == Ev.A;
    const bool BodyEnds =
        Complete || Ev.Sub == std::uint16_t(ScheduleStatus::Detach) ||
        Ev.Sub == std::uint16_t(ScheduleStatus::EarlyFulfill);
    if ((BodyEnds || Resume) && L.RunN && L.Running[L.RunN - 1] == Ev.Task &&
        !L.Stack.empty() && L.Stack.back().Class == RegionClass::Task) {
      LeaveBody = true;
      BodyRegion = L.Stack.back().Region;
      L.Stack.pop_back();
      --L.RunN;
    }
    StartBody = !Resume &&
                (Ev.Sub == std::uint16_t(ScheduleStatus::Switch) ||
                 Ev.Sub == std::uint16_t(ScheduleStatus::Yield)) &&
                L.RunN < Location::RunningCapacity &&
                L.Stack.Size < Location::OpenStack::Capacity;
    if (Complete) {
      N.HasTask = true;
      N.Task = idToPair(Ev.Task, CTh, CGen);
      SwitchComplete = true;
    }
    N.HasA = true;
    N.A = idToPair(Ev.A, Th, Gen);
    N.HasSub = true;
    N.Sub = Complete ? 1 : 7;
    Prim = PSwitch;
    break;
  }
  case Otf2Record::Param:
    ParamRef = Info.Param;
    ParamVal = Ev.A;
    N.HasA = true;
    N.A = Ev.A;
    Prim = PParam;
    break;
  default: // not a kind (MPI kinds go to encodeMpi)
    ParamRef = ParamEvent;
    ParamVal = std::uint64_t(K);
    Prim = PParam;
    break;
  }

  // Attributes for what the prediction gets wrong.
  OTF2_AttributeList *AL = nullptr;
  if (unsigned Miss = L.P.check(N, Ev, Code)) [[unlikely]]
    AL = attributes(L, Miss, Ev, Code);

  // A record fails when OTF2 cannot write a full chunk out (disk full):
  // see write() and close().
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  switch (Prim) {
  case PEnter:
    Status =
        AL ? OTF2_EvtWriter_Enter(W, AL, T, Region) : writeEnter(L, T, Region);
    break;
  case PLeave:
    Status =
        AL ? OTF2_EvtWriter_Leave(W, AL, T, Region) : writeLeave(L, T, Region);
    break;
  case PFork: {
    Status = OTF2_EvtWriter_ThreadFork(W, AL, T, OTF2_PARADIGM_OPENMP, Ev.Aux);
    std::uint32_t R = region(L, RegionClass::Parallel, 0, Code);
    L.Stack.push({R, RegionClass::Parallel, 0});
    writeEnter(L, T, R);
    break;
  }
  case PJoin: {
    if ((!L.Stack.empty() && L.Stack.back().Class == RegionClass::Parallel) ||
        leaveMismatched(L, RegionClass::Parallel, T)) {
      writeLeave(L, T, L.Stack.back().Region);
      L.Stack.pop_back();
    }
    Status = OTF2_EvtWriter_ThreadJoin(W, AL, T, OTF2_PARADIGM_OPENMP);
    break;
  }
  case PCreate:
    Status = AL ? OTF2_EvtWriter_ThreadTaskCreate(W, AL, T, TeamComm, Th, Gen)
                : writeTask(L, Otf2Direct::TaskCreate, T, Th, Gen);
    break;
  case PSwitch: {
    // [Leave body] [ThreadTaskComplete] ThreadTaskSwitch [Enter body], all
    // at T: in place in one go when they can be (otf2_direct.h).
    const std::uint32_t R = StartBody ? taskBodyRegion(L, Ev.A) : 0;
    unsigned char *C, *Pos = AL ? nullptr : L.D.open(T, C);
    if (Pos) [[likely]] {
      if (LeaveBody)
        Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Leave, BodyRegion);
      if (SwitchComplete)
        Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskComplete, TeamComm, CTh,
                                  CGen);
      Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskSwitch, TeamComm, Th, Gen);
      if (StartBody)
        Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Enter, R);
      L.D.close(C, Pos, 1 + LeaveBody + SwitchComplete + StartBody);
    } else {
      if (LeaveBody)
        writeLeave(L, T, BodyRegion);
      if (SwitchComplete && writeTask(L, Otf2Direct::TaskComplete, T, CTh,
                                      CGen) != OTF2_SUCCESS) [[unlikely]]
        writeFailed(L);
      Status = AL ? OTF2_EvtWriter_ThreadTaskSwitch(W, AL, T, TeamComm, Th, Gen)
                  : writeTask(L, Otf2Direct::TaskSwitch, T, Th, Gen);
      if (StartBody)
        writeEnter(L, T, R);
    }
    if (StartBody) {
      L.Stack.push({R, RegionClass::Task, 0});
      L.Running[L.RunN++] = Ev.A;
    }
    break;
  }
  case PParam:
    Status =
        OTF2_EvtWriter_ParameterUnsignedInt(W, AL, T, ParamRef, ParamVal);
    break;
  }
  if (Status != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
  // Decorations after the primary record.
  if (K == EventKind::ImplicitTaskEnd &&
      RClass == RegionClass::ImplicitTask && RSub == 0)
    OTF2_EvtWriter_ThreadTeamEnd(W, nullptr, T, TeamComm);
  if (K == EventKind::MutexAcquired) {
    OTF2_EvtWriter_ThreadAcquireLock(W, nullptr, T, OTF2_PARADIGM_OPENMP,
                                     std::uint32_t(Ev.A ^ (Ev.A >> 32)),
                                     ++L.LockOrder);
    enterRegion(RegionClass::MutexHeld, Ev.Sub);
    writeEnter(L, T, Region);
  }
  if (K == EventKind::MutexReleased)
    OTF2_EvtWriter_ThreadReleaseLock(W, nullptr, T, OTF2_PARADIGM_OPENMP,
                                     std::uint32_t(Ev.A ^ (Ev.A >> 32)),
                                     L.LockOrder);
}

/// Any event kind (the rare ones), out of line.
[[gnu::noinline]] void TraceWriter::Impl::encodeAny(Location &L,
                                                    const Event &Ev) {
  if (!codeIsAddress(Ev.Kind)) [[unlikely]]
    return encodeMpi(L, Ev);
  encodeAs(L, Ev, Ev.Kind);
}

/// Definitions an MPI event brings (rank, communicators). Rare.
void TraceWriter::Impl::noteMpi(const Event &Ev) {
  std::lock_guard<std::mutex> G(M);
  SawMpi = true;
  switch (Ev.Kind) {
  case EventKind::MpiInit:
    Rank = mpi::worldRank(Ev);
    WorldSize = mpi::worldSize(Ev);
    break;
  case EventKind::MpiClockOffset:
    ClockOffsets += std::to_string(mpi::clockOffsetTime(Ev)) + ":" +
                    std::to_string(mpi::clockOffset(Ev)) + ":" +
                    std::to_string(Ev.Aux) + ";";
    break;
  case EventKind::MpiCommCreate: {
    MpiComm &C = MpiComms[mpi::comm(Ev)];
    C = MpiComm();
    C.Key = mpi::commKey(Ev);
    C.Parent = mpi::parentKey(Ev);
    C.Size = mpi::commSize(Ev);
    break;
  }
  case EventKind::MpiCommMembers: {
    auto It = MpiComms.find(mpi::comm(Ev));
    if (It == MpiComms.end())
      break;
    std::uint32_t First, R[4];
    unsigned N = mpi::members(Ev, First, R);
    std::vector<std::uint32_t> &V = It->second.Members;
    if (First + N > It->second.Size || First + N > (1u << 24))
      break;
    if (V.size() < First + N)
      V.resize(First + N, mpi::NoRank);
    for (unsigned I = 0; I < N; ++I)
      V[First + I] = R[I];
    break;
  }
  default:
    break;
  }
}

/// An MPI event whose Code is payload (otter/mpi.h): OTF2's own MPI record
/// where there is one (MpiSend ... MpiCollectiveEnd, CommCreate), else a
/// parameter event. The Predictor sees the event with Code 0 and, where the
/// record carries Extra natively, the Extra it predicts; the reader puts the
/// record's values back after its own prediction (reader.cpp, emitMpi), so
/// both run the same model. Code goes in the otter:payload attribute unless
/// the record carries it.
void TraceWriter::Impl::encodeMpi(Location &L, const Event &Ev) {
  const EventKind K = Ev.Kind;
  if (K == EventKind::MpiInit || K == EventKind::MpiCommCreate ||
      K == EventKind::MpiCommMembers || K == EventKind::MpiClockOffset ||
      !SawMpi)
    noteMpi(Ev);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Ev.Time > Latest ? Ev.Time : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  OTF2_EvtWriter *W = L.W;
  Native N;
  N.Kind = K;
  N.Time = Ev.Time;
  const OTF2_CommRef Comm = mpi::comm(Ev) ? mpi::comm(Ev) : OTF2_UNDEFINED_COMM;
  const std::uint64_t Request = mpi::request(Ev);
  bool ExtraNative = false, CodeNative = false;
  switch (K) {
  case EventKind::MpiSend:
  case EventKind::MpiIsend:
  case EventKind::MpiRecv:
  case EventKind::MpiIrecv:
    N.HasA = true;
    N.A = Ev.A;
    N.HasAux = true;
    N.Aux = Ev.Aux;
    ExtraNative = true;
    break;
  case EventKind::MpiCollectiveEnd:
    N.HasA = true;
    N.A = Ev.A;
    N.HasAux = true;
    N.Aux = Ev.Aux;
    ExtraNative = CodeNative = true;
    break;
  default:
    break;
  }
  Event Model = L.Mpi.model(Ev); // what the Predictor sees
  if (ExtraNative)
    Model.Extra = L.P.predict(N).Extra;
  OTF2_AttributeList *AL = nullptr;
  if (unsigned Miss = L.P.check(N, Model, 0))
    AL = attributes(L, Miss, Model, 0);
  if (!CodeNative && L.Mpi.payloadMissed(Ev)) {
    AL = L.Attrs;
    OTF2_AttributeList_AddUint64(AL, AttrPayload, Ev.Code);
  }
  const mpi::Message Msg = mpi::messageOf(Ev);
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  switch (K) {
  case EventKind::MpiSend:
    Status = OTF2_EvtWriter_MpiSend(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                    Msg.Bytes);
    break;
  case EventKind::MpiIsend:
    Status = OTF2_EvtWriter_MpiIsend(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                     Msg.Bytes, Request);
    break;
  case EventKind::MpiIsendComplete:
    Status = OTF2_EvtWriter_MpiIsendComplete(W, AL, T, Request);
    break;
  case EventKind::MpiIrecvRequest:
    Status = OTF2_EvtWriter_MpiIrecvRequest(W, AL, T, Request);
    break;
  case EventKind::MpiRecv:
    Status = OTF2_EvtWriter_MpiRecv(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                    Msg.Bytes);
    break;
  case EventKind::MpiIrecv:
    Status = OTF2_EvtWriter_MpiIrecv(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                     Msg.Bytes, Request);
    break;
  case EventKind::MpiRequestTest:
    Status = OTF2_EvtWriter_MpiRequestTest(W, AL, T, Request);
    break;
  case EventKind::MpiRequestCancelled:
    Status = OTF2_EvtWriter_MpiRequestCancelled(W, AL, T, Request);
    break;
  case EventKind::MpiCollectiveBegin:
    Status =
        Request ? OTF2_EvtWriter_NonBlockingCollectiveRequest(W, AL, T, Request)
                : OTF2_EvtWriter_MpiCollectiveBegin(W, AL, T);
    break;
  case EventKind::MpiCollectiveEnd: {
    auto Op = OTF2_CollectiveOp(mpi::collectiveOp(Ev));
    Status = Request ? OTF2_EvtWriter_NonBlockingCollectiveComplete(
                           W, AL, T, Op, Comm, mpi::rootInComm(Ev),
                           mpi::bytesSent(Ev), mpi::bytesReceived(Ev), Request)
                     : OTF2_EvtWriter_MpiCollectiveEnd(
                           W, AL, T, Op, Comm, mpi::rootInComm(Ev),
                           mpi::bytesSent(Ev), mpi::bytesReceived(Ev));
    break;
  }
  case EventKind::MpiCommCreate:
    Status = OTF2_EvtWriter_CommCreate(W, AL, T, Comm);
    break;
  case EventKind::MpiCommFree:
    Status = OTF2_EvtWriter_CommDestroy(W, AL, T, Comm);
    break;
  default:
    Status = OTF2_EvtWriter_ParameterUnsignedInt(W, AL, T, ParamEvent,
                                                 std::uint64_t(K));
    break;
  }
  if (Status != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
}

[[gnu::always_inline]] inline void
TraceWriter::Impl::encode(Location &L, const Event &Ev) {
  switch (Ev.Kind) {
  case EventKind::TaskCreate:
    return encodeAs(L, Ev, EventKind::TaskCreate);
  case EventKind::TaskSchedule:
    return encodeAs(L, Ev, EventKind::TaskSchedule);
  case EventKind::SyncBegin:
    return encodeAs(L, Ev, EventKind::SyncBegin);
  case EventKind::SyncEnd:
    // A region whose wait was entered on its own (a taskgroup's, at its
    // end) but ends with it: both Leaves, innermost first.
    if ((Ev.Extra & SyncWaitFolded) && !L.Stack.empty() &&
        L.Stack.back().Class == RegionClass::SyncWait) [[unlikely]]
      return encodeSplitEnd(L, Ev);
    return encodeAs(L, Ev, EventKind::SyncEnd);
  default:
    return encodeAny(L, Ev);
  }
}

// --- Balanced regions -----------------------------------------------------
//
// Every location's Enter and Leave records nest: each Leave closes the
// innermost open region (otf2-snapshots, Vampir and other readers rely on
// it; test/lit/Inputs/check-trace.py checks every lit test's archive). The
// events pair up by construction except where OMPT's reports do not nest:
//  - a sync region whose wait was reported apart at its begin but folded
//    into its end (every taskgroup) is written as two Leaves
//    (encodeSplitEnd), and read back as the same two events;
//  - a Leave event with no open region of its class (a wait folded into
//    its region's begin but reported apart at the end, a report lost to the
//    filter, ...) is written as an `otter:event` parameter, which the reader
//    reads back as the same event: it closes no region.
//
// Task bodies: an explicit task's execution is a region, the `task @
// file:line` region of its task construct (role TASK; `task` when the
// writer has not seen its creation), entered at the ThreadTaskSwitch that
// starts it and left before the ThreadTaskComplete (or the switch) that
// ends its body. A task suspended at a task scheduling point (taskwait,
// barrier, taskyield, taskgroup end) keeps its body region open: libomp
// runs the tasks scheduled there nested in the suspended one's call, on the
// same thread, so their regions nest inside the open wait region, and the
// suspended task resumes only when they are done -- a thread's open regions
// are one stack, as its call stack is. A task leaves no body region open
// when the thread goes back to the task below it (an untied task's part
// ends; Location::Running tracks the tasks of the stack). The reader ignores
// these regions (class Task: no event kind).

/// A Leave of class C whose region is not the innermost open one: task
/// bodies left open above the region (a task switch the writer could not
/// pair) are closed first. True when the region of class C is then the
/// innermost one (the caller pops it); nothing is written otherwise.
[[gnu::noinline, gnu::cold]] bool
TraceWriter::Impl::leaveMismatched(Location &L, RegionClass C,
                                   OTF2_TimeStamp T) {
  unsigned I = L.Stack.Size;
  while (I && L.Stack.Items[I - 1].Class == RegionClass::Task)
    --I;
  if (!I || I == L.Stack.Size || L.Stack.Items[I - 1].Class != C)
    return false;
  while (L.Stack.Size > I) {
    writeLeave(L, T, L.Stack.back().Region);
    L.Stack.pop_back();
    if (L.RunN)
      --L.RunN;
  }
  return true;
}

/// A folded SyncEnd whose wait region is open on its own: its wait's end,
/// then its own (unfoldEvent), each its own Leave.
[[gnu::noinline]] void TraceWriter::Impl::encodeSplitEnd(Location &L,
                                                         const Event &Ev) {
  Event Pair[2];
  unfoldEvent(Ev, Pair);
  encodeAny(L, Pair[0]);
  encodeAny(L, Pair[1]);
}

/// The body region of task Task: its task construct's, when its creation
/// was encoded (by any location) and its slot not taken since.
std::uint32_t TraceWriter::Impl::taskBodyRegion(Location &L,
                                                std::uint64_t Task) {
  const std::size_t Slot = taskSlot(Task);
  std::uint32_t Code = 0;
  if (TaskKeys[Slot].load(std::memory_order_acquire) == Task) {
    Code = TaskCodes[Slot].load(std::memory_order_relaxed);
    if (TaskKeys[Slot].load(std::memory_order_relaxed) != Task)
      Code = 0; // overwritten meanwhile
  }
  return region(L, RegionClass::Task, 0, Code);
}

namespace {

std::string hexKey(std::uint64_t Key) {
  char B[20];
  std::snprintf(B, sizeof B, "%016llx", (unsigned long long)Key);
  return B;
}

const char *syncName(unsigned S) {
  static const char *N[] = {"sync",
                            "barrier",
                            "barrier_implicit",
                            "barrier",
                            "barrier_implementation",
                            "taskwait",
                            "taskgroup",
                            "reduction",
                            "barrier_implicit_workshare",
                            "barrier_implicit_parallel",
                            "barrier_teams"};
  return S < 11 ? N[S] : "sync";
}
const char *workName(unsigned S) {
  static const char *N[] = {"work",       "loop",        "sections",
                            "single",     "single",      "workshare",
                            "distribute", "taskloop",    "scope",
                            "work",       "loop",        "loop",
                            "loop",       "loop"};
  return S < 14 ? N[S] : "work";
}
const char *mutexName(unsigned S) {
  static const char *N[] = {"mutex",          "lock",     "lock",
                            "nest_lock",      "nest_lock", "critical",
                            "atomic",         "ordered"};
  return S < 8 ? N[S] : "mutex";
}

OTF2_RegionRole mpiRole(mpi::Function F) {
  using mpi::Function;
  switch (F) {
  case Function::Barrier:
  case Function::Ibarrier:
    return OTF2_REGION_ROLE_BARRIER;
  case Function::Bcast:
  case Function::Ibcast:
  case Function::Scatter:
  case Function::Iscatter:
  case Function::Scatterv:
  case Function::Iscatterv:
    return OTF2_REGION_ROLE_COLL_ONE2ALL;
  case Function::Reduce:
  case Function::Ireduce:
  case Function::Gather:
  case Function::Igather:
  case Function::Gatherv:
  case Function::Igatherv:
    return OTF2_REGION_ROLE_COLL_ALL2ONE;
  case Function::Allreduce:
  case Function::Iallreduce:
  case Function::Allgather:
  case Function::Iallgather:
  case Function::Allgatherv:
  case Function::Iallgatherv:
  case Function::Alltoall:
  case Function::Ialltoall:
  case Function::Alltoallv:
  case Function::Ialltoallv:
  case Function::Reduce_scatter:
  case Function::Ireduce_scatter:
  case Function::Reduce_scatter_block:
  case Function::Ireduce_scatter_block:
    return OTF2_REGION_ROLE_COLL_ALL2ALL;
  case Function::Scan:
  case Function::Iscan:
  case Function::Exscan:
  case Function::Iexscan:
    return OTF2_REGION_ROLE_COLL_OTHER;
  default:
    return unsigned(F) >= 10 && unsigned(F) < 50 ? OTF2_REGION_ROLE_POINT2POINT
                                                 : OTF2_REGION_ROLE_FUNCTION;
  }
}

OTF2_RegionRole roleOf(RegionClass C, unsigned S) {
  switch (C) {
  case RegionClass::Thread:
    return OTF2_REGION_ROLE_ARTIFICIAL;
  case RegionClass::ImplicitTask:
    return S ? OTF2_REGION_ROLE_ARTIFICIAL : OTF2_REGION_ROLE_TASK;
  case RegionClass::Parallel:
    return OTF2_REGION_ROLE_PARALLEL;
  case RegionClass::Sync:
  case RegionClass::SyncWait:
    switch (SyncKind(S)) {
    case SyncKind::Barrier:
    case SyncKind::BarrierExplicit:
      return OTF2_REGION_ROLE_BARRIER;
    case SyncKind::Taskwait:
      return OTF2_REGION_ROLE_TASK_WAIT;
    case SyncKind::Taskgroup:
      return C == RegionClass::Sync ? OTF2_REGION_ROLE_CODE
                                    : OTF2_REGION_ROLE_TASK_WAIT;
    case SyncKind::Reduction:
      return OTF2_REGION_ROLE_CODE;
    default:
      return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    }
  case RegionClass::Work:
    switch (WorkKind(S)) {
    case WorkKind::Sections:
      return OTF2_REGION_ROLE_SECTIONS;
    case WorkKind::SingleExecutor:
    case WorkKind::SingleOther:
      return OTF2_REGION_ROLE_SINGLE;
    case WorkKind::Workshare:
      return OTF2_REGION_ROLE_WORKSHARE;
    case WorkKind::Scope:
      return OTF2_REGION_ROLE_CODE;
    default:
      return OTF2_REGION_ROLE_LOOP;
    }
  case RegionClass::Masked:
    return OTF2_REGION_ROLE_MASTER;
  case RegionClass::MutexWait:
    switch (MutexKind(S)) {
    case MutexKind::Critical:
      return OTF2_REGION_ROLE_CRITICAL;
    case MutexKind::Ordered:
      return OTF2_REGION_ROLE_ORDERED;
    case MutexKind::Atomic:
      return OTF2_REGION_ROLE_ATOMIC;
    default:
      return OTF2_REGION_ROLE_THREAD_WAIT;
    }
  case RegionClass::MutexHeld:
    switch (MutexKind(S)) {
    case MutexKind::Critical:
      return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    case MutexKind::Ordered:
      return OTF2_REGION_ROLE_ORDERED_SBLOCK;
    case MutexKind::Atomic:
      return OTF2_REGION_ROLE_ATOMIC;
    default:
      return OTF2_REGION_ROLE_CODE;
    }
  case RegionClass::NestLock:
    return OTF2_REGION_ROLE_CODE;
  case RegionClass::Task:
    return OTF2_REGION_ROLE_TASK;
  case RegionClass::MpiCall:
    return mpiRole(mpi::Function(S));
  default:
    return OTF2_REGION_ROLE_CODE;
  }
}

std::string regionBaseName(RegionClass C, unsigned S) {
  switch (C) {
  case RegionClass::Thread:
    return S == 1 ? "initial thread" : S == 2 ? "worker thread"
                                              : "other thread";
  case RegionClass::ImplicitTask:
    return S ? "initial task" : "implicit task";
  case RegionClass::Parallel:
    return "parallel";
  case RegionClass::Sync:
    return syncName(S);
  case RegionClass::SyncWait:
    return std::string(syncName(S)) + " (wait)";
  case RegionClass::Work:
    return workName(S);
  case RegionClass::Masked:
    return "masked";
  case RegionClass::MutexWait:
    return std::string(mutexName(S)) + " (acquire)";
  case RegionClass::MutexHeld:
    return std::string(mutexName(S)) + " (held)";
  case RegionClass::NestLock:
    return "nest_lock (nested)";
  case RegionClass::Task:
    return "task";
  case RegionClass::MpiCall:
    return mpi::functionName(mpi::Function(S));
  default:
    return "code";
  }
}

class Strings {
public:
  std::uint32_t operator()(const std::string &S) {
    auto It = Map.find(S);
    if (It != Map.end())
      return It->second;
    std::uint32_t Id = std::uint32_t(List.size());
    List.push_back(S);
    Map.emplace(S, Id);
    return Id;
  }
  std::vector<std::string> List;

private:
  std::unordered_map<std::string, std::uint32_t> Map;
};

OTF2_AttributeValue u64(std::uint64_t V) {
  OTF2_AttributeValue A;
  A.uint64 = V;
  return A;
}
OTF2_AttributeValue u32(std::uint32_t V) {
  OTF2_AttributeValue A;
  A.uint32 = V;
  return A;
}
OTF2_AttributeValue str(std::uint32_t V) {
  OTF2_AttributeValue A;
  A.stringRef = V;
  return A;
}

} // namespace

/// Writes every definition known so far. Called with M held. Checkpoint:
/// only the locations whose events are on disk, with the count on disk.
void TraceWriter::Impl::writeDefinitions(OTF2_GlobalDefWriter *D,
                                         bool Checkpoint) {
  auto listed = [&](std::size_t I) {
    return Locs[I] && (!Checkpoint || Locs[I]->OnDisk);
  };
  Strings S;
  // Intern every string first: definitions may only reference strings
  // defined before them.
  std::uint32_t SEmpty = S("");
  std::uint32_t SOpenMP = S("OpenMP");
  char Host[256] = "localhost";
  gethostname(Host, sizeof Host - 1);
  std::uint32_t SHost = S(Host), SMachine = S("machine");
  const std::int64_t RankNow = Rank >= 0 ? Rank : Opt.Rank;
  std::uint32_t SProcess =
      S(RankNow >= 0 ? "MPI rank " + std::to_string(RankNow)
                     : "process " + std::to_string(getpid()));
  std::uint32_t SMpi = S("MPI");
  const bool SawPhase =
      std::any_of(Regions.begin(), Regions.end(), [](const RegionEntry &R) {
        return R.Class == RegionClass::Phase;
      });
  std::uint32_t SUser = SawPhase ? S("User") : 0;
  std::map<std::uint16_t, std::uint32_t> SComm;
  for (const auto &[Index, C] : MpiComms)
    SComm[Index] =
        S(C.Key == mpi::WorldKey ? std::string("MPI_COMM_WORLD")
          : RankNow >= 0 && C.Key == mpi::commSelfKey(std::uint32_t(RankNow))
              ? std::string("MPI_COMM_SELF")
              : "MPI communicator " + hexKey(C.Key));
  std::uint32_t STeam = S("OpenMP threads");
  std::uint32_t SAttr[AttrCount], SParam[ParamCount];
  for (unsigned I = 0; I < AttrCount; ++I)
    SAttr[I] = S(AttrNames[I]);
  for (unsigned I = 0; I < ParamCount; ++I)
    SParam[I] = S(ParamNames[I]);
  std::vector<std::uint32_t> SLoc(Locs.size());
  for (std::size_t I = 0; I < Locs.size(); ++I)
    if (listed(I))
      SLoc[I] = S("OpenMP thread " + std::to_string(I));
  struct RStr {
    std::uint32_t Name, Canon, Desc, File;
  };
  std::vector<RStr> RS(Regions.size());
  for (std::size_t I = 0; I < Regions.size(); ++I) {
    const RegionEntry &R = Regions[I];
    const CodeEntry &C = Codes[R.Code];
    std::string Name = R.Class == RegionClass::Phase
                           ? (R.Sub < Names.size() && !Names[R.Sub].empty()
                                  ? Names[R.Sub]
                                  : "phase #" + std::to_string(R.Sub))
                           : regionBaseName(R.Class, R.Sub);
    if (!C.Where.empty())
      Name += " @ " + C.Where;
    RS[I].Name = S(Name);
    RS[I].Canon = S("otter:" + std::to_string(unsigned(R.Class)) + ":" +
                    std::to_string(R.Sub));
    RS[I].Desc = S(C.Label.Directive.empty()
                       ? std::string(labelQualityName(C.Label.Quality))
                       : C.Label.Directive + " (" +
                             labelQualityName(C.Label.Quality) + ")");
    RS[I].File = S(C.Label.File);
  }
  const char *PropNames[] = {"otter:code",     "otter:directive",
                             "otter:file",     "otter:line",
                             "otter:col",      "otter:function",
                             "otter:clauses",  "otter:region_id",
                             "otter:location", "otter:quality"};
  std::uint32_t SProp[10];
  for (int I = 0; I < 10; ++I)
    SProp[I] = S(PropNames[I]);
  struct CStr {
    std::uint32_t Directive, File, Function, Clauses, Location;
  };
  std::vector<CStr> CS(Codes.size());
  for (std::size_t I = 1; I < Codes.size(); ++I) {
    const SourceLabel &L = Codes[I].Label;
    CS[I] = {S(L.Directive), S(L.File), S(L.Function), S(L.Clauses),
             S(L.Location)};
  }

  std::uint64_t MinT = ~0ull, MaxT = 0;
  for (Location *L : Locs) {
    if (!L)
      continue;
    std::uint64_t Lo = L->MinT.load(std::memory_order_relaxed),
                  Hi = L->LastT.load(std::memory_order_relaxed);
    if (Lo <= Hi) {
      MinT = std::min(MinT, Lo);
      MaxT = std::max(MaxT, Hi);
    }
  }
  if (MinT > MaxT)
    MinT = MaxT = 0;
  OTF2_GlobalDefWriter_WriteClockProperties(D, 1000000000ull, MinT,
                                            MaxT - MinT + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  for (std::size_t I = 0; I < S.List.size(); ++I)
    OTF2_GlobalDefWriter_WriteString(D, std::uint32_t(I), S.List[I].c_str());
  OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_OPENMP, SOpenMP,
                                     OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  if (SawMpi)
    OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_MPI, SMpi,
                                       OTF2_PARADIGM_CLASS_PROCESS);
  if (SawPhase) // the program's phases (otter/otter.h)
    OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_USER, SUser,
                                       OTF2_PARADIGM_CLASS_PROCESS);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(D, 0, SHost, SMachine,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteLocationGroup(D, 0, SProcess,
                                          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  std::vector<std::uint64_t> Members, Ranks;
  for (std::size_t I = 0; I < Locs.size(); ++I) {
    if (!listed(I))
      continue;
    std::uint64_t N = std::max(Locs[I]->DiskEvents, Locs[I]->FlushedEvents);
    if (!Checkpoint)
      OTF2_EvtWriter_GetNumberOfEvents(Locs[I]->W, &N);
    OTF2_GlobalDefWriter_WriteLocation(D, I, SLoc[I],
                                       OTF2_LOCATION_TYPE_CPU_THREAD, N, 0);
    Ranks.push_back(Members.size());
    Members.push_back(I);
  }
  for (unsigned I = 0; I < AttrCount; ++I)
    OTF2_GlobalDefWriter_WriteAttribute(
        D, I, SAttr[I], SEmpty,
        (I == AttrTask || I == AttrA || I == AttrPayload) ? OTF2_TYPE_UINT64
                                                          : OTF2_TYPE_UINT32);
  for (unsigned I = 0; I < ParamCount; ++I)
    OTF2_GlobalDefWriter_WriteParameter(D, I, SParam[I],
                                        OTF2_PARAMETER_TYPE_UINT64);
  for (std::size_t I = 0; I < Regions.size(); ++I) {
    const RegionEntry &R = Regions[I];
    const SourceLabel &L = Codes[R.Code].Label;
    OTF2_GlobalDefWriter_WriteRegion(
        D, std::uint32_t(I), RS[I].Name, RS[I].Canon, RS[I].Desc,
        roleOf(R.Class, R.Sub),
        R.Class == RegionClass::MpiCall ? OTF2_PARADIGM_MPI
        : R.Class == RegionClass::Phase ? OTF2_PARADIGM_USER
                                        : OTF2_PARADIGM_OPENMP,
        OTF2_REGION_FLAG_NONE, RS[I].File, L.Line, L.Line);
  }
  OTF2_GlobalDefWriter_WriteGroup(D, 0, STeam, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                  std::uint32_t(Members.size()),
                                  Members.data());
  OTF2_GlobalDefWriter_WriteGroup(D, 1, STeam, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                  std::uint32_t(Ranks.size()), Ranks.data());
  OTF2_GlobalDefWriter_WriteComm(D, TeamComm, STeam, 1, OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  // MPI communicators: ref = the comm index of the events; each group
  // lists the members' ranks in MPI_COMM_WORLD (the job archive's MPI
  // COMM_LOCATIONS group maps those to each rank's first thread).
  std::uint32_t NextGroup = 2;
  if (SawMpi && WorldSize > 0) {
    // MPI ranks -> locations: this archive holds one rank's threads; the
    // others are the job archive's locations (rank << 16 | thread).
    std::vector<std::uint64_t> RankLocs(WorldSize);
    for (std::uint32_t R = 0; R < WorldSize; ++R)
      RankLocs[R] = std::int64_t(R) == RankNow ? 0 : OTF2_UNDEFINED_LOCATION;
    OTF2_GlobalDefWriter_WriteGroup(
        D, NextGroup++, SMpi, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
        OTF2_GROUP_FLAG_NONE, WorldSize, RankLocs.data());
  }
  for (const auto &[Index, C] : MpiComms) {
    std::vector<std::uint64_t> World(C.Size);
    for (std::uint32_t R = 0; R < C.Size; ++R)
      World[R] = R < C.Members.size() ? C.Members[R] : R;
    OTF2_GlobalDefWriter_WriteGroup(
        D, NextGroup, SComm[Index], OTF2_GROUP_TYPE_COMM_GROUP,
        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, C.Size, World.data());
    OTF2_CommRef Parent = OTF2_UNDEFINED_COMM;
    for (const auto &[PIndex, P] : MpiComms)
      if (C.Parent && P.Key == C.Parent && PIndex < Index)
        Parent = PIndex;
    OTF2_GlobalDefWriter_WriteComm(D, Index, SComm[Index], NextGroup++, Parent,
                                   OTF2_COMM_FLAG_NONE);
  }
  // Definition refs must be dense: calling context = code id - 1.
  std::uint32_t NextScl = 0;
  for (std::size_t I = 1; I < Codes.size(); ++I) {
    const CodeEntry &C = Codes[I];
    const SourceLabel &L = C.Label;
    OTF2_SourceCodeLocationRef Scl = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
    if (!L.File.empty() && L.Line) {
      Scl = NextScl++;
      OTF2_GlobalDefWriter_WriteSourceCodeLocation(D, Scl, CS[I].File,
                                                   L.Line);
    }
    std::uint32_t R = C.Region;
    if (R == NoRef) // address seen but never in a region: give it one
      continue;
    OTF2_GlobalDefWriter_WriteCallingContext(D, std::uint32_t(I - 1), R, Scl,
                                             OTF2_UNDEFINED_CALLING_CONTEXT);
    auto prop = [&](int P, OTF2_Type T, OTF2_AttributeValue V) {
      OTF2_GlobalDefWriter_WriteCallingContextProperty(D, std::uint32_t(I - 1),
                                                       SProp[P], T, V);
    };
    prop(0, OTF2_TYPE_UINT64, u64(C.Code));
    prop(1, OTF2_TYPE_STRING, str(CS[I].Directive));
    prop(2, OTF2_TYPE_STRING, str(CS[I].File));
    prop(3, OTF2_TYPE_UINT32, u32(L.Line));
    prop(4, OTF2_TYPE_UINT32, u32(L.Col));
    prop(5, OTF2_TYPE_STRING, str(CS[I].Function));
    prop(6, OTF2_TYPE_STRING, str(CS[I].Clauses));
    prop(7, OTF2_TYPE_UINT64, u64(L.RegionId));
    prop(8, OTF2_TYPE_STRING, str(CS[I].Location));
    prop(9, OTF2_TYPE_UINT32, u32(std::uint32_t(L.Quality)));
  }
}

bool TraceWriter::close(std::string &Error) {
  std::vector<Location *> Locs;
  {
    std::lock_guard<std::mutex> G(P->M);
    if (!P->Open || P->Closed)
      return true;
    P->Closed = true; // no new locations
    P->Closing.store(true, std::memory_order_release);
    Locs = P->Locs;
  }
  // Wait for flushes in progress (unlocked below). Not holding M here: a
  // flush takes its location's lock first, then M (new code addresses).
  for (Location *L : Locs)
    if (L) {
      L->M.lock();
      L->Closed = true;
    }
  std::lock_guard<std::mutex> G(P->M);
  const std::string Dir = P->Opt.Dir, Tmp = Dir + "/.checkpoint";
  auto finish = [&] {
    for (Location *L : Locs)
      if (L) {
        if (L->Fd >= 0)
          ::close(L->Fd);
        L->Fd = -1;
        L->M.unlock();
      }
    for (const char *F :
         {"/traces.otf2", "/traces.def", "/kept.otf2", "/kept.def"})
      ::unlink((Tmp + F).c_str());
    ::rmdir((Tmp + "/traces").c_str());
    ::rmdir(Tmp.c_str());
  };
  auto incomplete = [&] {
    Error = "the trace in '" + Dir + "' is incomplete: writing it failed (" +
            P->WriteError +
            "); is the disk full, or a file-size limit (ulimit -f) "
            "reached? (OTTER_OUTPUT_DIR chooses where it goes)";
  };
  if (!P->WriteError.empty()) {
    // The disk filled up while the program ran. Closing the archive would
    // replace the anchor and the definitions of the last checkpoint with
    // files that do not fit: keep what is on disk readable instead (every
    // event file ends after its last complete chunk), with the newest
    // definitions if they still fit (written aside, renamed in if whole).
    P->checkpoint();
    for (Location *L : Locs)
      if (L)
        P->cutBackToDisk(*L);
    finish();
    incomplete();
    return false;
  }
  // Closing writes the anchor and the definitions anew: keep the last
  // checkpoint's aside (renamed, which needs no space; OTF2 truncates the
  // file it writes, so a hard link would not keep anything) in case that
  // fails.
  ::mkdir(Tmp.c_str(), 0777);
  auto localDef = [&](std::uint32_t I) {
    return Dir + "/traces/" + std::to_string(I) + ".def";
  };
  auto keptDef = [&](std::uint32_t I) {
    return Tmp + "/kept-" + std::to_string(I) + ".def";
  };
  bool Kept = false;
  if (::rename((Dir + "/traces.def").c_str(), (Tmp + "/kept.def").c_str()) ==
      0) {
    Kept = ::rename((Dir + "/traces.otf2").c_str(),
                    (Tmp + "/kept.otf2").c_str()) == 0;
    if (!Kept)
      ::rename((Tmp + "/kept.def").c_str(), (Dir + "/traces.def").c_str());
  }
  if (Kept) // and the (empty) local definition files the checkpoint listed
    for (Location *L : Locs)
      if (L && L->OnDisk)
        ::rename(localDef(L->Index).c_str(), keptDef(L->Index).c_str());
  // Every code id needs a region for its calling context.
  for (std::size_t I = 1; I < P->Codes.size(); ++I)
    if (P->Codes[I].Region == NoRef) {
      P->Codes[I].Region = std::uint32_t(P->Regions.size());
      P->Regions.push_back({RegionClass::Site, 0, std::uint32_t(I)});
    }
  bool Ok = P->setNames(P->Archive);
  if (!P->ClockOffsets.empty() &&
      OTF2_Archive_SetProperty(P->Archive, ClockOffsetsProperty,
                               P->ClockOffsets.c_str(), true) != OTF2_SUCCESS)
    Ok = false;
  OTF2_GlobalDefWriter *D = OTF2_Archive_GetGlobalDefWriter(P->Archive);
  if (!D)
    Ok = false;
  else
    P->writeDefinitions(D, false);
  for (Location *L : Locs)
    if (L) {
      if (OTF2_Archive_CloseEvtWriter(P->Archive, L->W) != OTF2_SUCCESS)
        Ok = false;
      OTF2_AttributeList_Delete(L->Attrs);
    }
  if (OTF2_Archive_CloseEvtFiles(P->Archive) != OTF2_SUCCESS)
    Ok = false;
  // Empty local definition files: readers expect one per location.
  if (OTF2_Archive_OpenDefFiles(P->Archive) == OTF2_SUCCESS) {
    for (Location *L : Locs)
      if (L)
        if (OTF2_DefWriter *DW =
                OTF2_Archive_GetDefWriter(P->Archive, L->Index))
          OTF2_Archive_CloseDefWriter(P->Archive, DW);
    OTF2_Archive_CloseDefFiles(P->Archive);
  }
  if (OTF2_Archive_Close(P->Archive) != OTF2_SUCCESS)
    Ok = false;
  P->Archive = nullptr;
  // OTF2 does not hand every failed write back (closing the event writers,
  // the anchor file): any error it reported since open() means a file may
  // be incomplete.
  if (otf2ErrorCount() != P->ErrorsAtOpen)
    P->WriteError = firstOtf2ErrorAfter(P->ErrorsAtOpen);
  if (!P->WriteError.empty() && Kept) {
    // Back to the last checkpoint: its anchor and definitions, and every
    // event file cut back to the end it had then.
    ::rename((Tmp + "/kept.def").c_str(), (Dir + "/traces.def").c_str());
    ::rename((Tmp + "/kept.otf2").c_str(), (Dir + "/traces.otf2").c_str());
    for (Location *L : Locs)
      if (L) {
        if (L->OnDisk)
          ::rename(keptDef(L->Index).c_str(), localDef(L->Index).c_str());
        P->cutBackToDisk(*L);
      }
  }
  for (Location *L : Locs)
    if (L)
      ::unlink(keptDef(L->Index).c_str());
  finish();
  if (!P->WriteError.empty())
    incomplete();
  else if (!Ok)
    Error = "writing the OTF2 archive in '" + Dir +
            "' failed: " + lastOtf2Error();
  return Ok && P->WriteError.empty();
}

void TraceWriter::checkpoint() {
  std::lock_guard<std::mutex> G(P->M);
  if (P->Open && !P->Closed)
    P->checkpoint();
}

void TraceWriter::flushToDisk(std::uint32_t Own, bool Every) {
  std::vector<Location *> Ls;
  {
    std::lock_guard<std::mutex> G(P->M);
    if (!P->Open || P->Closed || P->Closing.load())
      return;
    Ls = P->Locs;
  }
  // Location pointers live as long as the writer. A location's lock first,
  // then M, as a flush by OTF2 takes them.
  for (Location *L : Ls)
    if (L && (Every || L->Index == Own)) {
      std::lock_guard<std::mutex> G(L->M);
      std::lock_guard<std::mutex> G2(P->M);
      P->flushToDisk(*L);
    }
  std::lock_guard<std::mutex> G(P->M);
  if (!P->Closed && !P->Closing.load())
    P->checkpoint();
}

WriterStats TraceWriter::stats() const {
  std::lock_guard<std::mutex> G(P->M);
  WriterStats S;
  S.Events = P->EventCount;
  S.DroppedEvents = P->DroppedEvents;
  for (Location *L : P->Locs)
    if (L) {
      ++S.Locations;
      S.DirectLocations += L->D.attached();
      S.AttributeEvents += L->AttrEvents;
    }
  S.Regions = P->Regions.size();
  S.Codes = P->Codes.size() - 1;
  return S;
}

} // namespace otter::trace
