//===- ompt/tool.cpp - OMPT entry point and callbacks ---------------------===//
//
// The thin adapter between libomp and OTTER: ompt_start_tool, registration
// of callbacks, and one small function per callback that turns the runtime's
// arguments into an otter::Event appended to the calling thread's buffer.
// This file holds the threads' callbacks and the frequent callbacks off
// the task path (parallel regions, implicit tasks, synchronisation,
// worksharing, masked); ompt/callbacks_task.cpp the explicit tasks' (create,
// schedule, dependences); ompt/callbacks_other.cpp the rest (locks, cancel,
// dispatch, flush, tool control); ompt/adapter.h what they share (record(),
// and Callback: one body per frequent callback for its fast and general
// paths).
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
#include "ompt/sampler.h"

#include <omp-tools.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <span>
#include <vector>

using namespace otter;
using namespace otter::ompt::adapter;

namespace {

/// A parallel region the filter refused: a bit of its id (ids never reach
/// it, otter/events.h), which its implicit tasks see (a filtered task:
/// ompt/adapter.h, TaskFiltered).
constexpr std::uint64_t ParallelFiltered = std::uint64_t(1) << 63;

void onThreadBegin(ompt_thread_t Type, ompt_data_t *ThreadData) {
  if (!recorder::Active.load(std::memory_order_relaxed))
    return;
  ThreadState *T = recorder::registerThread(std::uint32_t(Type));
  if (!T)
    return;
  ThreadData->ptr = T;
  ompt::sampler::threadBegin(T->Index);
  record<false, false, false>(
      T, nullptr, [&] { return Event::threadBegin(0, ThreadType(Type)); });
  recorder::recordThreadCpu(T);
}

void onThreadEnd(ompt_data_t *) {
  // Before anything else: a thread never leaves with its timer running.
  ompt::sampler::threadEnd();
  OTTER_PROLOGUE();
  recorder::recordThreadCpu(T);
  record<false, false, false>(T, nullptr, [&] { return Event::threadEnd(0); });
  T->Ended = true;
  recorder::flush(T); // the thread is leaving: off the hot path
}

// The frequent callbacks below: each a struct for ompt/adapter.h's
// Callback, one body for the common case and the general path.

struct ParallelBegin {
  using Sig = ompt_callback_parallel_begin_t;
  static bool fastCase(ThreadState *, ompt_data_t *, const ompt_frame_t *,
                       ompt_data_t *, unsigned int, int, const void *Codeptr) {
    return outsideRuntime(Codeptr);
  }
  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_data_t *EncounteringTask, const ompt_frame_t *,
       ompt_data_t *ParallelData, unsigned int Requested, int Flags,
       const void *Codeptr) {
    std::uint64_t Id = recorder::newId(T);
    ParallelData->value = Id;
    const std::uint64_t Code = codeOf<Fast>(Codeptr);
    ompt::sampler::noteRegion(Id, Code);
    TaskState *S = taskOf(EncounteringTask);
    Event &E = record<Fast>(T, S, [&] {
      return Event::parallelBegin(0, idOf(S), Id, Requested,
                                  (Flags & ompt_parallel_league) ? 1 : 0,
                                  Code);
    });
    if constexpr (!Fast)
      if (refusedByRules(T, E)) [[unlikely]]
        ParallelData->value |= ParallelFiltered;
  }
};

struct ParallelEnd {
  using Sig = ompt_callback_parallel_end_t;
  static bool fastCase(ThreadState *, ompt_data_t *, ompt_data_t *, int,
                       const void *Codeptr) {
    return outsideRuntime(Codeptr);
  }
  static void beforeGeneral(ompt_data_t *, ompt_data_t *, int, const void *) {
    filter::gapCheck(); // a gap task's completion may have raced a start
  }
  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_data_t *ParallelData, ompt_data_t *EncounteringTask,
       int, const void *Codeptr) {
    TaskState *S = taskOf(EncounteringTask);
    if (!Fast && ParallelData && (ParallelData->value & ParallelFiltered))
      return;
    record<Fast>(T, S, [&] {
      return Event::parallelEnd(0, idOf(S),
                                ParallelData ? ParallelData->value : 0,
                                codeOf<Fast>(Codeptr));
    });
  }
};

