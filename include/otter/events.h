//===- otter/events.h - OTTER's typed event records ---------------*- C++ -*-===//
//
// The fixed-size event record that every layer of OTTER speaks. The OMPT
// adapter (runtime/ompt) turns each runtime callback into one of these and
// appends it to a per-thread buffer; the OTF2 writer stores them; the OTF2
// reader reproduces them; the graph builder consumes them. Nothing here knows
// about OMPT: kinds are OTTER's own, so the builder can be fed synthetic
// streams in unit tests.
//
// Identity: every task (initial, implicit, explicit) has a 64-bit id that is
// unique in the process; so does every parallel region. Ids carry the creating
// thread's index in the high bits and a per-thread counter in the low bits,
// so they are made without any shared counter. `Seq` numbers the events of
// one task in the order the task encountered them (a task runs its own code
// sequentially, even when untied and migrating between threads), which is
// what makes the graph independent of the thread schedule.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_EVENTS_H
#define OTTER_EVENTS_H

#include <algorithm>
#include <cstdint>

namespace otter {

using TaskId = std::uint64_t;
using ParallelId = std::uint64_t;

/// What happened: one enumerator per row of otter/event_kinds.def (which
/// says what each carries). Values are stored in traces: append only, never
/// renumber.
enum class EventKind : std::uint16_t {
  None = 0,
#define OTTER_EVENT(Kind, Value, ...) Kind = Value,
#include "otter/event_kinds.def"
  LastKind = std::max({
#define OTTER_EVENT(Kind, Value, ...) std::uint16_t(Value),
#include "otter/event_kinds.def"
  }),
};

// Ids. The runtime makes every task and parallel region id without a shared
// counter: the making thread's index, plus one, in the high bits and a
// per-thread counter (from 1) in the low 40 bits. Readers must take any
// other 64-bit value too (synthetic streams, other producers): 0 is "none".
inline constexpr unsigned IdCounterBits = 40;
inline constexpr std::uint64_t IdCounterMask =
    (std::uint64_t(1) << IdCounterBits) - 1;
/// The Counter-th id made by thread Thread.
constexpr std::uint64_t makeId(std::uint32_t Thread, std::uint64_t Counter) {
  return (std::uint64_t(Thread) + 1) << IdCounterBits | Counter;
}
/// True if Id has the runtime's form (made by some thread).
constexpr bool isThreadId(std::uint64_t Id) {
  return (Id >> IdCounterBits) != 0;
}
/// True if thread Thread made Id.
constexpr bool madeBy(std::uint64_t Id, std::uint32_t Thread) {
  return (Id >> IdCounterBits) == std::uint64_t(Thread) + 1;
}
/// The thread that made Id (for an id of the runtime's form).
constexpr std::uint32_t threadOf(std::uint64_t Id) {
  return std::uint32_t((Id >> IdCounterBits) - 1);
}
constexpr std::uint64_t counterOf(std::uint64_t Id) {
  return Id & IdCounterMask;
}

enum class ThreadType : std::uint16_t { Initial = 1, Worker = 2, Other = 3 };

/// Task flags, bit compatible with OMPT's ompt_task_flag_t.
enum TaskFlags : std::uint32_t {
  TaskInitial = 0x1,
  TaskImplicit = 0x2,
  TaskExplicit = 0x4,
  TaskTarget = 0x8,
  TaskTaskwait = 0x10,
  TaskUndeferred = 0x08000000,
  TaskUntied = 0x10000000,
  TaskFinal = 0x20000000,
  TaskMergeable = 0x40000000,
  TaskMerged = 0x80000000,
  /// OTTER's own bit: the task has depend clauses (ompt has_dependences).
  TaskHasDependences = 0x00000100,
  /// OTTER's own bit: undeferred task executed immediately by its creator
  /// (if(0), final descendants, serialized team): "included".
  TaskIncluded = 0x00000200,
};

/// Dependence types, values of OMPT's ompt_dependence_type_t.
enum class DependenceType : std::uint16_t {
  In = 1,
  Out = 2,
  InOut = 3,
  MutexInOutSet = 4,
  Source = 5,
  Sink = 6,
  InOutSet = 7,
};

/// Synchronisation kinds, values of OMPT's ompt_sync_region_t.
enum class SyncKind : std::uint16_t {
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  Kind = Value,
#include "otter/constructs.def"
};

/// Worksharing kinds, values of OMPT's ompt_work_t (otter/constructs.def).
enum class WorkKind : std::uint16_t {
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  Kind = Value,
#include "otter/constructs.def"
};

/// Mutex kinds, values of OMPT's ompt_mutex_t (otter/constructs.def).
enum class MutexKind : std::uint16_t {
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, Construct, Filter)         \
  Kind = Value,
#include "otter/constructs.def"
};

