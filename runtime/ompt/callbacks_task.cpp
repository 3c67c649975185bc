//===- ompt/callbacks_task.cpp - The OMPT callbacks of explicit tasks -----===//
//
// The task path, the callbacks a task-parallel program calls most: a task's
// creation (task_create), every switch between tasks and every task's end
// (task_schedule), and its dependences (dependences, task_dependence). Each
// frequent one is a struct for ompt/adapter.h's Callback: one body for the
// common case and the general path. Here too live the records that stand
// for every filtered task and every gap task (created while paused), and
// their cheap exits while filtering or paused (docs/filter.md). Their rows
// of the callback table are at the end (taskCallbacks()); ompt/tool.cpp
// registers them.
//
//===----------------------------------------------------------------------===//
#include "core/filter.h"
#include "core/recorder.h"
#include "ompt/adapter.h"

#include <omp-tools.h>

#include <algorithm>
#include <cstdint>

using namespace otter;

namespace otter::ompt::adapter {

namespace {

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

struct TaskCreate {
  using Sig = ompt_callback_task_create_t;

  static bool fastCase(ThreadState *T, ompt_data_t *, const ompt_frame_t *,
                       ompt_data_t *, int, int, const void *Codeptr) {
    return outsideRuntime(Codeptr) && T->FreeTasks;
  }

  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_data_t *EncounteringTask, const ompt_frame_t *,
       ompt_data_t *NewTaskData, int Flags, int HasDependences,
       const void *Codeptr) {
    // A taskloop's tasks: libomp reports a code address inside itself. A
    // big taskloop is split: libomp creates task-generating tasks (from
    // inside itself), and each creates part of the loop's tasks, on
    // whichever thread runs it, reporting the taskloop's encountering task
    // as their creator. Those creations belong to the generating task that
    // runs them: it is the one executing on this thread (so the
    // encountering task's own sequence is only ever advanced by the thread
    // running it), and it carries the taskloop's code. Otherwise the
    // taskloop's user address was found once, at its work(begin) on this
    // thread.
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
      Code = X.TaskloopCode[std::min(X.TaskloopDepth,
                                     ThreadExt::MaxTaskloopDepth) -
                            1];
    else
      Code = code(Codeptr);
    if constexpr (!Fast) {
      // Created by a gap task (a taskloop's generating task, created while
      // paused): a gap task.
      if (Encountering == &PausedTask || Generator == &PausedTask)
          [[unlikely]] {
        NewTaskData->ptr = &PausedTask;
        return filter::gapChildCreated();
      }
      // Filtered by the rules (not a pause): created inside a filtered
      // task, or refused itself. Sub 0: a creation's
      // (otter/event_kinds.def).
      if (filter::engaged() && !filter::paused() &&
          (filtered(Encountering) ||
           !filter::admit(EventKind::TaskCreate, 0, Code))) [[unlikely]] {
        NewTaskData->ptr = &FilteredTask;
        return;
      }
    }
    TaskState *S = newTaskRecord<Fast>(T);
    if (!S)
      return;
    // Included (otter/events.h): an undeferred task that its creating
    // thread executes at once, before its creator goes on. libomp 19
    // reports as undeferred only tasks it runs so -- if(0), a final task's
    // descendants, any task of a team of one thread -- so the flag follows
    // from it; test/lit/constructs/included.c checks it against the
    // schedule order.
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

  [[gnu::always_inline]] static void
  slow(std::uint32_t, ompt_data_t *EncounteringTask, const ompt_frame_t *Frame,
       ompt_data_t *NewTaskData, int Flags, int HasDependences,
       const void *Codeptr);
};

// The slow branches below first drop what a filtered task does (the cost
// of a filtered construct, docs/filter.md; filtered tasks exist only while
// filter rules are installed), then tail-call the general path: apart, so
// that the early exit does not pay for the general path's stack frame.
// So do a paused recording's (omp_control_tool): a paused callback then
// costs a few instructions (bench/run.py callgrind measures it).
/// Created while paused: a gap task (core/filter.h), with no record, id
/// or event (docs/trace.md, "Tool control"); unless recording started
/// meanwhile. (Same arguments as the callback, and noipa keeps them so:
/// no moves before the tail calls.)
[[gnu::noipa]] void taskCreatePaused(ompt_data_t *EncounteringTask,
                                     const ompt_frame_t *Frame,
                                     ompt_data_t *NewTaskData, int Flags,
                                     int HasDependences, const void *Codeptr) {
  if (filter::gapTaskCreated()) [[likely]] {
    NewTaskData->ptr = &PausedTask;
    return;
  }
  Callback<TaskCreate>::general(EncounteringTask, Frame, NewTaskData, Flags,
                                HasDependences, Codeptr);
}

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
  Callback<TaskCreate>::general(EncounteringTask, Frame, NewTaskData, Flags,
                                HasDependences, Codeptr);
}

inline void TaskCreate::slow(std::uint32_t, ompt_data_t *EncounteringTask,
                             const ompt_frame_t *Frame,
                             ompt_data_t *NewTaskData, int Flags,
                             int HasDependences, const void *Codeptr) {
  taskCreateSlow(EncounteringTask, Frame, NewTaskData, Flags, HasDependences,
                 Codeptr);
}

/// A task's last report: complete, cancelled, or -- a task with a detach
/// clause whose event is fulfilled after its body ended (ompt_task_detach
/// before) -- late_fulfill. Its record goes back to this thread's free
/// list: libomp names the task in no callback after it (its dependence
/// node forgets it as it completes), and its task_data is cleared anyway.
constexpr unsigned LastReports = (1u << ompt_task_complete) |
                                 (1u << ompt_task_cancel) |
                                 (1u << ompt_task_late_fulfill);
inline bool lastReport(ompt_task_status_t Status) {
  return (LastReports >> (unsigned(Status) & 31)) & 1;
}

/// A switch or a task's end, recorded (the task schedule's body but for the
/// fast path's fold of a switch into a creation, taskSwitchFast).
template <bool Fast>
[[gnu::always_inline]] inline void
scheduleRecord(ThreadState *T, ompt_data_t *PriorTask,
               ompt_task_status_t Status, ompt_data_t *NextTask) {
  TaskState *Prior = taskOf(PriorTask), *Next = taskOf(NextTask);
  // A switch to or from a filtered task is not recorded; the filtered
  // tasks' shared record is never given back.
  if (!Fast && (filtered(Prior) || filtered(Next))) [[unlikely]] {
    if (Prior && lastReport(Status)) {
      PriorTask->ptr = nullptr;
      if (Prior == &PausedTask) // not seen here (TaskSchedule::slow)
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
  if (Prior && lastReport(Status)) {
    PriorTask->ptr = nullptr;
    recorder::freeTask(T, Prior);
  }
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
  scheduleRecord<true>(T, PriorTask, ompt_task_switch, NextTask);
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

struct TaskSchedule {
  using Sig = ompt_callback_task_schedule_t;

  static bool fastCase(ThreadState *, ompt_data_t *, ompt_task_status_t,
                       ompt_data_t *) {
    return true;
  }

  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_data_t *PriorTask, ompt_task_status_t Status,
       ompt_data_t *NextTask) {
    if (Fast && Status == ompt_task_switch)
      return taskSwitchFast(T, PriorTask, NextTask);
    scheduleRecord<Fast>(T, PriorTask, Status, NextTask);
  }

  [[gnu::always_inline]] static void slow(std::uint32_t Gate,
                                          ompt_data_t *PriorTask,
                                          ompt_task_status_t Status,
                                          ompt_data_t *NextTask);
};

/// Paused (omp_control_tool): only a finished task's record goes back (the
/// filtered and gap tasks' shared records never do; a gap task is counted
/// done). A switch costs two tests.
[[gnu::always_inline]] inline void
taskSchedulePaused(ompt_data_t *PriorTask, ompt_task_status_t Status) {
  if (!lastReport(Status))
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

[[gnu::noinline]] void taskScheduleSlow(ompt_data_t *PriorTask,
                                        ompt_task_status_t Status,
                                        ompt_data_t *NextTask) {
  // A switch from a gap task (TaskSchedule::slow decided the filtered
  // tasks'): not recorded; the shared record is never given back, the task
  // is counted done.
  if (taskOf(PriorTask) == &PausedTask) [[unlikely]] {
    if (lastReport(Status)) {
      PriorTask->ptr = nullptr;
      filter::gapTaskDone();
    }
    return;
  }
  Callback<TaskSchedule>::general(PriorTask, Status, NextTask);
}

inline void TaskSchedule::slow(std::uint32_t Gate, ompt_data_t *PriorTask,
                               ompt_task_status_t Status,
                               ompt_data_t *NextTask) {
  // Paused: decided here, without the slow path's call and checks.
  if (Gate & recorder::GatePaused)
    return taskSchedulePaused(PriorTask, Status);
  // A switch from a filtered task (the common one in a filtered extent):
  // not recorded, its shared record never given back.
  if (PriorTask && PriorTask->ptr == &FilteredTask) [[likely]] {
    if (lastReport(Status))
      PriorTask->ptr = nullptr;
    return;
  }
  return taskScheduleSlow(PriorTask, Status, NextTask);
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

constexpr CallbackSet TaskAll =
    callbackBits({ompt_callback_task_create, ompt_callback_task_schedule,
                  ompt_callback_dependences, ompt_callback_task_dependence});

} // namespace

std::span<const CallbackSpec> taskCallbacks() {
  static const CallbackSpec Rows[] = {
      OTTER_CALLBACK(task_create, Callback<TaskCreate>::entry, Tasks, true,
                     TaskAll, "explicit tasks are not recorded"),
      OTTER_CALLBACK(task_schedule, Callback<TaskSchedule>::entry, Tasks, true,
                     TaskAll,
                     "explicit tasks are not recorded (their records could "
                     "never be freed)"),
      OTTER_CALLBACK(dependences, onDependences, Dependences, false,
                     callbackBits({ompt_callback_task_dependence}), ""),
      OTTER_CALLBACK(task_dependence, onTaskDependence, Dependences, false, 0,
                     ""),
  };
  return Rows;
}

} // namespace otter::ompt::adapter
