//===- trace/writer_impl.h - TraceWriter's shared state ---------*- C++ -*-===//
//
// Private to runtime/lib/trace/writer*.cpp, the OTF2 trace writer, which is in
// five parts sharing the state declared here (TraceWriter::Impl: the
// archive, the tables of code addresses and regions, MPI communicators,
// checkpoints; Location: one thread's event writer, open regions, and what
// of its event file is on disk):
//  - writer.cpp: the archive's life (open, a thread's location, close);
//  - writer_encode.cpp: events -> OTF2 records, the hot path;
//  - writer_defs.cpp: the global definitions (strings, regions, locations,
//    communicators, calling contexts);
//  - writer_disk.cpp: the event chunks' memory and what reaches the disk
//    while the program runs (checkpoints, flush on request, surviving
//    SIGKILL and a full disk);
//  - writer_close.cpp: the regions the writer closes itself (a failed
//    omp_test_lock's wait, whatever is open when the run ends);
//  - writer_device.cpp: target offload's device locations (kernel and
//    transfer regions on accelerator streams, written at close);
//  - writer_samples.cpp: OTTER_SAMPLE's samples as calling-context
//    samples, merged with a thread's events at its buffer flushes.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_WRITER_IMPL_H
#define OTTER_TRACE_WRITER_IMPL_H

#include "trace/codec.h"
#include "trace/otf2_direct.h"
#include "trace/writer.h"

#include <otf2/otf2.h>

#include <atomic>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace otter::trace {

constexpr OTF2_CommRef TeamComm = 0;

// OTF2 fills the unused rest of a definition chunk when it writes it out (a
// memset of up to a chunk, at close and at every checkpoint): the smallest
// chunk OTF2 allows is plenty for our definitions (they grow by chunks).
constexpr std::uint64_t DefinitionChunkBytes = OTF2_CHUNK_SIZE_MIN;

// The archive's callbacks (writer_disk.cpp): event chunks from a bounded
// pool, and the checkpoints around OTF2's chunk flushes.
extern const OTF2_MemoryCallbacks WriterMemoryCallbacks;
extern const OTF2_FlushCallbacks WriterFlushCallbacks;

struct CodeEntry {
  std::uint64_t Code = 0;
  SourceLabel Label;
  std::string Key;   // identity of the source construct
  std::string Where; // short text for region names
  std::uint32_t Region = NoRef; // region of first use
  /// Not a code address but a sample's calling context: its index in
  /// SampleCtxs (writer_samples.cpp); NoRef: a code address.
  std::uint32_t SampleCtx = NoRef;
};

struct RegionEntry {
  RegionClass Class;
  std::uint16_t Sub;
  std::uint32_t Code;
};

/// A kernel submission or data operation of target offload, as a span on
/// its device (writer_device.cpp): times in ns, What 0 for a kernel, else
/// the DataOpKind; Code the code id of its construct.
struct DeviceSpan {
  std::uint64_t Begin, End, Bytes;
  std::int32_t Device;
  std::uint16_t What;
  std::uint32_t Code;
};

/// A host thread's target offload in progress (writer_device.cpp): the
/// target construct open on it (they do not nest), the begin of its data
/// operation or submission in progress, and the spans it made so far.
struct DeviceTrack {
  static constexpr std::size_t MaxSpans = std::size_t(1) << 20;
  std::int32_t Device = 0;
  std::uint32_t Code = 0;
  bool InTarget = false, InOp = false, InSubmit = false;
  std::uint64_t OpBegin = 0, SubmitBegin = 0;
  std::uint64_t Lost = 0; // spans beyond MaxSpans
  std::vector<DeviceSpan> Spans;
};