/// Task schedule statuses, values of OMPT's ompt_task_status_t.
enum class ScheduleStatus : std::uint16_t {
  Complete = 1,
  Yield = 2,
  Cancel = 3,
  Detach = 4,
  EarlyFulfill = 5,
  LateFulfill = 6,
  Switch = 7,
  TaskwaitComplete = 8,
};

/// omp_control_tool commands, values of OpenMP's omp_control_tool_t (the
/// ToolControl event's command).
enum class ControlCommand : std::uint16_t {
  Start = 1, // recording on again (the first event after a pause)
  Pause = 2, // recording paused (the last event before the gap)
  Flush = 3, // buffers written out: the trace is readable from here
  End = 4,   // recording ended for the rest of the run
};

/// What OTTER did on a program thread (ToolBegin / ToolEnd's work).
enum class ToolWork : std::uint16_t {
  Flush = 1, // the thread's full event buffer written out (encoded, stored)
};

/// Extra of a SyncBegin / SyncEnd: the region's wait began / ended at the
/// same instant, and the OMPT adapter folded that sync_region_wait event into
/// this one (one record instead of two, for every taskwait and most
/// barriers). unfoldEvent() gives the pair back.
inline constexpr std::uint32_t SyncWaitFolded = 0x1;

/// Extra of a TaskCreate: the creating task switched to the new task right
/// after creating it (an included task: on one thread, every task), and the
/// OMPT adapter folded that TaskSchedule (status switch, prior = the
/// creator, next = the child) into this event: one buffer slot instead of
/// two. The switch's time is this event's plus Extra >> 1 (its own clock's
/// units, as Time's). unfoldEvent() gives the pair back. The same bit as
/// SyncWaitFolded: one test (Extra & 1) finds every folded event.
inline constexpr std::uint32_t CreateSwitchFolded = 0x1;
/// The largest time difference a folded create carries (Extra >> 1).
inline constexpr std::uint32_t CreateSwitchMaxDelta = 0x7fffffff;

/// Extra of a SyncBegin with its wait folded in (SyncWaitFolded): the wait
/// also ended right after (an empty taskwait: on fib, every one), and the
/// OMPT adapter folded that SyncWaitEnd into this event
/// (SyncWaitEndFolded), and then the region's end too (SyncEndFolded,
/// only with SyncWaitEndFolded): one buffer slot for the four events. The
/// end's time is this event's plus Extra >> SyncEndShift (its own clock's
/// units, as Time's), its Seq this event's plus one (foldedSyncEnd()).
/// unfoldEvent() gives the events back.
inline constexpr std::uint32_t SyncWaitEndFolded = 0x2;
inline constexpr std::uint32_t SyncEndFolded = 0x4;
inline constexpr unsigned SyncEndShift = 3;
/// The largest time difference a folded end carries (Extra >> SyncEndShift).
inline constexpr std::uint32_t SyncEndMaxDelta = 0x1fffffff;

/// Target constructs, values of OMPT's ompt_target_t (libomptarget 19
/// reports a `target data` region as enter data and exit data: the plugin's
/// site label tells them apart, docs/offload.md).
enum class TargetKind : std::uint16_t {
  Target = 1,
  EnterData = 2,
  ExitData = 3,
  Update = 4,
  TargetNowait = 9,
  EnterDataNowait = 10,
  ExitDataNowait = 11,
  UpdateNowait = 12,
};

