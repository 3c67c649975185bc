//===- trace/codec.h - OTTER's OTF2 event encoding (shared model) -*- C++ -*-===//
//
// How an otter::Event becomes OTF2 records, and back. The writer and the
// reader share this file, so both sides run the same prediction model:
// lossless by construction.
//
// Each Event is written as exactly one *primary* OTF2 event (plus optional
// *decorations* the reader ignores, e.g. ThreadTeamBegin, lock events).
// The primary event's type and region give the EventKind; its native fields
// give what OTF2 has a field for (task ids, requested threads, timestamp,
// location = thread). Every other field is *predicted* from per-location
// state (below); only fields whose prediction is wrong are written, as
// attributes of the primary event (attributes defined once, in the global
// definitions). On a steady stream (fib: create, switch, complete, taskwait)
// nearly every event is written without an attribute list.
//
// Code addresses become "code ids": 0 is "no address", ids >= 1 are OTF2
// CallingContext definitions whose properties hold the address and its full
// SourceLabel; regions (one per source construct and role) are referenced by
// those calling contexts and by Enter/Leave events.
//
// Prediction model, per location (thread), updated after every event:
//   Task : the task of the previous event (after TaskSchedule: its next
//          task; TaskDependence: the task created last; ImplicitTaskBegin:
//          the next id this thread would make)
//   Seq  : the task's next sequence number, from a direct-mapped cache
//   Code : code id of the last event of the same kind at the same Seq%64
//   A, Aux, Sub, Extra : those of the last event of the same kind, unless
//          the primary event carries them natively
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_CODEC_H
#define OTTER_TRACE_CODEC_H

#include "otter/event_info.h"
#include "otter/events.h"

#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace otter::trace {

/// Stored in the archive (creator, property OTTER::FORMAT): bump when the
/// encoding changes. 2: sync events may carry SyncWaitFolded (their wait,
/// folded in); the reader unfolds them. Version 1 archives decode with the
/// same model (they never carry the flag).
inline constexpr const char *FormatVersion = "otter-otf2-2";
inline constexpr const char *FormatVersionsRead[] = {"otter-otf2-2",
                                                     "otter-otf2-1"};
inline constexpr const char *FormatProperty = "OTTER::FORMAT";
/// Anchor property: "complete" when the archive was closed, "running" in
/// the checkpoints written while the program ran (a reader of those sees
/// the program killed: events up to the last chunk each thread wrote).
inline constexpr const char *StateProperty = "OTTER::STATE";
inline constexpr const char *StateComplete = "complete";
inline constexpr const char *StateRunning = "running";
/// Anchor property: what the run did not record (docs/filter.md), one
/// line, as the graph's header says it; absent when nothing was filtered.
inline constexpr const char *FilterProperty = "OTTER::FILTER";
/// Anchor property: present when the run's trace was cut at its size
/// limit (OTTER_MAX_TRACE_SIZE): "<limit in bytes> <time in ns>", the
/// events after that time are not in it.
inline constexpr const char *CutProperty = "OTTER::CUT";
/// Anchor property: "samples" when the archive holds a run's samples
/// alone (OTTER_SAMPLE with OTTER_TRACE=0, docs/sampling.md): its
/// locations hold only CallingContextSample records and the definitions
/// are the samples' (no event of otter/events.h is in it); absent: the
/// archive holds the run's events (and its samples if it was sampled).
inline constexpr const char *ContentProperty = "OTTER::CONTENT";
inline constexpr const char *ContentSamples = "samples";

/// Anchor property: OTTER's own cost of recording one event on this
/// machine, in ns, as the runtime measured it at start (ompt/calibrate.h):
/// the analyses count that much of a short interval after each event as
/// OTTER's time, not the program's (docs/utils.md, "OTTER's own time").
/// Absent: not measured (an older trace, a filtered or paused start).
inline constexpr const char *RecordingCostProperty = "OTTER::RECORDING_COST";
/// The property's value as ns; 0 for anything above 1 ms an event (not a
/// measurement).
inline std::uint32_t decodeRecordingCost(const char *Value) {
  unsigned long long Ns = std::strtoull(Value, nullptr, 10);
  return Ns < 1000000 ? std::uint32_t(Ns) : 0;
}

