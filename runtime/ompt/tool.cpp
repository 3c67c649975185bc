//===- ompt/tool.cpp - OMPT entry point and callbacks ---------------------===//
//
// The thin adapter between libomp and OTTER: ompt_start_tool, registration
// of callbacks, and one small function per callback that turns the runtime's
// arguments into an otter::Event appended to the calling thread's buffer.
// This file holds the frequent callbacks (threads, parallel regions,
// implicit and explicit tasks, synchronisation, worksharing, masked);
// ompt/callbacks_other.cpp the rest (locks, cancel, dispatch, flush, tool
// control); ompt/adapter.h what both share (record()).
// Nothing here builds graphs or writes files (see core/session.cpp).
//
// Callback notes (libomp 19, observed):
//  - the initial task arrives as implicit_task(begin) with the initial flag
//    and no parallel id; a serial outer "team" of one.
//  - workers report their implicit barrier at the end of a parallel region
//    with codeptr_ra == NULL, and implicit_task(end) after it.
//  - the implicit barrier of a worksharing construct is reported after the
//    construct's work(end); a taskloop's implicit taskgroup around its
//    work(begin/end). The builder reorders both (graph/builder.cpp).
//  - taskloop tasks are created with codeptr_ra inside libomp: the site
//    index walks the stack back into user code for those.
//  - mutex callbacks carry no task: we ask ompt_get_task_info for it.
//  - omp_test_lock reports acquire/acquired with kind test_lock and
//    released with kind lock.
//  - dispatch: a chunk per dynamic-loop dispatch, one per thread for a
//    static loop (none in a team of one), one per deferred taskloop task as
//    it starts (in that task; none for a task run as it is created), one
//    per thread for sections (instance = the construct's address, not which
//    section), one per team for distribute; reduction: only when combining
//    by critical section, tree or alone (a team of one; KMP_FORCE_REDUCTION
//    chooses), never for atomic updates, with codeptr_ra NULL; flush: thread
//    and codeptr_ra only (test/lit/utils/dump-dispatch.c).
//
//===----------------------------------------------------------------------===//
#include "ompt/tool.h"
#include "core/names.h"
#include "core/recorder.h"
#include "core/session.h"
#include "ompt/adapter.h"
#include "ompt/calibrate.h"
#include "ompt/registration.h"

#include <omp-tools.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace otter;
using namespace otter::ompt::adapter;

