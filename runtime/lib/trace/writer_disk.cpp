//===- trace/writer_disk.cpp - OTF2 event chunks, checkpoints -------------===//
//
// What of the trace reaches the disk while the program runs: the event
// chunks' memory (a bounded pool per thread), the checkpoints at OTF2's
// chunk flushes that keep the archive readable after a SIGKILL or a full
// disk, the flush on request (omp_control_tool) and the periodic flush
// (OTTER_FLUSH_INTERVAL, persist), and the trace's size limit
// (OTTER_MAX_TRACE_SIZE). Part of the trace writer (writer_impl.h); nothing
// here runs per event.
//
//===----------------------------------------------------------------------===//
#include "trace/errors.h"
#include "trace/merge.h"
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace otter::trace {

namespace {

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
  // Stored once (a line the threads then only read).
  if (EventChunkSize.load(std::memory_order_relaxed) != Size)
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
  // Under an address-space limit, not at the program's expense: as if
  // memory had run out (core/memory_room.h).
  if (User) {
    auto Room = static_cast<TraceWriter::Impl *>(User)->Opt.RoomFor;
    if (Room && !Room(Size))
      return nullptr;
  }
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
} // namespace

const OTF2_MemoryCallbacks WriterMemoryCallbacks = {allocChunk,
                                                    freeAllChunks};

// --- Surviving SIGKILL ----------------------------------------------------
//
// OTF2 writes the anchor and the global definitions only at close, and an
// event file is only terminated (END_OF_FILE record) at close: a file that
// ends after a chunk boundary makes OTF2's readers (otf2-print included)
// re-read their last chunk forever. So, per location, at every chunk flush
// OTF2 does while the program runs (preFlush / freeAllChunks):
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
// the recorder's buffer and in OTF2's chunk in memory (<= 4 MiB) since the
// thread's last periodic flush (OTTER_FLUSH_INTERVAL; flushToDisk below).

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
  ++L.ChunksOut; // the trace's size (writer_close.cpp, countBytes)
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
// copy's terminator beyond it, as it finds its own). Only the chunk's
// records are copied when their end is known (the in-place writer's
// chunkUsed): the rest of the chunk, up to the terminator, is a hole in the
// file that reads as zeros (nothing else is ever there: the file is cut
// after each terminator, and a chunk only grows), so a flush costs the
// bytes recorded, not 4 MiB, and the file's size at close is the same as
// without it. A periodic flush (persist) does the same for one location.
// Called with L.M and M held: the location's thread is not encoding.
void TraceWriter::Impl::flushToDisk(Location &L) {
  std::uint64_t N = 0;
  const std::uint64_t Chunk = EventChunkSize.load(std::memory_order_relaxed);
  if (L.Closed || L.Failed || !L.W || Chunk < 64 ||
      OTF2_EvtWriter_GetNumberOfEvents(L.W, &N) != OTF2_SUCCESS ||
      N <= std::max(L.DiskEvents, L.FlushedEvents))
    return;
  std::uint64_t Used = L.D.chunkUsed();
  if (Used <= ChunkHeaderBytes || Used > Chunk)
    Used = Chunk; // not known: the whole chunk
  std::vector<unsigned char> Copy;
  {
    std::lock_guard<std::mutex> G(PoolsM);
    auto It = pools().find({this, L.Index});
    if (It == pools().end() || !It->second->Used)
      return;
    const auto *C = static_cast<const unsigned char *>(It->second->Chunks[0]);
    Copy.assign(C, C + Used);
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
      (!Opt.SamplesOnly ||
       OTF2_Archive_SetProperty(A, ContentProperty, ContentSamples, true) ==
           OTF2_SUCCESS) &&
      (Opt.Filter.empty() ||
       OTF2_Archive_SetProperty(A, FilterProperty, Opt.Filter.c_str(), true) ==
           OTF2_SUCCESS) &&
      (ClockOffsets.empty() ||
       OTF2_Archive_SetProperty(A, ClockOffsetsProperty, ClockOffsets.c_str(),
                                true) == OTF2_SUCCESS) &&
      setNames(A) && setRecordingCost(A);
  // Every code id needs a region for its calling context: lend one for
  // this checkpoint only (the final definitions may find a better one).
  std::size_t NRegions = Regions.size();
  std::vector<std::uint32_t> Lent;
  for (std::size_t I = 1; I < Codes.size(); ++I)
    if (Codes[I].Region == NoRef && Codes[I].SampleCtx == NoRef) {
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
} // namespace

const OTF2_FlushCallbacks WriterFlushCallbacks = {preFlush, nullptr};

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

void TraceWriter::persist(std::uint32_t Own) {
  Location *L = nullptr;
  {
    std::lock_guard<std::mutex> G(P->M);
    if (!P->Open || P->Closed || P->Closing.load() || Own >= P->Locs.size())
      return;
    L = P->Locs[Own];
  }
  if (!L || L->Index != Own)
    return;
  // As flushToDisk: the location's lock first, then M.
  std::lock_guard<std::mutex> G(L->M);
  std::lock_guard<std::mutex> G2(P->M);
  if (P->Closed || P->Closing.load())
    return;
  const bool Listed = L->OnDisk;
  P->flushToDisk(*L);
  // The readers need the definitions its events use and the location
  // listed; the event count a checkpoint lists is for information only (no
  // reader stops at it), so many threads' flushes share a checkpoint.
  if ((L->OnDisk && !Listed) || P->Regions.size() != P->DefRegions ||
      P->Codes.size() != P->DefCodes ||
      wallNs() - P->LastCheckpointNs > 500000000ull)
    P->checkpoint();
}

// --- The size limit (OTTER_MAX_TRACE_SIZE) ---------------------------------
//
// After each buffer a location consumed: its bytes of event records (the
// chunks OTF2 wrote out, and what the chunk being filled holds) are added
// to the writer's total. Past WriterOptions::MaxBytes the writer is Full:
// no location takes another event (write()), and OnFull stops the
// recording. Every thread may have one buffer in flight when that happens,
// so the trace can exceed the limit by up to one buffer's records per
// thread (about 10 bytes an event: 160 KiB for 16,384 events); the
// definitions (regions, code addresses) come on top. Without the in-place
// records (otf2_direct.h) the chunk being filled is not seen: then only
// whole 4 MiB chunks count.

void TraceWriter::Impl::countBytes(Location &L) {
  const std::uint64_t Now = L.ChunksOut * Opt.ChunkBytes + L.D.chunkUsed();
  if (Now <= L.Counted)
    return;
  const std::uint64_t Total =
      Bytes.fetch_add(Now - L.Counted, std::memory_order_relaxed) + Now -
      L.Counted;
  L.Counted = Now;
  if (Total <= Opt.MaxBytes || Full.exchange(true))
    return;
  CutNs.store(L.LastT.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
  if (Opt.OnFull)
    Opt.OnFull(Opt.MaxBytes);
}

} // namespace otter::trace