/// Anchor property: the run's name table (annotations, otter/otter.h): the
/// strings of name ids 1, 2, ... one a line ('\\' and newline escaped as
/// "\\\\" and "\\n"). Absent: no names.
inline constexpr const char *NamesProperty = "OTTER::NAMES";
inline std::string encodeNames(const std::vector<std::string> &Names) {
  std::string S;
  for (std::size_t I = 1; I < Names.size(); ++I) {
    for (char C : Names[I])
      S += C == '\\' ? "\\\\" : C == '\n' ? "\\n" : std::string(1, C);
    S += '\n';
  }
  return S;
}
/// Index 0 is "" (no name).
inline std::vector<std::string> decodeNames(const std::string &S) {
  std::vector<std::string> Names(1);
  std::string Cur;
  for (std::size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\n') {
      Names.push_back(Cur);
      Cur.clear();
    } else if (S[I] == '\\' && I + 1 < S.size()) {
      Cur += S[++I] == 'n' ? '\n' : S[I];
    } else {
      Cur += S[I];
    }
  }
  return Names;
}

/// Attribute definitions (ref = enum value), one per Event field.
enum Attr : std::uint32_t {
  AttrTask = 0, // UINT64
  AttrSeq,      // UINT32
  AttrA,        // UINT64
  AttrCode,     // UINT32 code id
  AttrAux,      // UINT32
  AttrSub,      // UINT32
  AttrExtra,    // UINT32
  AttrPayload,  // UINT64: Code of a kind whose Code is not an address
                // (otter/mpi.h), written whenever not zero
  AttrClosed,   // UINT32, on a Leave: the writer closed the region itself
                // (a failed omp_test_lock's wait, regions open at the end
                // of the run: docs/trace.md, "Balanced regions"); no event
  AttrCount
};
inline constexpr const char *AttrNames[AttrCount] = {
    "otter:task", "otter:seq", "otter:a",     "otter:code",
    "otter:aux",  "otter:sub", "otter:extra", "otter:payload",
    "otter:closed"};

/// Samples (OTTER_SAMPLE with the trace on; docs/trace.md, "Samples"):
/// their calling contexts share the refs of the code addresses' (calling
/// context = code id - 1, dense, as OTF2's tools want them) and are told
/// apart by their region (canonical name SampleRegionCanon, paradigm
/// SAMPLING); each CallingContextSample record carries these attributes
/// (refs from AttrCount up; weight, wait id, task and region only when
/// not 1, 0, 0, 0).
inline constexpr std::uint32_t SampleAttrState = AttrCount, // UINT32 ompt_state_t
    SampleAttrWeight = AttrCount + 1,  // UINT32 timer periods
    SampleAttrWaitId = AttrCount + 2,  // UINT64
    SampleAttrTask = AttrCount + 3,    // UINT64 OTTER's task id
    SampleAttrFlags = AttrCount + 4,   // UINT32 SampleTruncated | ...
    SampleAttrRegion = AttrCount + 5,  // UINT64 the task's construct's code
    SampleAttrCount = 6;
inline constexpr const char *SampleAttrNames[SampleAttrCount] = {
    "otter:sample_state", "otter:sample_weight", "otter:sample_wait_id",
    "otter:sample_task", "otter:sample_flags", "otter:sample_region"};
/// The calling context property holding a sample context's code address,
/// and the canonical name of the regions of sampled functions.
inline constexpr const char *SampleAddressProperty = "otter:sample_address";
inline constexpr const char *SampleRegionCanon = "otter:sampled_function";

/// Parameter names (otter::trace::Param): the parameter rows of
/// otter/event_kinds.def.
inline constexpr const char *ParamNames[] = {
#define OTTER_TRACE_PARAM(P, Name) Name,
#include "otter/event_kinds.def"
};
static_assert(std::size(ParamNames) == ParamCount);
/// Every name there, distinct, in OTTER's namespace: the reader maps
/// parameters back by name.
constexpr bool paramNamesValid() {
  for (std::size_t I = 0; I < ParamCount; ++I) {
    std::string_view N = ParamNames[I] ? ParamNames[I] : "";
    if (!N.starts_with("otter:") || N.size() == 6)
      return false;
    for (std::size_t J = 0; J < I; ++J)
      if (N == ParamNames[J])
        return false;
  }
  return true;
}
static_assert(paramNamesValid(), "event_kinds.def: a parameter name is "
                                 "missing, repeated or not otter:...");

inline constexpr std::uint32_t NoRef = 0xffffffffu; // OTF2_UNDEFINED_UINT32

