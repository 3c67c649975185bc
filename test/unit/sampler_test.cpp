//===- sampler_test.cpp - The sampling handler and timers in a real run ---===//
//
// ompt/sampler.cpp's signal handler driven by core/samples.cpp's real
// per-thread timers, with the OpenMP runtime's inquiry functions replaced
// by fakes: threads that start and end while a drainer drains and while
// they open regions (noteRegion) lose no sample and tear none, and every
// sample's construct is its own thread's region or not known. Run under
// TSan too (scripts/sanitize.sh tsan): the timers, the handler and the
// region table without libomp, which TSan cannot see into.
//
//===----------------------------------------------------------------------===//
#include "core/samples.h"
#include "ompt/sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>
#include <vector>

using namespace otter;

namespace {

constexpr std::uint64_t CodeBase = 0x1000;
constexpr unsigned Threads = 4;

/// Each thread's current region, as libomp would keep its data.
thread_local ompt_data_t RegionData{};
thread_local ompt_data_t TaskData{};
thread_local ompt_frame_t TaskFrame{};

int fakeState(ompt_wait_id_t *Wait) {
  if (Wait)
    *Wait = 7;
  return ompt_state_work_parallel;
}

int fakeTaskInfo(int Level, int *Flags, ompt_data_t **Task,
                 ompt_frame_t **Frame, ompt_data_t **Parallel,
                 int *ThreadNum) {
  if (Level != 0)
    return 0;
  *Flags = ompt_task_implicit;
  *Task = &TaskData;
  *Frame = &TaskFrame;
  *Parallel = &RegionData;
  *ThreadNum = 0;
  return 2;
}

ompt_interface_fn_t lookup(const char *Name) {
  if (!std::strcmp(Name, "ompt_get_state"))
    return reinterpret_cast<ompt_interface_fn_t>(&fakeState);
  if (!std::strcmp(Name, "ompt_get_task_info"))
    return reinterpret_cast<ompt_interface_fn_t>(&fakeTaskInfo);
  return nullptr;
}

/// Thread T (recorder index T + 1) opens region after region for about
/// Ms milliseconds: ids of its own whose table slots collide with the
/// other threads' (the same low bits), code CodeBase + id.
void regionsFor(unsigned T, unsigned Ms) {
  ompt::sampler::threadBegin(T + 1);
  const auto End =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(Ms);
  for (std::uint64_t N = 1; std::chrono::steady_clock::now() < End; ++N) {
    const std::uint64_t Id = (std::uint64_t(T + 1) << 20) | (N & 0xfffff);
    ompt::sampler::noteRegion(Id, CodeBase + Id);
    RegionData.value = Id;
    volatile unsigned Spin = 0;
    for (unsigned I = 0; I < 2000; ++I)
      Spin = Spin + I;
  }
  ompt::sampler::threadEnd();
}

TEST(Sampler, TimersAndHandlerWithThreadsComingAndGoing) {
  samples::configure(1000, /*Wall=*/true, SIGURG);
  ASSERT_TRUE(ompt::sampler::install(&lookup));
  std::atomic<bool> Done{false};
  std::thread Drainer([&] {
    while (!Done.load()) {
      for (SampleThread *S : samples::threads())
        samples::drain(S);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  // Two generations: threads that end while others start.
  for (unsigned Round = 0; Round < 2; ++Round) {
    std::vector<std::thread> Workers;
    for (unsigned T = 0; T < Threads; ++T)
      Workers.emplace_back(regionsFor, T, 60 + 20 * T);
    for (std::thread &W : Workers)
      W.join();
  }
  Done = true;
  Drainer.join();
  samples::stopAll();

  std::uint64_t Total = 0, Known = 0;
  for (SampleThread *S : samples::threads()) {
    std::lock_guard<std::mutex> L(S->DrainLock);
    samples::forEachDrained(
        S->Drained, 0, [&](const samples::DrainedSample &X, std::size_t) {
          EXPECT_EQ(X.State, std::uint32_t(ompt_state_work_parallel));
          EXPECT_EQ(X.WaitId, 7u);
          EXPECT_GE(X.Weight, 1u);
          if (X.Region) {
            // Its own thread's region: two threads writing one slot at
            // once (their ids hash alike) could leave one's id with the
            // other's code, which a sample would then read (seen under
            // TSan before the slot had one writer at a time).
            EXPECT_EQ((X.Region - CodeBase) >> 20, S->ThreadIndex)
                << X.Region;
            EXPECT_TRUE(X.Flags & SampleRegionImplicit);
            ++Known;
          }
          EXPECT_GE(X.Depth, 1u); // the interrupted instruction at least
          ++Total;
        });
  }
  // Wall-clock timers at 1 kHz over ~0.5 s of thread time: samples came;
  // most name their region (a sample before a thread's first region, or
  // in its slot's rewrite, does not).
  EXPECT_GT(Total, 0u);
  EXPECT_GT(Known, 0u);
}

} // namespace
