//===- ompt/callbacks_other.cpp - The OMPT callbacks off the task path ---===//
//
// The callbacks a program calls far less often than it creates and runs
// tasks: locks and critical sections (mutex acquire, acquired, released,
// nest lock), cancellation, dispatch (loop chunks, sections), flush, and
// omp_control_tool, through which the program pauses, starts, flushes or
// ends recording and annotates its phases, tasks and marks (otter/otter.h).
// Each turns the runtime's arguments into an event of the calling thread
// (ompt/adapter.h); their rows of the callback table are at the end
// (otherCallbacks(): a new callback is its function and its row here), and
// ompt/tool.cpp registers them.
//
//===----------------------------------------------------------------------===//
#include "core/names.h"
#include "core/session.h"
#include "ompt/adapter.h"
#include "ompt/tool.h"

#include <atomic>
#include <cstdio>

using namespace otter;

namespace otter::ompt::adapter {

ompt_get_task_info_t GetTaskInfo = nullptr;

/// The task executing on this thread now (mutex callbacks carry none).
TaskState *currentTask() {
  if (!GetTaskInfo)
    return nullptr;
  ompt_data_t *TaskData = nullptr;
  int Flags = 0;
  if (GetTaskInfo(0, &Flags, &TaskData, nullptr, nullptr, nullptr) != 2 ||
      !TaskData)
    return nullptr;
  return taskOf(TaskData);
}

namespace {

/// The mutex kinds' constructors (they have the same fields).
using MutexCtor = Event (*)(std::uint64_t, TaskId, MutexKind, std::uint64_t,
                            std::uint64_t);

void mutexEvent(MutexCtor Make, ompt_mutex_t Kind, ompt_wait_id_t WaitId,
                const void *Codeptr) {
  OTTER_PROLOGUE();
  TaskState *S = currentTask();
  record(T, S, [&] {
    return Make(0, idOf(S), MutexKind(Kind), WaitId, code(Codeptr));
  });
}

void onMutexAcquire(ompt_mutex_t Kind, unsigned int, unsigned int,
                    ompt_wait_id_t WaitId, const void *Codeptr) {
  mutexEvent(&Event::mutexAcquire, Kind, WaitId, Codeptr);
}
void onMutexAcquired(ompt_mutex_t Kind, ompt_wait_id_t WaitId,
                     const void *Codeptr) {
  mutexEvent(&Event::mutexAcquired, Kind, WaitId, Codeptr);
}
void onMutexReleased(ompt_mutex_t Kind, ompt_wait_id_t WaitId,
                     const void *Codeptr) {
  mutexEvent(&Event::mutexReleased, Kind, WaitId, Codeptr);
}
void onNestLock(ompt_scope_endpoint_t Endpoint, ompt_wait_id_t WaitId,
                const void *Codeptr) {
  mutexEvent(Endpoint == ompt_scope_begin ? &Event::nestLockBegin
                                          : &Event::nestLockEnd,
             ompt_mutex_nest_lock, WaitId, Codeptr);
}

void onCancel(ompt_data_t *TaskData, int Flags, const void *Codeptr) {
  OTTER_PROLOGUE();
  TaskState *S = taskOf(TaskData);
  record(T, S, [&] {
    return Event::cancel(0, idOf(S), std::uint32_t(Flags), code(Codeptr));
  });
}

/// A loop chunk, taskloop chunk, distribute chunk, section or iteration
/// handed to the task (what libomp 19 reports: the notes at the top).
void onDispatch(ompt_data_t *, ompt_data_t *TaskData, ompt_dispatch_t Kind,
                ompt_data_t Instance) {
  OTTER_PROLOGUE();
  TaskState *S = taskOf(TaskData);
  std::uint64_t Start = 0, Iterations = 0, Code = 0;
  switch (Kind) {
  case ompt_dispatch_ws_loop_chunk:
  case ompt_dispatch_taskloop_chunk:
  case ompt_dispatch_distribute_chunk:
    if (const auto *C =
            static_cast<const ompt_dispatch_chunk_t *>(Instance.ptr)) {
      Start = C->start;
      Iterations = C->iterations;
    }
    break;
  case ompt_dispatch_iteration:
    Start = Instance.value;
    Iterations = 1;
    break;
  case ompt_dispatch_section:
    Code = code(Instance.ptr);
    break;
  }
  record(T, S, [&] {
    return Event::dispatch(0, idOf(S), DispatchKind(Kind), Start, Iterations,
                           Code);
  });
}

/// A flush construct (OMPT names the thread, not the task).
void onFlush(ompt_data_t *, const void *Codeptr) {
  OTTER_PROLOGUE();
  TaskState *S = currentTask();
  record(T, S, [&] { return Event::flush(0, idOf(S), code(Codeptr)); });
}

/// The program's annotations (otter/otter.h: omp_control_tool commands 64
/// and up). The name is copied (interned); the events follow recording's
/// pause like any other. Returns 0, or 1 for a command OTTER does not know.
int annotate(ThreadState *T, TaskState *S, std::uint64_t Command,
             const char *Name, const void *Codeptr) {
  const TaskId Task = idOf(S);
  switch (Command) {
  case 64: { // OTTER_CONTROL_PHASE_BEGIN
    std::uint16_t N = names::intern(Name);
    names::pushPhase(Task, N);
    record(T, S, [&] { return Event::phaseBegin(0, Task, N, code(Codeptr)); });
    return 0;
  }
  case 65: { // OTTER_CONTROL_PHASE_END
    std::uint16_t N = 0;
    if (!names::popPhase(Task, N)) {
      static std::atomic<bool> Warned{false};
      if (!Warned.exchange(true))
        std::fputs("otter: warning: otter_phase_end() with no phase begun "
                   "in the same task: ignored (said once)\n",
                   stderr);
      return 1;
    }
    record(T, S, [&] { return Event::phaseEnd(0, Task, N, code(Codeptr)); });
    return 0;
  }
  case 66: { // OTTER_CONTROL_TASK_LABEL
    std::uint16_t N = names::intern(Name);
    record(T, S, [&] { return Event::taskLabel(0, Task, N); });
    return 0;
  }
  case 67: { // OTTER_CONTROL_MARK
    std::uint16_t N = names::intern(Name);
    record(T, S, [&] { return Event::mark(0, Task, N, code(Codeptr)); });
    return 0;
  }
  default:
    return 1;
  }
}

/// omp_control_tool (OpenMP 5.2, 3.14): the program pauses or starts
/// recording again, flushes the buffers to disk, or ends tracing. A pause
/// is recorded before the gap and a start after it (the graph's pause and
/// resume nodes, docs/graph.md); paused, the callbacks refuse every event
/// but a thread's begin and end before making it (record()). Returns
/// omp_control_tool_success (0), or omp_control_tool_ignored (1) for a
/// command OTTER does not know or one with nothing to do.
int onControlTool(uint64_t Command, uint64_t, void *Arg, const void *Codeptr) {
  if (!recorder::Active.load(std::memory_order_relaxed))
    return 1; // not recording (ended, or not started)
  ThreadState *T = recorder::thisThread();
  if (!T)
    return 1;
  TaskState *S = currentTask();
  auto note = [&](ControlCommand C) {
    record(T, S,
           [&] { return Event::toolControl(0, idOf(S), C, code(Codeptr)); });
  };
  switch (Command) {
  case std::uint64_t(ControlCommand::Pause):
    if (filter::paused())
      return 1;
    note(ControlCommand::Pause);
    filter::setPaused(true);
    return 0;
  case std::uint64_t(ControlCommand::Start):
    if (!filter::paused())
      return 1;
    filter::setPaused(false);
    note(ControlCommand::Start);
    return 0;
  case std::uint64_t(ControlCommand::Flush):
    note(ControlCommand::Flush);
    session::flushNow();
    return 0;
  case std::uint64_t(ControlCommand::End):
    note(ControlCommand::End);
    session::endNow();
    return 0;
  default:
    return annotate(T, S, Command, static_cast<const char *>(Arg), Codeptr);
  }
}

constexpr CallbackSet MutexAll =
    callbackBits({ompt_callback_mutex_acquire, ompt_callback_mutex_acquired,
                  ompt_callback_mutex_released, ompt_callback_nest_lock});

} // namespace

std::span<const CallbackSpec> otherCallbacks() {
  static const CallbackSpec Rows[] = {
      OTTER_CALLBACK(mutex_acquire, onMutexAcquire, Mutex, false, MutexAll, ""),
      OTTER_CALLBACK(mutex_acquired, onMutexAcquired, Mutex, false, MutexAll,
                     ""),
      OTTER_CALLBACK(mutex_released, onMutexReleased, Mutex, false, MutexAll,
                     ""),
      OTTER_CALLBACK(nest_lock, onNestLock, Mutex, false, 0, ""),
      OTTER_CALLBACK(cancel, onCancel, Cancel, false, 0, ""),
      OTTER_CALLBACK(dispatch, onDispatch, Worksharing, false, 0, ""),
      OTTER_CALLBACK(flush, onFlush, Sync, false, 0, ""),
      OTTER_CALLBACK(control_tool, onControlTool, Control, true, 0,
                     "omp_control_tool is ignored: recording cannot be "
                     "paused, flushed or ended by the program, nor "
                     "annotated"),
  };
  return Rows;
}

} // namespace otter::ompt::adapter

otter::TaskState *otter::ompt::currentTaskOfThread() {
  return adapter::currentTask();
}