/// Task id <-> OTF2 (creating thread, generation number). Our ids are
/// makeId(thread, counter) (otter/events.h); anything else maps to (NoRef,
/// NoRef), which decodes to 0, and the real value goes in an attribute.
/// Returns what pairToId gives back from the pair: the id itself when it
/// has that form, else 0.
inline std::uint64_t idToPair(std::uint64_t Id, std::uint32_t &Thread,
                              std::uint32_t &Gen) {
  // The thread + 1 (Id >> IdCounterBits, below 2^24) not 0, so the
  // thread is below NoRef; the counter below 0xffffffff (NoRef), so it is
  // the id's low 32 bits.
  static_assert(64 - IdCounterBits < 32);
  if (Id < (std::uint64_t(1) << IdCounterBits) ||
      counterOf(Id) >= 0xffffffffull) [[unlikely]] {
    Thread = Gen = NoRef;
    return 0;
  }
  Thread = threadOf(Id);
  Gen = std::uint32_t(Id);
  return Id;
}
inline std::uint64_t pairToId(std::uint32_t Thread, std::uint32_t Gen) {
  if (Thread == NoRef || Gen == NoRef)
    return 0;
  return makeId(Thread, Gen);
}

/// What the primary event carries natively.
struct Native {
  EventKind Kind = EventKind::None;
  std::uint64_t Time = 0;
  bool HasTask = false, HasA = false, HasAux = false, HasSub = false;
  std::uint64_t Task = 0, A = 0;
  std::uint32_t Aux = 0;
  std::uint16_t Sub = 0;
};

/// The per-location prediction state. Events carry code ids in `Code`.
/// Everything is inline: the writer instantiates predict/update once per
/// hot event kind with the kind known at compile time (see
/// TraceWriter::Impl::encode), which folds the kind tests away.
class Predictor {
public:
  explicit Predictor(std::uint32_t Location) : Loc(Location) {
    std::memset(Last, 0, sizeof Last);
    std::memset(Codes, 0, sizeof Codes);
    std::memset(SeqKeys, 0, sizeof SeqKeys);
    std::memset(SeqVals, 0, sizeof SeqVals);
  }

  [[gnu::always_inline]] Event predict(const Native &N) const {
    std::size_t K = slot(N.Kind);
    const KindState &L = Last[K];
    Event E;
    E.Time = N.Time;
    E.Kind = N.Kind;
    E.Task = predictTask(N);
    E.Seq = seqOf(E.Task);
    E.A = predictA(N, L);
    E.Code = Codes[K][E.Seq & 63];
    E.Aux = N.HasAux ? N.Aux : L.Aux;
    E.Sub = N.HasSub ? N.Sub : L.Sub;
    E.Extra = L.Extra;
    return E;
  }

  [[gnu::always_inline]] void update(const Event &E) {
    std::size_t K = slot(E.Kind);
    Last[K] = {E.A, E.Aux, E.Extra, E.Sub};
    Codes[K][E.Seq & 63] = std::uint32_t(E.Code);
    bool Counts = E.Kind != EventKind::TaskSchedule &&
                  E.Kind != EventKind::TaskDependencePair;
    if (E.Task)
      setSeq(E.Task, Counts ? E.Seq + 1 : E.Seq);
    noteKind(E.Kind, E);
  }

  /// The writer's predict + compare + update in one pass: predict(N),
  /// compare with the event E actually written (its Code a code id), then
  /// update(E). Returns the fields predicted wrong, bit (1 << Attr) each.
  /// Must stay equivalent to those two (test/unit/trace_test.cpp checks).
  [[gnu::always_inline]] unsigned check(const Native &N, const Event &E,
                                       std::uint32_t Code) {
    return check(N, E, Code, E.Extra);
  }
  /// The same for E with Extra in place of E.Extra (a folded creation is
  /// written as the creation alone: Extra 0).
  [[gnu::always_inline]] unsigned check(const Native &N, const Event &E,
                                        std::uint32_t Code,
                                        std::uint32_t Extra) {
    const std::size_t K = slot(N.Kind);
    KindState &L = Last[K];
    const std::uint64_t PTask = predictTask(N);
    // One probe of the sequence cache when the task is the predicted one.
    const std::size_t S = seqSlot(E.Task);
    const bool Cached = E.Task && SeqKeys[S] == E.Task;
    std::uint32_t PSeq;
    if (PTask == E.Task) [[likely]]
      PSeq = Cached ? SeqVals[S] : 0;
    else
      PSeq = seqOf(PTask);
    const std::uint64_t PA = predictA(N, L);
    const std::uint32_t PAux = N.HasAux ? N.Aux : L.Aux;
    const std::uint16_t PSub = N.HasSub ? N.Sub : L.Sub;
    const std::uint32_t PCode = Codes[K][PSeq & 63];
    const bool Counts = N.Kind != EventKind::TaskSchedule &&
                        N.Kind != EventKind::TaskDependencePair;
    if (PTask == E.Task && PSeq == E.Seq && PA == E.A && PCode == Code &&
        PAux == E.Aux && PSub == E.Sub && L.Extra == Extra) [[likely]] {
      // update(E), storing only what can change when all was predicted:
      // fields the record carried, and the task's next sequence number.
      if (N.HasA || N.Kind == EventKind::ParallelBegin ||
          N.Kind == EventKind::ImplicitTaskBegin)
        L.A = E.A;
      if (N.HasAux)
        L.Aux = E.Aux;
      if (N.HasSub)
        L.Sub = E.Sub;
      if (E.Task && (Counts || !Cached)) {
        SeqKeys[S] = E.Task;
        SeqVals[S] = Counts ? E.Seq + 1 : E.Seq;
      }
      noteKind(N.Kind, E);
      return 0;
    }
    unsigned Miss = unsigned(PTask != E.Task) << AttrTask |
                    unsigned(PSeq != E.Seq) << AttrSeq |
                    unsigned(PA != E.A) << AttrA |
                    unsigned(PCode != Code) << AttrCode |
                    unsigned(PAux != E.Aux) << AttrAux |
                    unsigned(PSub != E.Sub) << AttrSub |
                    unsigned(L.Extra != Extra) << AttrExtra;
    Event Actual = E; // as the reader decodes it: with its code id
    Actual.Kind = N.Kind;
    Actual.Code = Code;
    Actual.Extra = Extra;
    update(Actual);
    return Miss;
  }