/// Data operations of a target construct, values of OMPT's
/// ompt_target_data_op_t.
enum class DataOpKind : std::uint16_t {
  Alloc = 1,
  TransferToDevice = 2,
  TransferFromDevice = 3,
  Delete = 4,
  Associate = 5,
  Disassociate = 6,
  AllocAsync = 17,
  TransferToDeviceAsync = 18,
  TransferFromDeviceAsync = 19,
  DeleteAsync = 20,
};
/// A data operation's name, its async bit ignored ("transfer to device";
/// "data op" for a value not listed): the trace's device regions and the
/// Perfetto export's device slices say the same.
inline const char *dataOpDisplayName(DataOpKind K) {
  switch (DataOpKind(std::uint16_t(K) & 0xf)) {
  case DataOpKind::Alloc:
    return "alloc";
  case DataOpKind::TransferToDevice:
    return "transfer to device";
  case DataOpKind::TransferFromDevice:
    return "transfer from device";
  case DataOpKind::Delete:
    return "delete";
  case DataOpKind::Associate:
    return "associate";
  case DataOpKind::Disassociate:
    return "disassociate";
  default:
    return "data op";
  }
}

/// Dispatch kinds, values of OMPT's ompt_dispatch_t.
enum class DispatchKind : std::uint16_t {
  Iteration = 1,
  Section = 2,
  WsLoopChunk = 3,
  TaskloopChunk = 4,
  DistributeChunk = 5,
};

namespace mpi { // defined in otter/mpi.h
enum class Function : std::uint16_t;
enum class CollectiveOp : std::uint8_t;
} // namespace mpi

// Calls M(X) for each further argument X (at most 8): the constructors below
// are made from a row's field list.
#define OTTER_PP_FE_0(M, ...)
#define OTTER_PP_FE_1(M, X) M(X)
#define OTTER_PP_FE_2(M, X, ...) M(X) OTTER_PP_FE_1(M, __VA_ARGS__)
#define OTTER_PP_FE_3(M, X, ...) M(X) OTTER_PP_FE_2(M, __VA_ARGS__)
#define OTTER_PP_FE_4(M, X, ...) M(X) OTTER_PP_FE_3(M, __VA_ARGS__)
#define OTTER_PP_FE_5(M, X, ...) M(X) OTTER_PP_FE_4(M, __VA_ARGS__)
#define OTTER_PP_FE_6(M, X, ...) M(X) OTTER_PP_FE_5(M, __VA_ARGS__)
#define OTTER_PP_FE_7(M, X, ...) M(X) OTTER_PP_FE_6(M, __VA_ARGS__)
#define OTTER_PP_FE_8(M, X, ...) M(X) OTTER_PP_FE_7(M, __VA_ARGS__)
#define OTTER_PP_FE_PICK(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N
#define OTTER_PP_FOR_EACH(M, ...)                                              \
  OTTER_PP_FE_PICK(__VA_ARGS__ __VA_OPT__(, ) OTTER_PP_FE_8, OTTER_PP_FE_7,    \
                   OTTER_PP_FE_6, OTTER_PP_FE_5, OTTER_PP_FE_4, OTTER_PP_FE_3, \
                   OTTER_PP_FE_2, OTTER_PP_FE_1, OTTER_PP_FE_0)                \
  (M, __VA_ARGS__)

/// One event. 48 bytes, trivially copyable, written as-is into per-thread
/// buffers. The fields below are its storage, which the trace codec, the
/// recorder and tests of them read as such; everyone else reads and makes
/// events through the typed interface generated from otter/event_kinds.def:
/// a static constructor per kind (Event::taskCreate(Time, creator, child,
/// flags, code)) and an accessor per payload field (E.child()), valid for
/// the kinds whose row lists that field. `Code` is a code address for the
/// OpenMP kinds (codeptr_ra, already moved out of libomp into user code
/// where the runtime could); MPI kinds use it for payload (otter/mpi.h).
struct Event {
  std::uint64_t Time;   // ns, CLOCK_MONOTONIC
  TaskId Task;          // the task the event belongs to (see its row)
  std::uint64_t A;      // kind-specific payload
  std::uint64_t Code;   // codeptr_ra (0 if none), or payload
  std::uint32_t Seq;    // position in Task's own event sequence
  std::uint32_t Aux;    // kind-specific payload (flags, sizes)
  EventKind Kind;
  std::uint16_t Sub;    // kind-specific sub-kind
  std::uint32_t Extra;  // kind-specific payload (ImplicitTaskBegin flags)

