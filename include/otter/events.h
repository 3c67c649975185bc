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

#include <cstdint>

namespace otter {

using TaskId = std::uint64_t;
using ParallelId = std::uint64_t;

/// What happened. Values are stored in traces: append only, never renumber.
enum class EventKind : std::uint16_t {
  None = 0,
  ThreadBegin = 1, // Sub = ThreadType
  ThreadEnd = 2,
  ParallelBegin = 3,     // Task=encountering, A=ParallelId, Aux=requested size,
                         // Sub=flags (1 = league)
  ParallelEnd = 4,       // Task=encountering, A=ParallelId
  ImplicitTaskBegin = 5, // Task=implicit task, A=ParallelId (0 for the
                         // initial task), Aux=team size, Sub=index in team,
                         // Extra=TaskFlags
  ImplicitTaskEnd = 6,   // Task=implicit task
  TaskCreate = 7,        // Task=creator, A=new task, Aux=TaskFlags
  TaskDependence = 8,    // Task=the new task, A=address, Sub=DependenceType
  TaskSchedule = 9,      // Task=prior task (0 if none), A=next task,
                         // Sub=ScheduleStatus
  SyncBegin = 10,        // Task=encountering, A=ParallelId, Sub=SyncKind,
                         // Extra=SyncWaitFolded or 0
  SyncEnd = 11,
  SyncWaitBegin = 12,
  SyncWaitEnd = 13,
  WorkBegin = 14, // Task=encountering, A=iteration count, Sub=WorkKind
  WorkEnd = 15,
  MaskedBegin = 16, // Task=encountering
  MaskedEnd = 17,
  MutexAcquire = 18, // Task=encountering, A=wait id, Sub=MutexKind
  MutexAcquired = 19,
  MutexReleased = 20,
  NestLockBegin = 21,      // nested (re)acquisition of an owned nest lock
  NestLockEnd = 22,        // nested release, lock still owned
  Cancel = 23,             // Task=encountering, Aux=cancel flags
  TaskDependencePair = 24, // A=predecessor, Task=successor (runtime-observed,
                           // timing dependent: trace only, not used for graph)
  Dispatch = 25,           // Task=encountering, A=instance, Sub=DispatchKind
  Flush = 26,
  // MPI (the wrapper library, runtime/mpi/): payloads in otter/mpi.h.
  MpiCallBegin = 27,
  MpiCallEnd = 28,
  MpiSend = 29,
  MpiIsend = 30,
  MpiIsendComplete = 31,
  MpiIrecvRequest = 32,
  MpiRecv = 33,
  MpiIrecv = 34,
  MpiRequestTest = 35,
  MpiRequestCancelled = 36,
  MpiCollectiveBegin = 37,
  MpiCollectiveEnd = 38,
  MpiCommCreate = 39,
  MpiCommMembers = 40,
  MpiCommFree = 41,
  MpiInit = 42,
  MpiClockOffset = 43,
  LastKind = MpiClockOffset,
};

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
  Barrier = 1,
  BarrierImplicit = 2,
  BarrierExplicit = 3,
  BarrierImplementation = 4,
  Taskwait = 5,
  Taskgroup = 6,
  Reduction = 7,
  BarrierImplicitWorkshare = 8,
  BarrierImplicitParallel = 9,
  BarrierTeams = 10,
};

/// Worksharing kinds, values of OMPT's ompt_work_t.
enum class WorkKind : std::uint16_t {
  Loop = 1,
  Sections = 2,
  SingleExecutor = 3,
  SingleOther = 4,
  Workshare = 5,
  Distribute = 6,
  Taskloop = 7,
  Scope = 8,
  LoopStatic = 10,
  LoopDynamic = 11,
  LoopGuided = 12,
  LoopOther = 13,
};

/// Mutex kinds, values of OMPT's ompt_mutex_t.
enum class MutexKind : std::uint16_t {
  Lock = 1,
  TestLock = 2,
  NestLock = 3,
  TestNestLock = 4,
  Critical = 5,
  Atomic = 6,
  Ordered = 7,
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

/// Extra of a SyncBegin / SyncEnd: the region's wait began / ended at the
/// same instant, and the OMPT adapter folded that sync_region_wait event into
/// this one (one record instead of two, for every taskwait and most
/// barriers). unfoldEvent() gives the pair back.
inline constexpr std::uint32_t SyncWaitFolded = 0x1;

/// One event. 48 bytes, trivially copyable, written as-is into per-thread
/// buffers. `Code` is the code address OMPT reported (codeptr_ra), already
/// moved out of libomp into user code where the runtime could.
struct Event {
  std::uint64_t Time;   // ns, CLOCK_MONOTONIC
  TaskId Task;          // the task the event belongs to (see EventKind)
  std::uint64_t A;      // kind-specific payload
  std::uint64_t Code;   // codeptr_ra (0 if none)
  std::uint32_t Seq;    // position in Task's own event sequence
  std::uint32_t Aux;    // kind-specific payload (flags, sizes)
  EventKind Kind;
  std::uint16_t Sub;    // kind-specific sub-kind
  std::uint32_t Extra;  // kind-specific payload (ImplicitTaskBegin flags)
};
static_assert(sizeof(Event) == 48, "Event must stay a fixed 48-byte record");

/// The events E stands for, in order, into Out: E itself; or a folded
/// SyncBegin followed by its SyncWaitBegin; or a folded SyncEnd preceded by
/// its SyncWaitEnd (the wait with E's time, task, seq and payload). Returns
/// how many (1 or 2). The pair no longer carries SyncWaitFolded, so
/// unfolding twice gives the same events (graph/rules.h, forEachEvent).
inline unsigned unfoldEvent(const Event &E, Event Out[2]) {
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

const char *eventKindName(EventKind K);

} // namespace otter

#endif // OTTER_EVENTS_H