struct ImplicitTask {
  using Sig = ompt_callback_implicit_task_t;
  // The initial task's begin and end take the general path (recorded
  // paused or not; its end samples the thread's CPU use).
  static bool fastCase(ThreadState *T, ompt_scope_endpoint_t Endpoint,
                       ompt_data_t *, ompt_data_t *, unsigned int, unsigned int,
                       int Flags) {
    return (Endpoint != ompt_scope_begin || T->FreeTasks) &&
           !(Flags & ompt_task_initial);
  }
  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_scope_endpoint_t Endpoint,
       ompt_data_t *ParallelData, ompt_data_t *TaskData,
       unsigned int ActualParallelism, unsigned int Index, int Flags) {
    if (Endpoint == ompt_scope_begin) {
      TaskState *S = newTaskRecord<Fast>(T);
      if (!S)
        return;
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
        // The initial thread's last CPU sample: libomp reports no thread
        // end for it.
        recorder::recordThreadCpu(T);
        record<false, false, false>(T, S, Make);
      } else
        record<Fast>(T, S, Make);
      TaskData->ptr = nullptr;
      recorder::freeTask(T, S);
    }
  }
};

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
template <bool Wait> struct Sync {
  using Sig = ompt_callback_sync_region_t;
  static bool fastCase(ThreadState *, ompt_sync_region_t, ompt_scope_endpoint_t,
                       ompt_data_t *, ompt_data_t *, const void *Codeptr) {
    return outsideRuntime(Codeptr);
  }
  /// Paused, or in a filtered task: nothing to keep (decided here, without
  /// the general path's call).
  static void slow(std::uint32_t Gate, ompt_sync_region_t Kind,
                   ompt_scope_endpoint_t Endpoint, ompt_data_t *ParallelData,
                   ompt_data_t *TaskData, const void *Codeptr) {
    if ((Gate & recorder::GatePaused) || filtered(taskOf(TaskData)))
      return;
    return Callback<Sync>::general(Kind, Endpoint, ParallelData, TaskData,
                                   Codeptr);
  }
  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
       ompt_data_t *ParallelData, ompt_data_t *TaskData, const void *Codeptr);
};

