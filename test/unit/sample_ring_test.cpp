//===- sample_ring_test.cpp - The sample ring: handler writes, drain reads ===//
//
// core/sample_ring.h: what one producer (a signal handler) publishes is
// drained once, oldest first; a full ring drops and counts; a claimed slot
// not yet published is invisible; samples written from a real signal
// handler while another thread drains all arrive, in order, none twice.
//
//===----------------------------------------------------------------------===//
#include "core/sample_ring.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <pthread.h>
#include <thread>
#include <vector>

using namespace otter;

namespace {

std::vector<std::uint64_t> drainTimes(SampleRing &R) {
  std::vector<std::uint64_t> Out;
  R.drain([&](const Sample &S) { Out.push_back(S.Time); });
  return Out;
}

TEST(SampleRing, DrainsPublishedInOrder) {
  std::vector<Sample> Slots(4);
  SampleRing R(Slots.data(), Slots.size());
  for (std::uint64_t T = 1; T <= 3; ++T) {
    Sample *S = R.claim();
    ASSERT_NE(S, nullptr);
    S->Time = T;
    R.publish();
  }
  EXPECT_EQ(drainTimes(R), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_TRUE(drainTimes(R).empty()); // drained once
}

TEST(SampleRing, FullRingDropsAndCounts) {
  std::vector<Sample> Slots(4);
  SampleRing R(Slots.data(), Slots.size());
  for (std::uint64_t T = 1; T <= 6; ++T)
    if (Sample *S = R.claim()) {
      S->Time = T;
      R.publish();
    }
  EXPECT_EQ(R.dropped(), 2u);
  EXPECT_EQ(drainTimes(R), (std::vector<std::uint64_t>{1, 2, 3, 4}));
  // Room again after the drain, and the slots wrap around.
  Sample *S = R.claim();
  ASSERT_NE(S, nullptr);
  S->Time = 7;
  R.publish();
  EXPECT_EQ(drainTimes(R), (std::vector<std::uint64_t>{7}));
}

TEST(SampleRing, ClaimedButUnpublishedIsInvisible) {
  std::vector<Sample> Slots(2);
  SampleRing R(Slots.data(), Slots.size());
  Sample *S = R.claim();
  ASSERT_NE(S, nullptr);
  S->Time = 9;
  EXPECT_TRUE(drainTimes(R).empty());
  R.publish();
  EXPECT_EQ(drainTimes(R), (std::vector<std::uint64_t>{9}));
}

TEST(SampleRing, NoStorageDropsEverything) {
  SampleRing R;
  EXPECT_EQ(R.claim(), nullptr);
  EXPECT_EQ(R.dropped(), 1u);
  EXPECT_TRUE(drainTimes(R).empty());
}

// A signal handler is the producer, as in the runtime; this thread drains
// while signals keep coming.
SampleRing *HandlerRing = nullptr;
std::atomic<std::uint64_t> NextTime{1};
void onSignal(int) {
  if (Sample *S = HandlerRing->claim()) {
    S->Time = NextTime.fetch_add(1, std::memory_order_relaxed);
    S->Depth = 1;
    S->Frames[0] = S->Time * 3; // a second word the reader checks
    HandlerRing->publish();
  }
}

TEST(SampleRing, HandlerWritesWhileAnotherThreadDrains) {
  std::vector<Sample> Slots(64);
  SampleRing R(Slots.data(), Slots.size());
  HandlerRing = &R;
  struct sigaction A {}, Old{};
  A.sa_handler = onSignal;
  sigemptyset(&A.sa_mask);
  ASSERT_EQ(sigaction(SIGRTMIN + 5, &A, &Old), 0);
  constexpr int Signals = 20000;
  std::atomic<bool> Done{false};
  std::thread Sender([&] {
    sigset_t None;
    sigemptyset(&None);
    pthread_sigmask(SIG_SETMASK, &None, nullptr);
    for (int I = 0; I < Signals; ++I)
      pthread_kill(pthread_self(), SIGRTMIN + 5); // handled on this thread
    Done.store(true);
  });
  std::vector<std::uint64_t> Seen;
  bool Sound = true;
  auto Take = [&] {
    R.drain([&](const Sample &S) {
      Sound &= S.Depth == 1 && S.Frames[0] == S.Time * 3;
      Seen.push_back(S.Time);
    });
  };
  while (!Done.load())
    Take();
  Sender.join();
  Take();
  sigaction(SIGRTMIN + 5, &Old, nullptr);
  EXPECT_TRUE(Sound);
  EXPECT_EQ(Seen.size() + R.dropped(), std::size_t(Signals));
  EXPECT_GT(Seen.size(), 0u);
  for (std::size_t I = 1; I < Seen.size(); ++I)
    ASSERT_LT(Seen[I - 1], Seen[I]); // in order, none twice
}

} // namespace