/// Per-location state: touched only by the flushing thread (calls for one
/// thread never overlap) and by close(). Cache-line aligned: no line
/// shared with another thread's location.
struct alignas(64) Location {
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
  /// region is open on Stack (see "Task bodies" in writer_encode.cpp).
  /// Beyond the capacity no body region is entered.
  static constexpr unsigned RunningCapacity = 1024;
  std::uint64_t Running[RunningCapacity];
  unsigned RunN = 0;
  /// A failed omp_test_lock leaves its wait open (OMPT reports no failure):
  /// the end of the buffer being encoded, to look at the thread's next
  /// event, and whether that wait is still to be decided at the start of
  /// the next buffer (writer_close.cpp).
  const Event *BufEnd = nullptr;
  bool TryOpen = false;
  /// The trace's size (WriterOptions::MaxBytes): event chunks OTF2 wrote
  /// out (afterFlush), and the bytes of this location already added to
  /// Impl::Bytes.
  std::uint64_t ChunksOut = 0, Counted = 0;
  std::mutex M;                     // consume vs close
  bool Closed = false;
  bool Failed = false; // a record could not be written: no more events
  std::uint64_t AttrEvents = 0;
  std::uint64_t Events = 0; // consumed (guarded by M, as the encoding)
  MpiModel Mpi; // codec.h: MPI payloads predicted from the last ones
  DeviceTrack Dev; // target offload (writer_device.cpp)
  // What of this location's event file is on disk and readable (guarded
  // by TraceWriter::Impl::M; see "Surviving SIGKILL" in writer_disk.cpp).
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

struct TraceWriter::Impl {
  WriterOptions Opt;
  Resolver Resolve;
  OTF2_Archive *Archive = nullptr;
  bool Open = false, Closed = false;
  std::mutex M; // archive, tables, location list
  std::vector<Location *> Locs;
  /// Locs[I] for I < FastLocs, set once made: write() finds its location
  /// without the lock (locations live as long as the writer).
  static constexpr std::size_t FastLocs = 1024;
  std::atomic<Location *> LocFast[FastLocs] = {};
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIds;
  std::vector<CodeEntry> Codes;
  std::unordered_map<std::string, std::uint32_t> RegionIds;
  std::vector<RegionEntry> Regions;
  // Events consumed and lost while encoding (out of memory), besides the
  // locations' own counts (guarded by M).
  std::uint64_t EventCount = 0;
  std::uint64_t DroppedEvents = 0;
  // The trace's size so far and whether it reached WriterOptions::MaxBytes
  // (writer_disk.cpp, countBytes).
  std::atomic<std::uint64_t> Bytes{0};
  std::atomic<bool> Full{false};
  std::atomic<std::uint64_t> CutNs{0}; // the last time written when Full
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
    std::uint32_t Name = 0;             // MPI_Comm_set_name's, in Names
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
  void encodeOne(Location &L, const Event &E);
  void encodeSplitEnd(Location &L, const Event &E);
  void encodeCreateSwitch(Location &L, const Event &E);
  void encodeSyncWithEnd(Location &L, const Event &E);
  void syncWithEndApart(Location &L, const Event &E);
  void syncWithEndMissed(Location &L, const Event &Begin, const Event &End,
                         unsigned Miss, unsigned Miss2, std::uint32_t Code,
                         OTF2_TimeStamp T1, OTF2_TimeStamp T2, std::uint32_t R);
  void createSwitchApart(Location &L, const Event &E, unsigned Miss,
                         std::uint32_t Code, OTF2_TimeStamp T, std::uint32_t Th,
                         std::uint32_t Gen);
  bool leaveMismatched(Location &L, RegionClass C, OTF2_TimeStamp T);
  // Regions the writer closes itself (writer_close.cpp).
  void testLockTried(Location &L, const Event *Next);
  bool closeTopRegion(Location &L, std::uint64_t Time, bool IsNs);
  void closeOpenRegions(OTF2_TimeStamp End);
  void countBytes(Location &L);
  std::uint32_t taskBodyRegion(Location &L, std::uint64_t Code);
  void writeFailed(Location &L);
  OTF2_AttributeList *attributes(Location &L, unsigned Miss, const Event &Ev,
                                 std::uint32_t Code);
  void encodeAs(Location &L, const Event &E, EventKind K, int KnownStatus = -1);
  // encodeAs()'s parts (writer_encode.cpp).
  struct Primary;
  void choosePrimary(Location &L, const Event &Ev, EventKind K,
                     int KnownStatus, std::uint32_t Code, OTF2_TimeStamp T,
                     Native &N, Primary &P);
  void enterRegion(Location &L, RegionClass C, std::uint16_t Sub,
                   std::uint32_t Code, Primary &P);
  void chooseSwitch(Location &L, const Event &Ev, int KnownStatus, Native &N,
                    Primary &P);
  void writePrimary(Location &L, const Event &Ev, std::uint32_t Code,
                    OTF2_TimeStamp T, OTF2_AttributeList *AL,
                    const Primary &P);
  OTF2_ErrorCode writeSwitch(Location &L, const Event &Ev, OTF2_TimeStamp T,
                             OTF2_AttributeList *AL, const Primary &P);
  void writeDecorations(Location &L, const Event &Ev, EventKind K,
                        std::uint32_t Code, OTF2_TimeStamp T, Primary &P);
  void encodeAny(Location &L, const Event &E);
  void encodeMpi(Location &L, const Event &E);
  // Target offload (writer_encode.cpp: encodeTarget; the rest
  // writer_device.cpp).
  void encodeTarget(Location &L, const Event &E);
  void noteDevice(Location &L, const Event &E, std::uint32_t Code);
  /// The device streams made at close (writeDevices): each an OTF2
  /// location of type ACCELERATOR_STREAM in its device's location group.
  struct DeviceStream {
    std::int32_t Device;
    std::uint32_t Stream;
    std::uint64_t Ref, Events;
  };
  std::vector<DeviceStream> DevStreams;
  /// The regions of device spans: (What, code id), refs after Regions'.
  std::vector<std::pair<std::uint16_t, std::uint32_t>> DevRegions;
  bool writeDevices(const std::vector<Location *> &Ls);
  struct DeviceStrings {
    std::vector<std::uint32_t> Group, Stream, Region, RegionCanon;
    std::uint32_t Bytes = 0, Empty = 0;
  };
  DeviceStrings
  deviceStrings(const std::function<std::uint32_t(const std::string &)> &S);
  void writeDeviceDefinitions(OTF2_GlobalDefWriter *D, const DeviceStrings &S);
  void noteMpi(const Event &E);
  void writeDefinitions(OTF2_GlobalDefWriter *D, bool Checkpoint);
  // writeDefinitions()'s parts (writer_defs.cpp).
  std::pair<std::uint64_t, std::uint64_t> timeRange() const;
  void writeMpiComms(OTF2_GlobalDefWriter *D, std::uint32_t SMpi,
                     const std::map<std::uint16_t, std::uint32_t> &SComm,
                     std::int64_t RankNow);
  /// The strings of the calling contexts' properties: the property names,
  /// and per code id its label's.
  struct ContextStrings {
    std::uint32_t Prop[10];
    struct Label {
      std::uint32_t Directive, File, Function, Clauses, Location;
    };
    std::vector<Label> Code;
  };
  // writeCallingContexts(): below, after SampleStrings.
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
  /// OTTER's measured recording cost (RecordingCostProperty), if the
  /// run measured it. False: OTF2 failed.
  bool setRecordingCost(OTF2_Archive *A) {
    std::uint32_t Ns = Opt.RecordingCostNs ? Opt.RecordingCostNs() : 0;
    return !Ns ||
           OTF2_Archive_SetProperty(A, RecordingCostProperty,
                                    std::to_string(Ns).c_str(),
                                    true) == OTF2_SUCCESS;
  }
  std::vector<std::string> Names; // as last stored (M)
  void flushToDisk(Location &L);
  // Samples (writer_samples.cpp; guarded by M): the calling context tree
  // of their call paths (SampleCtxs[I], each with a code id of its own:
  // CodeEntry::SampleCtx), one region per sampled function.
  struct SampleCtx {
    std::uint64_t Address;
    std::uint32_t Parent; // a context ref, or OTF2_UNDEFINED_CALLING_CONTEXT
    std::uint32_t Function; // index into SampleFunctions
  };
  std::vector<SampleCtx> SampleCtxs;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> SampleCtxIds;
  std::vector<std::string> SampleFunctions;
  std::unordered_map<std::string, std::uint32_t> SampleFunctionIds;
  std::atomic<std::uint64_t> SampleCount{0};
  void sampleContexts(const TraceSample *S, std::size_t N,
                      std::vector<std::uint32_t> &Out);
  void writeSample(Location &L, const TraceSample &S, std::uint32_t Ctx);
  std::size_t encodeWithSamples(Location &L, const Event *Events,
                                std::size_t N, const TraceSample *S,
                                std::size_t NS, bool Rest);
  struct SampleStrings {
    std::uint32_t Generator = 0, Address = 0, Canon = 0, Empty = 0;
    std::uint32_t Attr[SampleAttrCount] = {};
    std::vector<std::uint32_t> Function;
  };
  SampleStrings
  sampleStrings(const std::function<std::uint32_t(const std::string &)> &S);
  void writeSampleDefinitions(OTF2_GlobalDefWriter *D, const SampleStrings &S,
                              std::uint32_t FirstRegion);
  void writeSampleContext(OTF2_GlobalDefWriter *D, std::uint32_t Self,
                          const SampleCtx &C, const SampleStrings &S,
                          std::uint32_t FirstRegion);
  void writeCallingContexts(OTF2_GlobalDefWriter *D, const ContextStrings &CS,
                            const SampleStrings &SS,
                            std::uint32_t FirstSampleRegion);
};

/// The slot of key K in a location's code and region caches.
inline std::size_t mixSlot(std::uint64_t K) {
  return std::size_t((K * 0x9E3779B97F4A7C15ull) >> 56);
}

//===----------------------------------------------------------------------===//
// Writing records (the encoders: writer_encode.cpp, writer_mpi.cpp,
// writer_close.cpp).
//===----------------------------------------------------------------------===//

/// An OTF2 call on L's event writer: the buffer state the records written
/// in place keep (Otf2Direct::begin) goes back to OTF2's buffer first, and
/// is taken again after (OTF2 may have started a new chunk).
template <class Fn>
[[gnu::always_inline]] inline OTF2_ErrorCode viaOtf2(Location &L, Fn &&F) {
  const bool Taken = L.D.end();
  const OTF2_ErrorCode R = F();
  if (Taken)
    L.D.begin();
  return R;
}

// The records of a task stream without attributes: written in place when
// the location's Otf2Direct can, else by OTF2's own calls (otf2_direct.h).
[[gnu::always_inline]] inline OTF2_ErrorCode
writeEnter(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Enter, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return viaOtf2(L,
                 [&] { return OTF2_EvtWriter_Enter(L.W, nullptr, T, Region); });
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeLeave(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Leave, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return viaOtf2(L,
                 [&] { return OTF2_EvtWriter_Leave(L.W, nullptr, T, Region); });
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeTask(Location &L, Otf2Direct::Record R, OTF2_TimeStamp T,
          std::uint32_t Thread, std::uint32_t Gen) {
  if (L.D.task(R, T, TeamComm, Thread, Gen)) [[likely]]
    return OTF2_SUCCESS;
  switch (R) {
  case Otf2Direct::TaskCreate:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskCreate(L.W, nullptr, T, TeamComm, Thread,
                                             Gen);
    });
  case Otf2Direct::TaskComplete:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskComplete(L.W, nullptr, T, TeamComm,
                                               Thread, Gen);
    });
  default:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskSwitch(L.W, nullptr, T, TeamComm, Thread,
                                             Gen);
    });
  }
}

} // namespace otter::trace

#endif // OTTER_TRACE_WRITER_IMPL_H
