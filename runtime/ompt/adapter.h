//===- ompt/adapter.h - What the OMPT callback files share -----*- C++ -*-===//
//
// The OMPT adapter's callbacks live in three files: ompt/tool.cpp (the
// entry point, the registration table, threads, and the frequent callbacks
// off the task path: parallel regions, implicit tasks, synchronisation,
// worksharing, masked), ompt/callbacks_task.cpp (explicit tasks: create,
// schedule, dependences) and ompt/callbacks_other.cpp (locks, cancellation,
// dispatch, flush, and omp_control_tool: tool control and the program's
// annotations). This header holds what they share: how a callback finds
// its task and code address, the adapter's per-thread state (ThreadExt),
// record(), which turns a callback into an event in the calling thread's
// buffer, and Callback, which makes a frequent callback's fast and general
// paths from its one body. Everything here is inline: the frequent
// callbacks' common case must stay free of calls.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_OMPT_ADAPTER_H
#define OTTER_OMPT_ADAPTER_H

#include "core/filter.h"
#include "core/recorder.h"
#include "ompt/registration.h"
#include "sites/site_index.h"

#include <omp-tools.h>

#include <cstdint>
#include <span>

namespace otter::ompt::adapter {

/// ompt_get_task_info, looked up when the tool is initialized.
extern ompt_get_task_info_t GetTaskInfo;

inline TaskState *taskOf(ompt_data_t *D) {
  return D ? static_cast<TaskState *>(D->ptr) : nullptr;
}

/// The task executing on this thread now (or null): asks the runtime.
TaskState *currentTask();

inline std::uint64_t code(const void *Codeptr) {
  return reinterpret_cast<std::uint64_t>(userCodeAddress(Codeptr));
}

/// The code address to record: as reported when the gate has checked it is
/// outside libomp, else moved out of libomp (stack walk) where needed.
/// A task record with a fresh id and sequence: on the fast path from the
/// thread's free list (the callback's fast case checked it is not empty),
/// else made if need be; null if memory ran out.
template <bool Fast>
[[gnu::always_inline]] inline TaskState *newTaskRecord(ThreadState *T) {
  TaskState *S;
  if (Fast) {
    S = T->FreeTasks;
    T->FreeTasks = S->NextFree;
  } else if (!(S = recorder::allocTask(T))) {
    return nullptr;
  }
  S->Id = recorder::newId(T);
  S->Seq = 0;
  return S;
}

template <bool Fast>
[[gnu::always_inline]] inline std::uint64_t codeOf(const void *Codeptr) {
  return Fast ? reinterpret_cast<std::uint64_t>(Codeptr) : code(Codeptr);
}

inline TaskId idOf(const TaskState *S) { return S ? S->Id : 0; }

/// The adapter's own per-thread state, in the recorder's ThreadState
/// (AdapterArea: zeroed at registration, no allocation).
struct ThreadExt {
  /// User code addresses of the taskloops this thread is creating tasks
  /// for (libomp reports the tasks' codeptr_ra inside itself: the stack
  /// walk to the user's call site is done once per taskloop, not once per
  /// task).
  static constexpr unsigned MaxTaskloopDepth = 8;
  unsigned TaskloopDepth;
  std::uint64_t TaskloopCode[MaxTaskloopDepth];
};
[[gnu::always_inline]] inline ThreadExt &ext(ThreadState *T) {
  return adapterArea<ThreadExt>(T);
}

/// A filtered task (core/filter.h): its creation, or its parallel region's
/// begin, was refused by the filter rules (not by a pause). Every event in
/// it is refused too, and so are the tasks it creates: the graph has no
/// node to hang them on (docs/filter.md). OTTER's own task flag, never
/// recorded (a filtered task records nothing); set on general paths only,
/// as the filter stage closes the fast path.
constexpr std::uint32_t TaskFiltered = 0x00000400;
static_assert((TaskFiltered &
               (TaskHasDependences | TaskIncluded | ompt_task_initial |
                ompt_task_implicit | ompt_task_explicit | ompt_task_target |
                ompt_task_taskwait | ompt_task_undeferred | ompt_task_untied |
                ompt_task_final | ompt_task_mergeable | ompt_task_merged)) ==
              0);
inline bool filtered(const TaskState *S) {
  return S && (S->Flags & TaskFiltered);
}
/// Whether a refusal (record() gave the discard slot) filters what the
/// event opens: refused by the rules, not by a pause.
inline bool refusedByRules(ThreadState *T, const Event &E) {
  return &E == &T->Discard && filter::engaged() && !filter::paused();
}

/// Records the event Make() returns (made by its kind's constructor in
/// otter/event_kinds.def, at time 0; called once the buffer has room, as
/// the original stores were) as the next event in task S's own sequence (S
/// null: no task),
/// at the thread's clock. Fast: after recorder::fastThread() (no flush, no
/// clock call). Aside: not part of S's sequence (a schedule event or the
/// runtime's dependence report: when they happen is timing, not program).
///
/// The filter stage (core/filter.h) decides here, on the general path only:
/// the fast path runs only while nothing is filtered (the stage closes the
/// gate when engaged). A refused event goes to the thread's discard slot:
/// the caller's own state (task records, ids) stays as if recorded.
/// While recording is paused (omp_control_tool) the event is not even made:
/// two loads. Unless Pausable is false: a thread's begin and end (they name
/// its location) and the initial task's (the graph's root) are recorded
/// all the same, paused or not.
template <bool Fast = false, bool Aside = false, bool Pausable = true,
          class MakeFn>
[[gnu::always_inline]] inline Event &record(ThreadState *T, TaskState *S,
                                            MakeFn &&Make) {
  if constexpr (!Fast) {
    if (filter::engaged()) [[unlikely]] {
      const bool Paused = filter::pausedNow();
      if (Pausable && Paused)
        return T->Discard;
      const Event Ev = Make();
      if (filtered(S) || (!Paused && !filter::admit(Ev.Kind, Ev.Sub, Ev.Code)))
        return T->Discard;
      Event &E = recorder::append(T);
      std::uint64_t Time = E.Time;
      E = Ev;
      E.Time = Time;
      E.Seq = S ? (Aside ? S->Seq : S->Seq++) : 0;
      return E;
    }
  }
  Event &E = Fast ? recorder::appendFast(T) : recorder::append(T);
  const Event Ev = Make();
  // Field by field (E.Time is the clock's): each store folds to a constant
  // or a register, where a whole-struct copy would go through the stack.
  E.Kind = Ev.Kind;
  E.Task = Ev.Task;
  E.Seq = S ? (Aside ? S->Seq : S->Seq++) : 0;
  E.A = Ev.A;
  E.Code = Ev.Code;
  E.Aux = Ev.Aux;
  E.Sub = Ev.Sub;
  E.Extra = Ev.Extra;
  return E;
}

/// The start of a rare callback: no event unless recording is on and the
/// thread is known (declares T).
#define OTTER_PROLOGUE()                                                       \
  if (!recorder::Active.load(std::memory_order_relaxed)) [[unlikely]]          \
    return;                                                                    \
  ThreadState *T = recorder::thisThread();                                     \
  if (!T) [[unlikely]]                                                         \
    return;

/// The frequent callbacks: one body for the common case and the general
/// path, and the rule that chooses between them written here once. The
/// common case: recorder::fastThread() gives the thread (recording on, room
/// in its buffer, the TSC as clock) and the callback's own needs hold
/// (outsideRuntime(): its code address lies outside libomp, no stack walk;
/// a task record on the free list where it takes one). Then its body runs
/// with Fast = true, inlined into the callback: no call and no stack frame
/// (no callee-saved registers to save and restore). Anything else takes the
/// slow branch: a tail call, with the callback's own arguments (no moves),
/// of the general path -- the same body with Fast = false behind a noipa
/// function, after OTTER_PROLOGUE's checks.
///
/// CB, one per callback, gives (Args: the OMPT callback's own arguments):
///   using Sig = ompt_callback_..._t;  // its OMPT signature
///   template <bool Fast> static void body(ThreadState *T, Args...);
///   static bool fastCase(ThreadState *T, Args...);  // its own needs
/// and, if it has them:
///   static void beforeGeneral(Args...); // first thing on the general path
///   static void slow(std::uint32_t Gate, Args...); // the slow branch, when
///     it decides cheap cases itself (paused, filtered: Gate is the gate's
///     word as fastThread read it) before Callback<CB>::general.
template <class CB, class Sig = typename CB::Sig> struct Callback;
template <class CB, class... Args> struct Callback<CB, void (*)(Args...)> {
  /// noipa: keeps the callback's own arguments, so that every jump here
  /// (the entry's, a slow branch's) moves no register.
  [[gnu::noipa]] static void general(Args... A) {
    if constexpr (requires { CB::beforeGeneral(A...); })
      CB::beforeGeneral(A...);
    OTTER_PROLOGUE();
    CB::template body<false>(T, A...);
  }
  /// What is registered with the runtime.
  [[gnu::always_inline]] static void entry(Args... A) {
    std::uint32_t Gate;
    ThreadState *T = recorder::fastThread(Gate);
    if (!T || !CB::fastCase(T, A...)) [[unlikely]] {
      if constexpr (requires { CB::slow(Gate, A...); })
        return CB::slow(Gate, A...);
      else
        return general(A...);
    }
    CB::template body<true>(T, A...);
  }
};

/// A common case's code address: outside libomp (no stack walk).
[[gnu::always_inline]] inline bool outsideRuntime(const void *Codeptr) {
  return !codeIsInsideOpenMPRuntime(Codeptr);
}

// The rows of the callback table (ompt/registration.h) of the callbacks
// defined in ompt/callbacks_task.cpp, ompt/callbacks_other.cpp and
// ompt/callbacks_target.cpp: ompt/tool.cpp registers them with its own.
std::span<const CallbackSpec> taskCallbacks();
std::span<const CallbackSpec> otherCallbacks();
std::span<const CallbackSpec> targetCallbacks();

} // namespace otter::ompt::adapter

#endif // OTTER_OMPT_ADAPTER_H