  /// check() of the switch to task Child that follows its creation (by a
  /// task, not 0) at sequence number CreateSeq, right after check() of that
  /// creation, when the switch is predicted right: its task is the
  /// creator (the current task), its Seq the creator's next (CreateSeq + 1),
  /// A and Sub native (the child, Switch); this checks the rest (Code id 0,
  /// Aux and Extra 0, as the runtime records every switch) and, if so,
  /// updates the state as check() would and returns true. False: nothing
  /// changed, use check().
  [[gnu::always_inline]] bool switchAfterCreate(std::uint64_t Child,
                                                std::uint32_t CreateSeq) {
    constexpr std::size_t K = std::size_t(EventKind::TaskSchedule);
    static_assert(K < KindSlots);
    KindState &L = Last[K];
    if (L.Aux || L.Extra || Codes[K][(CreateSeq + 1) & 63]) [[unlikely]]
      return false;
    L.A = Child;
    L.Sub = std::uint16_t(ScheduleStatus::Switch);
    Cur = Child;
    return true;
  }

  /// For tests: the same prediction state.
  bool sameState(const Predictor &O) const {
    if (Loc != O.Loc || Cur != O.Cur || LastLocal != O.LastLocal ||
        LastParallel != O.LastParallel ||
        std::memcmp(Codes, O.Codes, sizeof Codes) ||
        std::memcmp(SeqKeys, O.SeqKeys, sizeof SeqKeys) ||
        std::memcmp(SeqVals, O.SeqVals, sizeof SeqVals))
      return false;
    for (std::size_t K = 0; K < KindSlots; ++K)
      if (Last[K].A != O.Last[K].A || Last[K].Aux != O.Last[K].Aux ||
          Last[K].Extra != O.Last[K].Extra || Last[K].Sub != O.Last[K].Sub)
        return false;
    return true;
  }

private:
  struct KindState;
  /// The task and payload an event of N's kind is predicted to have.
  [[gnu::always_inline]] std::uint64_t predictTask(const Native &N) const {
    if (N.HasTask)
      return N.Task;
    if (threadOnly(N.Kind))
      return 0;
    if (N.Kind == EventKind::TaskDependence)
      return Last[slot(EventKind::TaskCreate)].A;
    if (N.Kind == EventKind::ImplicitTaskBegin)
      return ownId(LastLocal + 1);
    return Cur;
  }
  [[gnu::always_inline]] std::uint64_t predictA(const Native &N,
                                                const KindState &L) const {
    if (N.HasA)
      return N.A;
    if (N.Kind == EventKind::ParallelBegin)
      return ownId(LastLocal + 1);
    if (N.Kind == EventKind::ImplicitTaskBegin)
      return LastParallel;
    return L.A;
  }