namespace {

// The frequent callbacks come in two parts: the callback itself handles the
// common case with no call, and hands anything else to its general version
// (the same body instantiated with Fast = false, behind a noinline
// function). The common case is: recorder::fastThread() gives the thread
// (recording on, room in its buffer, the TSC as clock), the code address
// lies outside libomp (no stack walk), and a task record is on the free
// list where one is needed. Written out in each callback, as
//
//   ThreadState *T = recorder::fastThread();
//   if (!T || <not the common case>) [[unlikely]]
//     return callbackSlow(...);
//   callback<true>(T, ...);
//
// so that the common case needs no stack frame (no callee-saved registers
// to save and restore).

/// The same for a parallel region: a bit of its id (ids never reach it,
/// otter/events.h), which its implicit tasks see.
constexpr std::uint64_t ParallelFiltered = std::uint64_t(1) << 63;
/// The one record of every filtered explicit task: no record is taken
/// from the free list for it nor given back, and nothing writes to it
/// (record() refuses its events before touching Seq). Filtering a task
/// costs a few instructions per callback this way (docs/filter.md).
TaskState FilteredTask{0, 0, TaskFiltered, nullptr, 0, false};
/// The one record of every gap task (core/filter.h): created while
/// recording was paused, or by a gap task. Filtered as FilteredTask is,
/// for its whole life (also after the start), but counted, so that the
/// stage stays engaged until the last one completes (the fast path never
/// sees it).
TaskState PausedTask{0, 0, TaskFiltered, nullptr, 0, false};

void onThreadBegin(ompt_thread_t Type, ompt_data_t *ThreadData) {
  if (!recorder::Active.load(std::memory_order_relaxed))
    return;
  ThreadState *T = recorder::registerThread(std::uint32_t(Type));
  if (!T)
    return;
  ThreadData->ptr = T;
  record<false, false, false>(
      T, nullptr, [&] { return Event::threadBegin(0, ThreadType(Type)); });
  recorder::recordThreadCpu(T);
}

void onThreadEnd(ompt_data_t *) {
  OTTER_PROLOGUE();
  recorder::recordThreadCpu(T);
  record<false, false, false>(T, nullptr, [&] { return Event::threadEnd(0); });
  T->Ended = true;
  recorder::flush(T); // the thread is leaving: off the hot path
}

template <bool Fast>
[[gnu::always_inline]] inline void
parallelBegin(ThreadState *T, ompt_data_t *EncounteringTask,
              ompt_data_t *ParallelData, unsigned int Requested, int Flags,
              const void *Codeptr) {
  std::uint64_t Id = recorder::newId(T);
  ParallelData->value = Id;
  TaskState *S = taskOf(EncounteringTask);
  Event &E = record<Fast>(T, S, [&] {
    return Event::parallelBegin(0, idOf(S), Id, Requested,
                                (Flags & ompt_parallel_league) ? 1 : 0,
                                codeOf<Fast>(Codeptr));
  });
  if constexpr (!Fast)
    if (refusedByRules(T, E)) [[unlikely]]
      ParallelData->value |= ParallelFiltered;
}

[[gnu::noinline]] void parallelBeginSlow(ompt_data_t *EncounteringTask,
                                         ompt_data_t *ParallelData,
                                         unsigned int Requested, int Flags,
                                         const void *Codeptr) {
  OTTER_PROLOGUE();
  parallelBegin<false>(T, EncounteringTask, ParallelData, Requested, Flags,
                       Codeptr);
}

void onParallelBegin(ompt_data_t *EncounteringTask, const ompt_frame_t *,
                     ompt_data_t *ParallelData, unsigned int Requested,
                     int Flags, const void *Codeptr) {
  ThreadState *T = recorder::fastThread();
  if (!T || codeIsInsideOpenMPRuntime(Codeptr)) [[unlikely]]
    return parallelBeginSlow(EncounteringTask, ParallelData, Requested, Flags,
                             Codeptr);
  parallelBegin<true>(T, EncounteringTask, ParallelData, Requested, Flags,
                      Codeptr);
}

template <bool Fast>
[[gnu::always_inline]] inline void
parallelEnd(ThreadState *T, ompt_data_t *ParallelData,
            ompt_data_t *EncounteringTask, const void *Codeptr) {
  TaskState *S = taskOf(EncounteringTask);
  if (!Fast && ParallelData && (ParallelData->value & ParallelFiltered))
    return;
  record<Fast>(T, S, [&] {
    return Event::parallelEnd(0, idOf(S),
                              ParallelData ? ParallelData->value : 0,
                              codeOf<Fast>(Codeptr));
  });
}

[[gnu::noinline]] void parallelEndSlow(ompt_data_t *ParallelData,
                                       ompt_data_t *EncounteringTask,
                                       const void *Codeptr) {
  filter::gapCheck(); // a gap task's completion may have raced a start
  OTTER_PROLOGUE();
  parallelEnd<false>(T, ParallelData, EncounteringTask, Codeptr);
}

void onParallelEnd(ompt_data_t *ParallelData, ompt_data_t *EncounteringTask,
                   int, const void *Codeptr) {
  ThreadState *T = recorder::fastThread();
  if (!T || codeIsInsideOpenMPRuntime(Codeptr)) [[unlikely]]
    return parallelEndSlow(ParallelData, EncounteringTask, Codeptr);
  parallelEnd<true>(T, ParallelData, EncounteringTask, Codeptr);
}

template <bool Fast>
[[gnu::always_inline]] inline void
implicitTask(ThreadState *T, ompt_scope_endpoint_t Endpoint,
             ompt_data_t *ParallelData, ompt_data_t *TaskData,
             unsigned int ActualParallelism, unsigned int Index, int Flags) {
  if (Endpoint == ompt_scope_begin) {
    TaskState *S;
    if (Fast) {
      S = T->FreeTasks;
      T->FreeTasks = S->NextFree;
    } else if (!(S = recorder::allocTask(T))) {
      return;
    }
    S->Id = recorder::newId(T);
    S->Seq = 0;
    S->Flags = std::uint32_t(Flags);
    if (!Fast && ParallelData && (ParallelData->value & ParallelFiltered) &&
        !(Flags & ompt_task_initial)) [[unlikely]]
      S->Flags |= TaskFiltered;
    S->Code = 0;
    S->CreatedInRuntime = false;
    TaskData->ptr = S;
    auto Make = [&] {
      return Event::implicitTaskBegin(
          0, S->Id,
          (ParallelData && !(Flags & ompt_task_initial)) ? ParallelData->value
                                                         : 0,
          ActualParallelism, std::uint16_t(Index), std::uint32_t(Flags));
    };
    // The initial task is the root of the graph: recorded even when the
    // run starts paused (OTTER_START=paused).
    if (!Fast && (Flags & ompt_task_initial))
      record<false, false, false>(T, S, Make);
    else
      record<Fast>(T, S, Make);
  } else {
    TaskState *S = taskOf(TaskData);
    if (!S)
      return;
    auto Make = [&] { return Event::implicitTaskEnd(0, S->Id); };
    if (!Fast && (S->Flags & ompt_task_initial)) {
      // The initial thread's last CPU sample: libomp reports no thread end
      // for it.
      recorder::recordThreadCpu(T);
      record<false, false, false>(T, S, Make);
    } else
      record<Fast>(T, S, Make);
    TaskData->ptr = nullptr;
    recorder::freeTask(T, S);
  }
}

[[gnu::noinline]] void implicitTaskSlow(ompt_scope_endpoint_t Endpoint,
                                        ompt_data_t *ParallelData,
                                        ompt_data_t *TaskData,
                                        unsigned int ActualParallelism,
                                        unsigned int Index, int Flags) {
  OTTER_PROLOGUE();
  implicitTask<false>(T, Endpoint, ParallelData, TaskData, ActualParallelism,
                      Index, Flags);
}

void onImplicitTask(ompt_scope_endpoint_t Endpoint, ompt_data_t *ParallelData,
                    ompt_data_t *TaskData, unsigned int ActualParallelism,
                    unsigned int Index, int Flags) {
  ThreadState *T = recorder::fastThread();
  if (!T || (Endpoint == ompt_scope_begin && !T->FreeTasks) ||
      (Flags & ompt_task_initial)) [[unlikely]]
    return implicitTaskSlow(Endpoint, ParallelData, TaskData, ActualParallelism,
                            Index, Flags);
  implicitTask<true>(T, Endpoint, ParallelData, TaskData, ActualParallelism,
                     Index, Flags);
}

template <bool Fast>
[[gnu::always_inline]] inline void
taskCreate(ThreadState *T, ompt_data_t *EncounteringTask,
           ompt_data_t *NewTaskData, int Flags, int HasDependences,
           const void *Codeptr) {
  // A taskloop's tasks: libomp reports a code address inside itself. A big
  // taskloop is split: libomp creates task-generating tasks (from inside
  // itself), and each creates part of the loop's tasks, on whichever thread
  // runs it, reporting the taskloop's encountering task as their creator.
  // Those creations belong to the generating task that runs them: it is the
  // one executing on this thread (so the encountering task's own sequence
  // is only ever advanced by the thread running it), and it carries the
  // taskloop's code. Otherwise the taskloop's user address was found once,
  // at its work(begin) on this thread.
  TaskState *Encountering = taskOf(EncounteringTask);
  bool InRuntime = !Fast && codeIsInsideOpenMPRuntime(Codeptr);
  TaskState *Generator = InRuntime ? currentTask() : nullptr;
  std::uint64_t Code;
  if (!InRuntime) [[likely]]
    Code = reinterpret_cast<std::uint64_t>(Codeptr);
  else if (Generator && Generator->CreatedInRuntime) {
    Encountering = Generator;
    Code = Generator->Code;
  } else if (const ThreadExt &X = ext(T); X.TaskloopDepth)
    Code =
        X.TaskloopCode[std::min(X.TaskloopDepth, ThreadExt::MaxTaskloopDepth) -
                       1];
  else
    Code = code(Codeptr);
  if constexpr (!Fast) {
    // Created by a gap task (a taskloop's generating task, created while
    // paused): a gap task.
    if (Encountering == &PausedTask || Generator == &PausedTask) [[unlikely]] {
      NewTaskData->ptr = &PausedTask;
      return filter::gapChildCreated();
    }
    // Filtered by the rules (not a pause): created inside a filtered task,
    // or refused itself. Sub 0: a creation's (otter/event_kinds.def).
    if (filter::engaged() && !filter::paused() &&
        (filtered(Encountering) ||
         !filter::admit(EventKind::TaskCreate, 0, Code))) [[unlikely]] {
      NewTaskData->ptr = &FilteredTask;
      return;
    }
  }
  TaskState *S;
  if (Fast) {
    S = T->FreeTasks;
    T->FreeTasks = S->NextFree;
  } else if (!(S = recorder::allocTask(T))) {
    return;
  }
  S->Id = recorder::newId(T);
  S->Seq = 0;
  // Included (otter/events.h): an undeferred task that its creating thread
  // executes at once, before its creator goes on. libomp 19 reports as
  // undeferred only tasks it runs so -- if(0), a final task's descendants,
  // any task of a team of one thread -- so the flag follows from it;
  // test/lit/constructs/included.c checks it against the schedule order.
  static_assert(TaskUndeferred >> 18 == TaskIncluded);
  S->Flags = std::uint32_t(Flags) |
             (HasDependences ? std::uint32_t(TaskHasDependences) : 0u) |
             ((std::uint32_t(Flags) >> 18) & TaskIncluded);
  S->Code = Code;
  S->CreatedInRuntime = InRuntime;
  NewTaskData->ptr = S;
  record<Fast>(T, Encountering, [&] {
    return Event::taskCreate(0, idOf(Encountering), S->Id, S->Flags, Code);
  });
}

[[gnu::noipa]] void taskCreateGeneral(ompt_data_t *EncounteringTask,
                                      const ompt_frame_t *,
                                      ompt_data_t *NewTaskData, int Flags,
                                      int HasDependences, const void *Codeptr) {
  OTTER_PROLOGUE();
  taskCreate<false>(T, EncounteringTask, NewTaskData, Flags, HasDependences,
                    Codeptr);
}

// The Slow functions below first drop what a filtered task does (the cost
// of a filtered construct, docs/filter.md; filtered tasks exist only while
// filter rules are installed), then tail-call the general path: apart, so
// that the early exit does not pay for the general path's stack frame.
// So do a paused recording's (omp_control_tool): a paused callback then
// costs a few instructions (bench/run.py callgrind measures it).
/// Created while paused: a gap task (core/filter.h), with no record, id
/// or event (docs/trace.md, "Tool control"); unless recording started
/// meanwhile.
[[gnu::noipa]] void taskCreatePaused(ompt_data_t *EncounteringTask,
                                     const ompt_frame_t *Frame,
                                     ompt_data_t *NewTaskData, int Flags,
                                     int HasDependences, const void *Codeptr) {
  if (filter::gapTaskCreated()) [[likely]] {
    NewTaskData->ptr = &PausedTask;
    return;
  }
  taskCreateGeneral(EncounteringTask, Frame, NewTaskData, Flags, HasDependences,
                    Codeptr);
}

// (Same arguments as onTaskCreate, and noipa keeps them so: no moves
// before the tail call.)
[[gnu::noipa]] void taskCreateSlow(ompt_data_t *EncounteringTask,
                                   const ompt_frame_t *Frame,
                                   ompt_data_t *NewTaskData, int Flags,
                                   int HasDependences, const void *Codeptr) {
  // Inside a filtered task: filtered (paused or not: the extent goes).
  // Created by a gap task (paused or not; its shared record is flagged
  // filtered too): a gap task.
  TaskState *Encountering = taskOf(EncounteringTask);
  if (filtered(Encountering)) [[unlikely]] {
    if (Encountering == &PausedTask) {
      NewTaskData->ptr = &PausedTask;
      return filter::gapChildCreated();
    }
    NewTaskData->ptr = &FilteredTask;
    return;
  }
  if (filter::pausedNow())
    return taskCreatePaused(EncounteringTask, Frame, NewTaskData, Flags,
                            HasDependences, Codeptr);
  taskCreateGeneral(EncounteringTask, Frame, NewTaskData, Flags, HasDependences,
                    Codeptr);
}

void onTaskCreate(ompt_data_t *EncounteringTask, const ompt_frame_t *Frame,
                  ompt_data_t *NewTaskData, int Flags, int HasDependences,
                  const void *Codeptr) {
  ThreadState *T = recorder::fastThread();
  if (!T || codeIsInsideOpenMPRuntime(Codeptr) || !T->FreeTasks) [[unlikely]]
    return taskCreateSlow(EncounteringTask, Frame, NewTaskData, Flags,
                          HasDependences, Codeptr);
  taskCreate<true>(T, EncounteringTask, NewTaskData, Flags, HasDependences,
                   Codeptr);
}

void onDependences(ompt_data_t *TaskData, const ompt_dependence_t *Deps,
                   int N) {
  OTTER_PROLOGUE();
  TaskState *S = taskOf(TaskData);
  for (int I = 0; I < N; ++I)
    record(T, S, [&] {
      return Event::taskDependence(
          0, idOf(S), reinterpret_cast<std::uint64_t>(Deps[I].variable.ptr),
          DependenceType(Deps[I].dependence_type));
    });
}

void onTaskDependence(ompt_data_t *Source, ompt_data_t *Sink) {
  OTTER_PROLOGUE();
  TaskState *Src = taskOf(Source), *Dst = taskOf(Sink);
  if (filtered(Src)) // and a filtered Dst: record() refuses it
    return;
  record<false, true>(T, Dst, [&] {
    return Event::taskDependencePair(0, idOf(Dst), idOf(Src));
  });
}

/// A task's last report: complete, cancelled, or -- a task with a detach
/// clause whose event is fulfilled after its body ended (ompt_task_detach
/// before) -- late_fulfill (see taskSchedule).
constexpr unsigned LastReports = (1u << ompt_task_complete) |
                                 (1u << ompt_task_cancel) |
                                 (1u << ompt_task_late_fulfill);

template <bool Fast>
[[gnu::always_inline]] inline void
taskSchedule(ThreadState *T, ompt_data_t *PriorTask, ompt_task_status_t Status,
             ompt_data_t *NextTask) {
  TaskState *Prior = taskOf(PriorTask), *Next = taskOf(NextTask);
  // A switch to or from a filtered task is not recorded; the filtered
  // tasks' shared record is never given back.
  if (!Fast && (filtered(Prior) || filtered(Next))) [[unlikely]] {
    if (Prior && ((LastReports >> (unsigned(Status) & 31)) & 1)) {
      PriorTask->ptr = nullptr;
      if (Prior == &PausedTask) // not seen here (taskScheduleSlow)
        filter::gapTaskDone();
      else if (Prior != &FilteredTask)
        recorder::freeTask(T, Prior);
    }
    return;
  }
  Event &E = record<Fast, true>(T, Prior, [&] {
    return Event::taskSchedule(0, idOf(Prior), ScheduleStatus(Status),
                               idOf(Next));
  });
  // Not a field of the kind: the next task's construct, for the trace
  // writer's body region (no table shared between threads to find it).
  E.Code = Next ? Next->Code : 0;
  // A task's last report: complete, cancelled, or -- a task with a detach
  // clause whose event is fulfilled after its body ended (ompt_task_detach
  // before) -- late_fulfill. Its record goes back to this thread's free
  // list: libomp names the task in no callback after it (its dependence
  // node forgets it as it completes), and its task_data is cleared anyway.
  if (Prior && ((LastReports >> (unsigned(Status) & 31)) & 1)) {
    PriorTask->ptr = nullptr;
    recorder::freeTask(T, Prior);
  }
}

/// Paused (omp_control_tool): only a finished task's record goes back (the
/// filtered and gap tasks' shared records never do; a gap task is counted
/// done). A switch costs two tests.
[[gnu::always_inline]] inline void
taskSchedulePaused(ompt_data_t *PriorTask, ompt_task_status_t Status) {
  if (!((LastReports >> (unsigned(Status) & 31)) & 1))
    return;
  TaskState *Prior = taskOf(PriorTask);
  if (!Prior)
    return;
  PriorTask->ptr = nullptr;
  if (Prior == &PausedTask)
    return filter::gapTaskDonePaused();
  ThreadState *T = recorder::CurrentThread;
  if (T && Prior != &FilteredTask) [[likely]]
    recorder::freeTask(T, Prior);
}

[[gnu::noinline]] void taskScheduleGeneral(ompt_data_t *PriorTask,
                                           ompt_task_status_t Status,
                                           ompt_data_t *NextTask) {
  OTTER_PROLOGUE();
  taskSchedule<false>(T, PriorTask, Status, NextTask);
}

[[gnu::noinline]] void taskScheduleSlow(ompt_data_t *PriorTask,
                                        ompt_task_status_t Status,
                                        ompt_data_t *NextTask) {
  // A switch from a gap task (onTaskSchedule decided the filtered tasks'):
  // not recorded; the shared record is never given back, the task is
  // counted done.
  if (taskOf(PriorTask) == &PausedTask) [[unlikely]] {
    if ((LastReports >> (unsigned(Status) & 31)) & 1) {
      PriorTask->ptr = nullptr;
      filter::gapTaskDone();
    }
    return;
  }
  taskScheduleGeneral(PriorTask, Status, NextTask);
}

/// A task switch (not a completion) on the fast path. A switch to the task
/// the running task just created (an included task: on one thread, every
/// task) is folded into the creation's event, which stands for both
/// (CreateSwitchFolded, otter/events.h): one buffer slot, not two. A
/// function of its own (entered by a jump), and so is the recording of a
/// switch that is not folded: neither the fold's registers nor the
/// record's give the other a stack frame.
[[gnu::noinline]] void taskSwitchRecord(ThreadState *T, ompt_data_t *PriorTask,
                                        ompt_data_t *NextTask) {
  taskSchedule<true>(T, PriorTask, ompt_task_switch, NextTask);
}

[[gnu::noinline]] void taskSwitchFast(ThreadState *T, ompt_data_t *PriorTask,
                                      ompt_data_t *NextTask) {
  TaskState *Prior = taskOf(PriorTask), *Next = taskOf(NextTask);
  if (Prior && Next) [[likely]]
    if (Event *C = recorder::lastCreateOf(T, Prior->Id, Next->Id)) {
      const std::uint64_t D = recorder::nowFast() - C->Time;
      if (D < recorder::CreateSwitchMaxTicks) [[likely]] {
        C->Extra = std::uint32_t(D) << 1 | CreateSwitchFolded;
        return;
      }
    }
  taskSwitchRecord(T, PriorTask, NextTask);
}

void onTaskSchedule(ompt_data_t *PriorTask, ompt_task_status_t Status,
                    ompt_data_t *NextTask) {
  std::uint32_t Gate;
  ThreadState *T = recorder::fastThread(Gate);
  if (!T) [[unlikely]] {
    // Paused: decided here, without the slow path's call and checks.
    if (Gate & recorder::GatePaused)
      return taskSchedulePaused(PriorTask, Status);
    // A switch from a filtered task (the common one in a filtered extent):
    // not recorded, its shared record never given back.
    if (PriorTask && PriorTask->ptr == &FilteredTask) [[likely]] {
      if ((LastReports >> (unsigned(Status) & 31)) & 1)
        PriorTask->ptr = nullptr;
      return;
    }
    return taskScheduleSlow(PriorTask, Status, NextTask);
  }
  if (Status == ompt_task_switch)
    return taskSwitchFast(T, PriorTask, NextTask);
  taskSchedule<true>(T, PriorTask, Status, NextTask);
}

/// A sync region's begin or end (Wait = false), or its wait's (Wait =
/// true). A wait that begins as its region does (a taskwait, a barrier; not
/// a taskgroup, whose wait is at its end), and a region that ends as its
/// wait does, are the same instant: the second event is folded into the
/// first, flagged SyncWaitFolded (unfoldEvent() gives both back). A wait
/// that ends right after it began (an empty taskwait: on fib, every one) is
/// folded into the region's begin as well, its time as a difference
/// (SyncWaitEndFolded, fast path only: there the clock is the counter), and
/// then the region's end, at the same instant (SyncEndFolded): one buffer
/// slot for the four events.
template <bool Fast, bool Wait>
[[gnu::always_inline]] inline void
syncEvent(ThreadState *T, ompt_sync_region_t Kind,
          ompt_scope_endpoint_t Endpoint, ompt_data_t *ParallelData,
          ompt_data_t *TaskData, const void *Codeptr) {
  TaskState *S = taskOf(TaskData);
  std::uint64_t Code = codeOf<Fast>(Codeptr);
  std::uint64_t A = ParallelData ? ParallelData->value : 0;
  bool Begin = Endpoint == ompt_scope_begin;
  // Refused by the filter stage (general path only): neither recorded nor
  // folded into its pair.
  if (!Fast && filter::engaged() &&
      (filtered(S) ||
       !filter::admit(
           Wait ? (Begin ? EventKind::SyncWaitBegin : EventKind::SyncWaitEnd)
                : (Begin ? EventKind::SyncBegin : EventKind::SyncEnd),
           std::uint16_t(Kind), Code))) [[unlikely]]
    return;
  auto sameRegion = [&](const Event *E) __attribute__((always_inline)) {
    return E->syncKind() == SyncKind(Kind) && E->code() == Code &&
           E->parallel() == A;
  };
  std::uint64_t Time = 0;
  if (Wait == Begin) { // a wait's begin, or a region's end
    if (Event *Prev = recorder::lastEventIf(
            T, Wait ? EventKind::SyncBegin : EventKind::SyncWaitEnd, idOf(S))) {
      if (sameRegion(Prev)) {
        Prev->Kind = Wait ? EventKind::SyncBegin : EventKind::SyncEnd;
        Prev->foldWait();
        return;
      }
      Time = Prev->Time; // not foldable, but no clock read either
    } else if (!Wait) {
      // The region's end right after its wait's, which was folded into the
      // begin: folded there too (its time and Seq are the wait end's).
      if (Event *B = recorder::lastEventIf(T, EventKind::SyncBegin, idOf(S)))
        if ((B->Extra & (SyncWaitEndFolded | SyncEndFolded)) ==
            SyncWaitEndFolded) {
          if (sameRegion(B)) {
            B->Extra |= SyncEndFolded;
            return;
          }
          Time = foldedSyncEnd(*B).Time; // as after its own wait end event
        }
    }
  } else if (Fast && Wait && S) {
    // A wait's end right after its begin, both folded into the region's
    // begin: the end folded there too. It takes the next Seq, as its own
    // event would have.
    if (Event *B = recorder::lastEventIf(T, EventKind::SyncBegin, S->Id))
      if (B->Extra == SyncWaitFolded && sameRegion(B)) {
        const std::uint64_t D = recorder::nowFast() - B->Time;
        if (D < recorder::SyncEndMaxTicks) [[likely]] {
          B->Extra = std::uint32_t(D) << SyncEndShift | SyncWaitEndFolded |
                     SyncWaitFolded;
          ++S->Seq;
          return;
        }
      }
  }
  // A full buffer is flushed first, and the flush recorded as OTTER's time
  // (recorder::flushFull): then the event takes its own clock reading, not
  // one from before the flush.
  const bool Room = T->Count < T->Capacity;
  Event &E = record<Fast>(T, S, [&] {
    const TaskId Id = idOf(S);
    const auto K = SyncKind(Kind);
    return Wait ? (Begin ? Event::syncWaitBegin(0, Id, A, K, Code)
                         : Event::syncWaitEnd(0, Id, A, K, Code))
                : (Begin ? Event::syncBegin(0, Id, A, K, Code)
                         : Event::syncEnd(0, Id, A, K, Code));
  });
  if (Time && Room)
    E.Time = Time;
}

template <bool Wait>
[[gnu::noinline]] void
syncEventGeneral(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                 ompt_data_t *ParallelData, ompt_data_t *TaskData,
                 const void *Codeptr) {
  OTTER_PROLOGUE();
  syncEvent<false, Wait>(T, Kind, Endpoint, ParallelData, TaskData, Codeptr);
}

template <bool Wait>
[[gnu::noinline]] void
syncEventSlow(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
              ompt_data_t *ParallelData, ompt_data_t *TaskData,
              const void *Codeptr) {
  // In a filtered task: nothing to keep.
  if (filtered(taskOf(TaskData))) [[unlikely]]
    return;
  syncEventGeneral<Wait>(Kind, Endpoint, ParallelData, TaskData, Codeptr);
}

template <bool Wait>
void onSync(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
            ompt_data_t *ParallelData, ompt_data_t *TaskData,
            const void *Codeptr) {
  std::uint32_t Gate;
  ThreadState *T = recorder::fastThread(Gate);
  if (!T || codeIsInsideOpenMPRuntime(Codeptr)) [[unlikely]] {
    // Paused, or in a filtered task: nothing to keep (decided here, without
    // the slow path's call).
    if ((Gate & recorder::GatePaused) || filtered(taskOf(TaskData)))
      return;
    return syncEventSlow<Wait>(Kind, Endpoint, ParallelData, TaskData, Codeptr);
  }
  syncEvent<true, Wait>(T, Kind, Endpoint, ParallelData, TaskData, Codeptr);
}

/// A worksharing construct's code address. With the dispatch callback
/// registered, libomp 19 now and then reports a dynamic loop's begin with
/// no address (observed: about 1 run in 500 of test/lit/constructs/
/// determinism.c under load, none in 800 without dispatch; the address it
/// keeps for the construct's callbacks is gone by then). The call into
/// libomp is then found on the stack, as for an address inside libomp: the
/// same call site libomp would have reported.
template <bool Fast>
[[gnu::always_inline]] inline std::uint64_t workCodeOf(const void *Codeptr) {
  if (!Fast && !Codeptr) [[unlikely]]
    return reinterpret_cast<std::uint64_t>(
        detail::walkOutOfOpenMPRuntime(nullptr));
  return codeOf<Fast>(Codeptr);
}

template <bool Fast>
[[gnu::always_inline]] inline void
work(ThreadState *T, ompt_work_t Kind, ompt_scope_endpoint_t Endpoint,
     ompt_data_t *TaskData, uint64_t Count, const void *Codeptr) {
  std::uint64_t Code = workCodeOf<Fast>(Codeptr);
  if (Kind == ompt_work_taskloop) {
    ThreadExt &X = ext(T);
    if (Endpoint == ompt_scope_begin) {
      if (X.TaskloopDepth < ThreadExt::MaxTaskloopDepth)
        X.TaskloopCode[X.TaskloopDepth] = Code;
      ++X.TaskloopDepth;
    } else if (X.TaskloopDepth) {
      --X.TaskloopDepth;
    }
  }
  TaskState *S = taskOf(TaskData);
  record<Fast>(T, S, [&] {
    return Endpoint == ompt_scope_begin
               ? Event::workBegin(0, idOf(S), WorkKind(Kind), Count, Code)
               : Event::workEnd(0, idOf(S), WorkKind(Kind), Count, Code);
  });
}

[[gnu::noinline]] void workSlow(ompt_work_t Kind,
                                ompt_scope_endpoint_t Endpoint,
                                ompt_data_t *TaskData, uint64_t Count,
                                const void *Codeptr) {
  OTTER_PROLOGUE();
  work<false>(T, Kind, Endpoint, TaskData, Count, Codeptr);
}

void onWork(ompt_work_t Kind, ompt_scope_endpoint_t Endpoint, ompt_data_t *,
            ompt_data_t *TaskData, uint64_t Count, const void *Codeptr) {
  ThreadState *T = recorder::fastThread();
  if (!T || !Codeptr || codeIsInsideOpenMPRuntime(Codeptr)) [[unlikely]]
    return workSlow(Kind, Endpoint, TaskData, Count, Codeptr);
  work<true>(T, Kind, Endpoint, TaskData, Count, Codeptr);
}

template <bool Fast>
[[gnu::always_inline]] inline void
masked(ThreadState *T, ompt_scope_endpoint_t Endpoint, ompt_data_t *TaskData,
       const void *Codeptr) {
  TaskState *S = taskOf(TaskData);
  const std::uint64_t Code = codeOf<Fast>(Codeptr);
  record<Fast>(T, S, [&] {
    return Endpoint == ompt_scope_begin ? Event::maskedBegin(0, idOf(S), Code)
                                        : Event::maskedEnd(0, idOf(S), Code);
  });
}

[[gnu::noinline]] void maskedSlow(ompt_scope_endpoint_t Endpoint,
                                  ompt_data_t *TaskData, const void *Codeptr) {
  OTTER_PROLOGUE();
  masked<false>(T, Endpoint, TaskData, Codeptr);
}

void onMasked(ompt_scope_endpoint_t Endpoint, ompt_data_t *,
              ompt_data_t *TaskData, const void *Codeptr) {
  ThreadState *T = recorder::fastThread();
  if (!T || codeIsInsideOpenMPRuntime(Codeptr)) [[unlikely]]
    return maskedSlow(Endpoint, TaskData, Codeptr);
  masked<true>(T, Endpoint, TaskData, Codeptr);
}

constexpr ompt::CallbackSet bits(std::initializer_list<ompt_callbacks_t> L) {
  ompt::CallbackSet S = 0;
  for (ompt_callbacks_t C : L)
    S |= ompt::callbackBit(C);
  return S;
}

/// Every callback below but the threads'.
constexpr ompt::CallbackSet AllButThreads =
    bits({ompt_callback_parallel_begin, ompt_callback_parallel_end,
          ompt_callback_implicit_task, ompt_callback_task_create,
          ompt_callback_task_schedule, ompt_callback_dependences,
          ompt_callback_task_dependence, ompt_callback_sync_region,
          ompt_callback_sync_region_wait, ompt_callback_work,
          ompt_callback_masked, ompt_callback_mutex_acquire,
          ompt_callback_mutex_acquired, ompt_callback_mutex_released,
          ompt_callback_nest_lock, ompt_callback_cancel, ompt_callback_dispatch,
          ompt_callback_flush, ompt_callback_reduction});
constexpr ompt::CallbackSet MutexAll =
    bits({ompt_callback_mutex_acquire, ompt_callback_mutex_acquired,
          ompt_callback_mutex_released, ompt_callback_nest_lock});
constexpr ompt::CallbackSet TaskAll =
    bits({ompt_callback_task_create, ompt_callback_task_schedule,
          ompt_callback_dependences, ompt_callback_task_dependence});

#define OTTER_CB(Name, Fn, Group, Required, Dependents, Loss)                  \
  ompt::CallbackSpec {                                                         \
    ompt_callback_##Name, reinterpret_cast<ompt_callback_t>(Fn), #Name,        \
        EventGroup::Group, Required, ompt::CallbackSet(Dependents), Loss       \
  }

/// The callbacks and what they mean to the adapter (ompt/registration.h):
/// name, function, group, required (the adapter keeps task records and ids
/// with it whatever is filtered), the callbacks that mean nothing without
/// it (unregistered if the runtime refuses it; its own bit is ignored), and
/// what else its refusal costs.
const ompt::CallbackSpec *callbackTable(std::size_t &N) {
  static const ompt::CallbackSpec Table[] = {
      OTTER_CB(thread_begin, onThreadBegin, Threads, true, 0,
               "threads are known from their first event, not their kind "
               "(initial, worker)"),
      OTTER_CB(thread_end, onThreadEnd, Threads, true, 0,
               "a thread's last events reach the sinks at the end of the "
               "run, not when it ends"),
      OTTER_CB(parallel_begin, onParallelBegin, Parallel, true,
               bits({ompt_callback_parallel_end}),
               "parallel regions are not recorded: implicit tasks belong to "
               "no region"),
      OTTER_CB(parallel_end, onParallelEnd, Parallel, true,
               bits({ompt_callback_parallel_begin}),
               "parallel regions are not recorded"),
      OTTER_CB(implicit_task, onImplicitTask, Parallel, true, AllButThreads,
               "no event can be given to a task (the initial and implicit "
               "tasks come from it)"),
      OTTER_CB(task_create, onTaskCreate, Tasks, true, TaskAll,
               "explicit tasks are not recorded"),
      OTTER_CB(task_schedule, onTaskSchedule, Tasks, true, TaskAll,
               "explicit tasks are not recorded (their records could never "
               "be freed)"),
      OTTER_CB(dependences, onDependences, Dependences, false,
               bits({ompt_callback_task_dependence}), ""),
      OTTER_CB(task_dependence, onTaskDependence, Dependences, false, 0, ""),
      OTTER_CB(sync_region, onSync<false>, Sync, false,
               bits({ompt_callback_sync_region_wait}), ""),
      OTTER_CB(sync_region_wait, onSync<true>, Sync, false, 0, ""),
      OTTER_CB(work, onWork, Worksharing, false, 0, ""),
      OTTER_CB(masked, onMasked, Masked, false, 0, ""),
      OTTER_CB(mutex_acquire, onMutexAcquire, Mutex, false, MutexAll, ""),
      OTTER_CB(mutex_acquired, onMutexAcquired, Mutex, false, MutexAll, ""),
      OTTER_CB(mutex_released, onMutexReleased, Mutex, false, MutexAll, ""),
      OTTER_CB(nest_lock, onNestLock, Mutex, false, 0, ""),
      OTTER_CB(cancel, onCancel, Cancel, false, 0, ""),
      OTTER_CB(dispatch, onDispatch, Worksharing, false, 0, ""),
      OTTER_CB(flush, onFlush, Sync, false, 0, ""),
      // A reduction is a sync region of kind reduction (OMPT's own
      // signature): libomp 19 reports one when it combines with a critical
      // section, a tree, or alone (a team of one), not for atomic updates.
      OTTER_CB(reduction, onSync<false>, Sync, false, 0, ""),
      OTTER_CB(control_tool, onControlTool, Control, true, 0,
               "omp_control_tool is ignored: recording cannot be paused, "
               "flushed or ended by the program, nor annotated"),
  };
  N = std::size(Table);
  return Table;
}

int initialize(ompt_function_lookup_t Lookup, int, ompt_data_t *) {
  auto SetCallback =
      reinterpret_cast<ompt_set_callback_t>(Lookup("ompt_set_callback"));
  GetTaskInfo =
      reinterpret_cast<ompt_get_task_info_t>(Lookup("ompt_get_task_info"));
  if (!SetCallback) {
    std::fputs("otter: error: the OpenMP runtime offers no ompt_set_callback; "
               "not tracing\n",
               stderr);
    return 0;
  }
  if (!session::start())
    return 0; // session printed why; the program runs untraced
  std::size_t N = 0;
  const ompt::CallbackSpec *Table = callbackTable(N);
  // The groups the filter stage drops entirely need no callback, where the
  // adapter does not need it either.
  ompt::Registration R = ompt::registerCallbacks(
      std::span(Table, N),
      [SetCallback](ompt_callbacks_t C, ompt_callback_t F) {
        return int(SetCallback(C, F));
      },
      filter::rules().Groups);
  session::noteCallbacks(R.report(), R.Warnings);
  recorder::Active.store(true, std::memory_order_release);
  // OTTER's own cost per event, for the analyses (ompt/calibrate.h): before
  // any thread records, on this one.
  recorder::setRecordingCostNs(
      ompt::measureRecordingCostNs(std::span(Table, N)));
  // The initial thread's thread_begin may already have happened before
  // initialize returned: make sure it is registered.
  recorder::registerThread(std::uint32_t(ompt_thread_initial));
  return 1; // keep the tool active
}

void finalize(ompt_data_t *) { session::runtimeFinalized(); }

} // namespace

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int, const char *RuntimeVersion) {
  static ompt_start_tool_result_t Result = {&initialize, &finalize, {0}};
  session::noteRuntime(RuntimeVersion);
  return &Result;
}
