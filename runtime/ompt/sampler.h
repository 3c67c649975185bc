//===- ompt/sampler.h - The sampling signal handler (OMPT) --------*- C++ -*-===//
//
// Sampling mode's event source: the signal handler that, on each tick of a
// thread's sampling timer, asks the OpenMP runtime for the thread's state
// (ompt_get_state) and current task (ompt_get_task_info), unwinds the
// interrupted stack by its frame pointers and writes all of it into the
// thread's ring (core/samples.h). The rings, timers and output are core's.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_OMPT_SAMPLER_H
#define OTTER_OMPT_SAMPLER_H

#include <omp-tools.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace otter {
struct SampleThread; // core/samples.h
} // namespace otter

namespace otter::ompt::sampler {

/// The parallel regions' code addresses by region id, for the handler
/// (Sample::Region) when the trace is on (there the region's data holds
/// its id): direct-mapped, one slot per id modulo RegionSlots, written at
/// the region's begin; a slot a later region took reads as not known.
/// (Sampling alone keeps the code address in the region's data itself.)
struct RegionSlot {
  std::atomic<std::uint64_t> Id{0}, Code{0};
};
inline constexpr std::size_t RegionSlots = 4096;
extern RegionSlot Regions[RegionSlots];
extern bool Sampling; // the handler is installed

/// A slot's Id while one thread writes it.
inline constexpr std::uint64_t RegionSlotBusy = ~std::uint64_t(0);

/// At a parallel region's begin with the trace on (tool.cpp): a
/// compare-exchange and two stores when sampling, nothing otherwise. One
/// writer at a time: threads beginning regions at once may hash to one
/// slot, and two interleaved writes could leave one region's id with the
/// other's code (found by the Sampler unit test under TSan). A slot that
/// another thread is writing is left to it: this region's samples then
/// have no construct (Sample::Region 0).
[[gnu::always_inline]] inline void noteRegion(std::uint64_t Id,
                                              std::uint64_t Code) {
  if (!Sampling)
    return;
  RegionSlot &S = Regions[Id % RegionSlots];
  std::uint64_t Old = S.Id.load(std::memory_order_relaxed);
  if (Old == RegionSlotBusy ||
      !S.Id.compare_exchange_strong(Old, RegionSlotBusy,
                                    std::memory_order_relaxed))
    return;
  std::atomic_thread_fence(std::memory_order_release);
  S.Code.store(Code, std::memory_order_relaxed);
  S.Id.store(Id, std::memory_order_release);
}

/// The task the calling thread waits for in a taskwait or at a taskgroup's
/// end, and which of the two (ompt_sync_region_t), set by the sync region
/// callbacks (tool.cpp) and read by the handler: libomp reports such a
/// wait as work (ompt_get_state), so a sample whose current task is this
/// one is given the state ompt_state_wait_taskwait or _taskgroup. (When
/// the waiting thread runs another task meanwhile, that task is current:
/// work.)
struct TaskWait {
  const ompt_data_t *Task; // the task's data: one per task, as it runs
  std::uint32_t Kind;
};
extern thread_local constinit TaskWait Waiting
    __attribute__((tls_model("initial-exec")));
/// At a taskwait's or taskgroup's wait begin (Begin) or end.
[[gnu::always_inline]] inline void noteWait(const ompt_data_t *Task,
                                            ompt_sync_region_t Kind,
                                            bool Begin) {
  if (Kind == ompt_sync_region_taskwait ||
      Kind == ompt_sync_region_taskgroup) {
    Waiting.Kind = std::uint32_t(Kind);
    Waiting.Task = Begin ? Task : nullptr;
  }
}

/// At tool start, when OTTER_SAMPLE asks for sampling: installs the
/// handler (one line and no sampling if the signal is the program's or
/// does not exist). Returns whether threads will be sampled.
bool install(ompt_function_lookup_t Lookup);
/// The calling thread starts (its timer) / ends (its timer deleted, its
/// ring drained). No-ops when not sampling.
void threadBegin(std::uint32_t ThreadIndex);
/// The calling thread's sampling state; null when it is not sampled.
SampleThread *currentThread();
void threadEnd();

/// Sampling alone (no per-event output, session::samplingAlone()): instead
/// of the recording callbacks, only what the sampler needs -- thread begin
/// and end (the timers) and the sync region waits (the taskwait state):
/// the program's tasks and events then cost nothing. Returns false if the
/// runtime refused one.
bool registerSamplingCallbacks(ompt_set_callback_t SetCallback);

} // namespace otter::ompt::sampler

#endif // OTTER_OMPT_SAMPLER_H