  /// update()'s per-kind part: the current task and own-id counters.
  [[gnu::always_inline]] void noteKind(EventKind Kind, const Event &E) {
    switch (Kind) {
    case EventKind::TaskCreate:
      noteOwn(E.A);
      Cur = E.Task;
      break;
    case EventKind::ParallelBegin:
      noteOwn(E.A);
      LastParallel = E.A;
      Cur = E.Task;
      break;
    case EventKind::ImplicitTaskBegin:
      noteOwn(E.Task);
      if (E.A)
        LastParallel = E.A;
      Cur = E.Task;
      break;
    case EventKind::TaskSchedule:
      Cur = E.A;
      break;
    case EventKind::ThreadBegin:
    case EventKind::ThreadEnd:
    case EventKind::ToolBegin:
    case EventKind::ToolEnd:
    case EventKind::ThreadCpu:
    case EventKind::TaskDependence:
    case EventKind::TaskDependencePair:
      break;
    default:
      Cur = E.Task;
      break;
    }
  }

  /// Kinds of the thread, of no task (task 0): they leave the current task
  /// as it is.
  static constexpr bool threadOnly(EventKind K) {
    return K == EventKind::ThreadBegin || K == EventKind::ThreadEnd ||
           K == EventKind::ToolBegin || K == EventKind::ToolEnd ||
           K == EventKind::ThreadCpu;
  }

  /// What predict() takes from the last event of a kind.
  struct KindState {
    std::uint64_t A;
    std::uint32_t Aux, Extra;
    std::uint16_t Sub;
  };

  static std::size_t slot(EventKind K) {
    return std::size_t(K) < KindSlots ? std::size_t(K) : 0;
  }
  std::uint64_t ownId(std::uint64_t Counter) const {
    return makeId(Loc, Counter);
  }
  [[gnu::always_inline]] void noteOwn(std::uint64_t Id) {
    if (madeBy(Id, Loc))
      LastLocal = counterOf(Id);
  }
  static std::size_t seqSlot(std::uint64_t Task) {
    return std::size_t(
        ((Task ^ (Task >> IdCounterBits)) * 0x9E3779B97F4A7C15ull) >> 54);
  }
  std::uint32_t seqOf(std::uint64_t Task) const {
    if (!Task)
      return 0;
    std::size_t S = seqSlot(Task);
    return SeqKeys[S] == Task ? SeqVals[S] : 0;
  }
  void setSeq(std::uint64_t Task, std::uint32_t Seq) {
    std::size_t S = seqSlot(Task);
    SeqKeys[S] = Task;
    SeqVals[S] = Seq;
  }

  std::uint32_t Loc;
  std::uint64_t Cur = 0;
  std::uint64_t LastLocal = 0;
  std::uint64_t LastParallel = 0;
  KindState Last[KindSlots];
  std::uint32_t Codes[KindSlots][64];
  std::uint64_t SeqKeys[1024];
  std::uint32_t SeqVals[1024];
};

/// The MPI kinds whose Code is payload (otter/mpi.h) are written with the
/// Predictor seeing a "model" of each event (TraceWriter's encodeMpi, the
/// reader's emitMpi), per location:
///  - Code is 0 in the model; the real Code goes in the otter:payload
///    attribute only when it differs from the last Code of the same kind
///    (a loop's sends to one peer, its collectives of one kind: none);
///  - an MpiCollectiveBegin's A (the instance, counting up on its
///    communicator) is the difference to the previous one in the model, so
///    that a loop's A is predicted.
struct MpiModel {
  std::uint64_t LastPayload[KindSlots] = {};
  std::uint64_t LastInstance = 0;

  static std::size_t slot(EventKind K) {
    return std::size_t(K) < KindSlots ? std::size_t(K) : 0;
  }
  /// Writer: the model of E (call once per event, before payloadMissed).
  Event model(const Event &E) {
    Event M = E;
    M.Code = 0;
    if (E.Kind == EventKind::MpiCollectiveBegin) {
      M.A = E.A - LastInstance;
      LastInstance = E.A;
    }
    return M;
  }
  /// Writer: must the payload be written? (updates the prediction)
  bool payloadMissed(const Event &E) {
    std::uint64_t &Last = LastPayload[slot(E.Kind)];
    bool Miss = E.Code != Last;
    Last = E.Code;
    return Miss;
  }
  /// Reader: the event back from its model M and what the record carried.
  Event event(const Event &M, bool CodeNative, std::uint64_t Code,
              bool HasPayload, std::uint64_t Payload) {
    Event E = M;
    if (CodeNative) {
      E.Code = Code;
    } else {
      std::uint64_t &Last = LastPayload[slot(E.Kind)];
      E.Code = HasPayload ? Payload : Last;
      Last = E.Code;
    }
    if (E.Kind == EventKind::MpiCollectiveBegin) {
      E.A = M.A + LastInstance;
      LastInstance = E.A;
    }
    return E;
  }
};

} // namespace otter::trace

#endif // OTTER_TRACE_CODEC_H