template <bool Wait>
template <bool Fast>
[[gnu::always_inline]] inline void
Sync<Wait>::body(ThreadState *T, ompt_sync_region_t Kind,
                 ompt_scope_endpoint_t Endpoint, ompt_data_t *ParallelData,
                 ompt_data_t *TaskData, const void *Codeptr) {
  TaskState *S = taskOf(TaskData);
  std::uint64_t Code = codeOf<Fast>(Codeptr);
  std::uint64_t A = ParallelData ? ParallelData->value : 0;
  bool Begin = Endpoint == ompt_scope_begin;
  if constexpr (Wait) // for the sampler's states (ompt/sampler.h)
    ompt::sampler::noteWait(TaskData, Kind, Begin);
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
  // A full buffer (or one whose periodic flush is due) is flushed first,
  // and the flush recorded as OTTER's time (recorder::flushFull): then the
  // event takes its own clock reading, not one from before the flush.
  const bool Room = T->Count < T->Limit;
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

struct Work {
  using Sig = ompt_callback_work_t;
  static bool fastCase(ThreadState *, ompt_work_t, ompt_scope_endpoint_t,
                       ompt_data_t *, ompt_data_t *, uint64_t,
                       const void *Codeptr) {
    return Codeptr && outsideRuntime(Codeptr);
  }
  template <bool Fast>
  [[gnu::always_inline]] static void body(ThreadState *T, ompt_work_t Kind,
                                          ompt_scope_endpoint_t Endpoint,
                                          ompt_data_t *, ompt_data_t *TaskData,
                                          uint64_t Count, const void *Codeptr) {
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
};

struct Masked {
  using Sig = ompt_callback_masked_t;
  static bool fastCase(ThreadState *, ompt_scope_endpoint_t, ompt_data_t *,
                       ompt_data_t *, const void *Codeptr) {
    return outsideRuntime(Codeptr);
  }
  template <bool Fast>
  [[gnu::always_inline]] static void
  body(ThreadState *T, ompt_scope_endpoint_t Endpoint, ompt_data_t *,
       ompt_data_t *TaskData, const void *Codeptr) {
    TaskState *S = taskOf(TaskData);
    const std::uint64_t Code = codeOf<Fast>(Codeptr);
    record<Fast>(T, S, [&] {
      return Endpoint == ompt_scope_begin ? Event::maskedBegin(0, idOf(S), Code)
                                          : Event::maskedEnd(0, idOf(S), Code);
    });
  }
};

/// The callbacks and what they mean to the adapter (ompt/registration.h):
/// name, function, group, required (the adapter keeps task records and ids
/// with it whatever is filtered), the callbacks that mean nothing without
/// it (unregistered if the runtime refuses it; its own bit is ignored), and
/// what else its refusal costs. This file's rows, then those of
/// ompt/callbacks_task.cpp and ompt/callbacks_other.cpp (each beside its
/// callbacks).
std::vector<ompt::CallbackSpec> callbackTable() {
  using ompt::callbackBits;
  static const ompt::CallbackSpec Own[] = {
      OTTER_CALLBACK(thread_begin, onThreadBegin, Threads, true, 0,
                     "threads are known from their first event, not their "
                     "kind (initial, worker)"),
      OTTER_CALLBACK(thread_end, onThreadEnd, Threads, true, 0,
                     "a thread's last events reach the sinks at the end of "
                     "the run, not when it ends"),
      OTTER_CALLBACK(parallel_begin, Callback<ParallelBegin>::entry, Parallel,
                     true, callbackBits({ompt_callback_parallel_end}),
                     "parallel regions are not recorded: implicit tasks "
                     "belong to no region"),
      OTTER_CALLBACK(parallel_end, Callback<ParallelEnd>::entry, Parallel, true,
                     callbackBits({ompt_callback_parallel_begin}),
                     "parallel regions are not recorded"),
      // Its dependents: every callback that records in a task (below).
      OTTER_CALLBACK(implicit_task, Callback<ImplicitTask>::entry, Parallel,
                     true, 0,
                     "no event can be given to a task (the initial and "
                     "implicit tasks come from it)"),
      OTTER_CALLBACK(sync_region, Callback<Sync<false>>::entry, Sync, false,
                     callbackBits({ompt_callback_sync_region_wait}), ""),
      OTTER_CALLBACK(sync_region_wait, Callback<Sync<true>>::entry, Sync, false,
                     0, ""),
      OTTER_CALLBACK(work, Callback<Work>::entry, Worksharing, false, 0, ""),
      OTTER_CALLBACK(masked, Callback<Masked>::entry, Masked, false, 0, ""),
      // A reduction is a sync region of kind reduction (OMPT's own
      // signature): libomp 19 reports one when it combines with a critical
      // section, a tree, or alone (a team of one), not for atomic updates.
      OTTER_CALLBACK(reduction, Callback<Sync<false>>::entry, Sync, false, 0,
                     ""),
  };
  std::vector<ompt::CallbackSpec> Table(std::begin(Own), std::end(Own));
  for (std::span<const ompt::CallbackSpec> Part :
       {taskCallbacks(), otherCallbacks(), targetCallbacks()})
    Table.insert(Table.end(), Part.begin(), Part.end());
  // Without implicit tasks no event has a task: every callback but the
  // threads' and tool control's means nothing.
  ompt::CallbackSet InTasks = 0;
  for (const ompt::CallbackSpec &S : Table)
    if (S.Group != EventGroup::Threads && S.Group != EventGroup::Control)
      InTasks |= ompt::callbackBit(S.Which);
  for (ompt::CallbackSpec &S : Table)
    if (S.Which == ompt_callback_implicit_task)
      S.Dependents = InTasks;
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
  if (session::samplingAlone()) {
    // No event is recorded (recorder::Active stays false): only the
    // sampler's callbacks (ompt/sampler.h).
    if (!ompt::sampler::install(Lookup) ||
        !ompt::sampler::registerSamplingCallbacks(SetCallback))
      return 0;
    ThreadState *Initial =
        recorder::registerThread(std::uint32_t(ompt_thread_initial));
    if (Initial)
      ompt::sampler::threadBegin(Initial->Index);
    return 1;
  }
  const std::vector<ompt::CallbackSpec> Table = callbackTable();
  // The groups the filter stage drops entirely need no callback, where the
  // adapter does not need it either.
  ompt::Registration R = ompt::registerCallbacks(
      Table,
      [SetCallback](ompt_callbacks_t C, ompt_callback_t F) {
        return int(SetCallback(C, F));
      },
      filter::rules().Groups);
  session::noteCallbacks(R.report(), R.Warnings);
  recorder::Active.store(true, std::memory_order_release);
  // OTTER's own cost per event, for the analyses (ompt/calibrate.h): before
  // any thread records, on this one.
  recorder::setRecordingCostNs(
      ompt::measureRecordingCostNs(Table));
  // The initial thread's thread_begin may already have happened before
  // initialize returned: make sure it is registered.
  ThreadState *Initial =
      recorder::registerThread(std::uint32_t(ompt_thread_initial));
  // Sampling (OTTER_SAMPLE): the initial thread's timer starts here.
  if (Initial && ompt::sampler::install(Lookup))
    ompt::sampler::threadBegin(Initial->Index);
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