  /// The types of the payload fields, by field name.
  struct FieldType {
#define OTTER_EVENT_FIELD(Name, Label, Slot, Type, Format) using Name = Type;
#include "otter/event_kinds.def"
  };

  // One accessor per field.
#define OTTER_EVENT_FIELD(Name, Label, Slot, Type, Format)                     \
  constexpr Type Name() const { return Type(get##Slot()); }
#include "otter/event_kinds.def"

  // One constructor per kind: Time, then the row's fields; the rest zero.
#define OTTER_EVENT_PARAM(Name) , FieldType::Name Name
#define OTTER_EVENT_SET(Name) E.set_##Name(Name);
#define OTTER_EVENT(K, Value, Ctor, Name, Record, Graph, Group, ...)           \
  static constexpr Event Ctor(std::uint64_t Time OTTER_PP_FOR_EACH(            \
      OTTER_EVENT_PARAM __VA_OPT__(, ) __VA_ARGS__)) {                         \
    Event E{};                                                                 \
    E.Time = Time;                                                             \
    E.Kind = EventKind::K;                                                     \
    OTTER_PP_FOR_EACH(OTTER_EVENT_SET __VA_OPT__(, ) __VA_ARGS__)              \
    return E;                                                                  \
  }
#include "otter/event_kinds.def"
#undef OTTER_EVENT_PARAM
#undef OTTER_EVENT_SET

  /// The kind-specific sub-kind (sync, work, mutex kind, dependence type,
  /// schedule status ...) as a number, for readers that store it compactly
  /// and interpret it by kind later (the graph builder).
  constexpr std::uint16_t subKind() const { return Sub; }
  /// A SyncBegin / SyncEnd with its wait folded in (SyncWaitFolded).
  constexpr bool waitFolded() const { return Extra & SyncWaitFolded; }
  /// Folds the sync region's wait into this SyncBegin / SyncEnd.
  constexpr void foldWait() { Extra |= SyncWaitFolded; }

private:
  // The slots of otter/event_kinds.def: where each field is stored.
  constexpr std::uint64_t getTask() const { return Task; }
  constexpr std::uint64_t getA() const { return A; }
  constexpr std::uint64_t getCode() const { return Code; }
  constexpr std::uint64_t getAux() const { return Aux; }
  constexpr std::uint64_t getSub() const { return Sub; }
  constexpr std::uint64_t getExtra() const { return Extra; }
  constexpr std::uint64_t getAuxExtra() const {
    return std::uint64_t(Extra) << 32 | Aux;
  }
  constexpr std::uint64_t getALo() const { return std::uint32_t(A); }
  constexpr std::uint64_t getAHi() const { return A >> 32; }
  constexpr std::uint64_t getAHi8() const { return A >> 56; }
  constexpr std::uint64_t getALo56() const { return A & Low56; }
  constexpr std::uint64_t getCodeLo() const { return std::uint32_t(Code); }
  constexpr std::uint64_t getCodeHi() const { return Code >> 32; }
  constexpr void setTask(std::uint64_t V) { Task = V; }
  constexpr void setA(std::uint64_t V) { A = V; }
  constexpr void setCode(std::uint64_t V) { Code = V; }
  constexpr void setAux(std::uint64_t V) { Aux = std::uint32_t(V); }
  constexpr void setSub(std::uint64_t V) { Sub = std::uint16_t(V); }
  constexpr void setExtra(std::uint64_t V) { Extra = std::uint32_t(V); }
  constexpr void setAuxExtra(std::uint64_t V) {
    Aux = std::uint32_t(V);
    Extra = std::uint32_t(V >> 32);
  }
  constexpr void setALo(std::uint64_t V) { A = (A & ~Low32) | (V & Low32); }
  constexpr void setAHi(std::uint64_t V) { A = (A & Low32) | V << 32; }
  constexpr void setAHi8(std::uint64_t V) { A = (A & Low56) | V << 56; }
  constexpr void setALo56(std::uint64_t V) { A = (A & ~Low56) | (V & Low56); }
  constexpr void setCodeLo(std::uint64_t V) {
    Code = (Code & ~Low32) | (V & Low32);
  }
  constexpr void setCodeHi(std::uint64_t V) { Code = (Code & Low32) | V << 32; }
  static constexpr std::uint64_t Low32 = 0xffffffffull,
                                 Low56 = (std::uint64_t(1) << 56) - 1;

#define OTTER_EVENT_FIELD(Name, Label, Slot, Type, Format)                     \
  constexpr void set_##Name(Type V) { set##Slot(std::uint64_t(V)); }
#include "otter/event_kinds.def"
};
static_assert(sizeof(Event) == 48, "Event must stay a fixed 48-byte record");

/// The switch a TaskCreate carrying CreateSwitchFolded stands for after
/// itself: from the creator to the child, at the create's time plus the
/// folded difference, next in the creator's sequence (a switch does not
/// advance it), with the child's construct as Code (as the adapter records
/// a switch's).
constexpr Event foldedSwitch(const Event &Create) {
  Event S{};
  S.Time = Create.Time + (Create.Extra >> 1);
  S.Kind = EventKind::TaskSchedule;
  S.Task = Create.Task;
  S.A = Create.A;
  S.Sub = std::uint16_t(ScheduleStatus::Switch);
  S.Seq = Create.Seq + 1;
  S.Code = Create.Code;
  return S;
}

/// A SyncBegin carrying SyncWaitEndFolded (with SyncWaitFolded): the end
/// folded into it, as the adapter would have recorded it apart -- a SyncEnd
/// with its wait's end folded in (SyncEndFolded), or else the SyncWaitEnd
/// alone -- at the begin's time plus the folded difference, next in the
/// task's sequence, with the begin's payload.
constexpr Event foldedSyncEnd(const Event &Begin) {
  Event E = Begin;
  E.Time = Begin.Time + (Begin.Extra >> SyncEndShift);
  E.Seq = Begin.Seq + 1;
  const bool Region = Begin.Extra & SyncEndFolded;
  E.Kind = Region ? EventKind::SyncEnd : EventKind::SyncWaitEnd;
  E.Extra = Region ? SyncWaitFolded : 0;
  return E;
}

/// Most events a buffer slot stands for (unfoldEvent).
inline constexpr unsigned MaxUnfolded = 4;

/// The events E stands for, in order, into Out: E itself; or a folded
/// SyncBegin followed by its SyncWaitBegin; or a folded SyncEnd preceded by
/// its SyncWaitEnd (the wait with E's time, task, seq and payload); or a
/// folded TaskCreate followed by its switch (foldedSwitch); or a SyncBegin
/// with its end folded in too followed by the end's events
/// (foldedSyncEnd). Returns how many (1 to MaxUnfolded). The events no
/// longer carry the flags, so unfolding twice gives the same events
/// (graph/rules.h, forEachEvent).
inline unsigned unfoldEvent(const Event &E, Event Out[MaxUnfolded]) {
  if (E.Kind == EventKind::TaskCreate && (E.Extra & CreateSwitchFolded)) {
    Out[0] = E;
    Out[0].Extra = 0;
    Out[1] = foldedSwitch(E);
    return 2;
  }
  if (E.Kind == EventKind::SyncBegin && (E.Extra & SyncWaitEndFolded)) {
    Event Begin = E;
    Begin.Extra = SyncWaitFolded;
    const unsigned N = unfoldEvent(Begin, Out);
    return N + unfoldEvent(foldedSyncEnd(E), Out + N);
  }
  bool Folded = (E.Kind == EventKind::SyncBegin ||
                 E.Kind == EventKind::SyncEnd) &&
                (E.Extra & SyncWaitFolded);
  if (!Folded) {
    Out[0] = E;
    return 1;
  }
  Event Region = E;
  Region.Extra &= ~SyncWaitFolded;
  Event Wait = Region;
  Wait.Kind = E.Kind == EventKind::SyncBegin ? EventKind::SyncWaitBegin
                                             : EventKind::SyncWaitEnd;
  Out[E.Kind == EventKind::SyncBegin ? 0 : 1] = Region;
  Out[E.Kind == EventKind::SyncBegin ? 1 : 0] = Wait;
  return 2;
}

} // namespace otter

#endif // OTTER_EVENTS_H
