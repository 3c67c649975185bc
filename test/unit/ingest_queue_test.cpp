//===- ingest_queue_test.cpp - flushed buffers ingested in the background -===//
//
// core/ingest_queue.h: every adopted buffer is ingested exactly once, each
// thread's in flush order, with its times converted when they are ticks,
// whether the background thread keeps up, falls behind (the flushing
// thread ingests its own) or is frozen, and in a copy of the process forked
// while the thread was ingesting a buffer; buffers handed back are the
// thread's to record into; the background thread does not take over the
// malloc arena of a program thread that ends while it runs. Named
// Recorder* so that scripts/sanitize.sh tsan runs them with the recorder's
// tests.
//
//===----------------------------------------------------------------------===//
#include "core/ingest_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace otter;

namespace {

constexpr std::size_t Capacity = 64;

/// What the ingest saw, per thread: the events' Seq and Time in order.
struct Seen {
  std::mutex M;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> Per;
  explicit Seen(std::size_t Threads) : Per(Threads) {}
  IngestQueue::IngestFn fn(bool Slow) {
    return [this, Slow](std::uint32_t Th, const Event *E, std::size_t N) {
      if (Slow) // a background thread that falls behind
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      std::lock_guard<std::mutex> L(M);
      for (std::size_t I = 0; I < N; ++I)
        Per[Th].emplace_back(E[I].Seq, E[I].Time);
    };
  }
};

/// Thread Th flushes Buffers buffers of Capacity events (Seq counting up,
/// Time = 10 * Seq ticks) through Q, recording into what adopt hands back.
void flushes(IngestQueue &Q, std::uint32_t Th, std::uint32_t Buffers) {
  auto *Buf = static_cast<Event *>(std::malloc(sizeof(Event) * Capacity));
  std::uint32_t Seq = 0;
  for (std::uint32_t B = 0; B < Buffers; ++B) {
    for (std::size_t I = 0; I < Capacity; ++I) {
      Buf[I] = Event{};
      Buf[I].Seq = Seq;
      Buf[I].Time = 10 * std::uint64_t(Seq);
      ++Seq;
    }
    Buf = Q.adopt(Th, Buf, Capacity, Capacity, true);
    ASSERT_NE(Buf, nullptr);
  }
  std::free(Buf);
}

void expectAll(Seen &S, std::uint32_t Threads, std::uint32_t Buffers) {
  for (std::uint32_t Th = 0; Th < Threads; ++Th) {
    SCOPED_TRACE("thread " + std::to_string(Th));
    ASSERT_EQ(S.Per[Th].size(), Buffers * Capacity);
    for (std::uint32_t I = 0; I < S.Per[Th].size(); ++I) {
      ASSERT_EQ(S.Per[Th][I].first, I);
      // Ticks converted: the scale halves them.
      ASSERT_EQ(S.Per[Th][I].second, 5 * std::uint64_t(I));
    }
  }
}

TickScale half() {
  TickScale T;
  T.Mult = std::uint64_t(1) << 31;
  return T;
}

void run(bool Slow, std::uint32_t Threads) {
  Seen S(Threads);
  IngestQueue Q(S.fn(Slow), half());
  ASSERT_TRUE(Q.start());
  std::vector<std::thread> Ts;
  for (std::uint32_t Th = 0; Th < Threads; ++Th)
    Ts.emplace_back([&Q, Th] { flushes(Q, Th, 300); });
  for (std::thread &T : Ts)
    T.join();
  EXPECT_TRUE(Q.stop());
  expectAll(S, Threads, 300);
}

} // namespace

TEST(RecorderIngestQueue, EveryBufferOnceInFlushOrder) { run(false, 3); }

TEST(RecorderIngestQueue, FlushingThreadsIngestTheirOwnWhenBehind) {
  run(true, 3);
}

TEST(RecorderIngestQueue, ThreadsPastTheAsyncOnesIngestAtOnce) {
  run(false, IngestQueue::MaxAsyncThreads + 3);
}

TEST(RecorderIngestQueue, FrozenThenStoppedLosesNothing) {
  Seen S(2);
  IngestQueue Q(S.fn(false), half());
  ASSERT_TRUE(Q.start());
  std::thread A([&] { flushes(Q, 0, 50); });
  A.join();
  Q.freeze(1000); // as before a fork: the rest is ingested by stop()
  std::thread B([&] { flushes(Q, 1, 50); });
  B.join();
  EXPECT_TRUE(Q.stop());
  expectAll(S, 2, 50);
}

TEST(RecorderIngestQueue, WithoutTheThreadEveryFlushIngestsAtOnce) {
  Seen S(1);
  IngestQueue Q(S.fn(false), half());
  flushes(Q, 0, 20); // never started
  EXPECT_EQ(S.Per[0].size(), 20 * Capacity);
  EXPECT_TRUE(Q.stop());
  expectAll(S, 1, 20);
}

/// The session forks to write the outputs (exit() in a parallel region,
/// SIGTERM, otter_end) while the background thread may be ingesting a
/// buffer. Here it takes 300 ms a chunk, 2.4 s the buffer: the freeze
/// before the fork must not wait for the whole buffer (it gives up after
/// 1 s: the copy then lost the buffer), and the copy must ingest exactly
/// the chunks the thread had not.
TEST(RecorderIngestQueue, ACopyForkedWhileTheThreadIngestsHasEveryEvent) {
  const pid_t Parent = getpid();
  const std::thread::id Main = std::this_thread::get_id();
  std::atomic<bool> Started{false};
  Seen S(1);
  IngestQueue::IngestFn Inner = S.fn(false);
  IngestQueue Q(
      [&](std::uint32_t Th, const Event *E, std::size_t N) {
        if (getpid() == Parent && std::this_thread::get_id() != Main) {
          Started.store(true);
          // 300 ms per 1024 events, however they are split.
          std::this_thread::sleep_for(std::chrono::microseconds(N * 293));
        }
        Inner(Th, E, N);
      },
      half());
  ASSERT_TRUE(Q.start());
  constexpr std::size_t Big = 8 * IngestQueue::Chunk;
  auto *Buf = static_cast<Event *>(std::malloc(sizeof(Event) * Big));
  for (std::size_t I = 0; I < Big; ++I) {
    Buf[I] = Event{};
    Buf[I].Seq = std::uint32_t(I);
    Buf[I].Time = 10 * std::uint64_t(I);
  }
  Event *Next = Q.adopt(0, Buf, Big, Big, true);
  ASSERT_NE(Next, Buf); // queued for the background thread
  std::free(Next);
  // The thread runs at SCHED_IDLE: on a busy machine it may take a while.
  for (int I = 0; I < 60000 && !Started.load(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(Started.load());
  Q.freeze(1000);
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    // The copy: no background thread; stop() ingests what is left.
    bool Ok = Q.stop() && S.Per[0].size() == Big;
    for (std::size_t I = 0; Ok && I < Big; ++I)
      Ok = S.Per[0][I].first == I && S.Per[0][I].second == 5 * I;
    _exit(Ok ? 0 : 1);
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
      << "the copy lost events or ingested some twice";
  // The parent's thread is frozen: stop() ingests the rest here.
  EXPECT_TRUE(Q.stop());
  expectAll(S, 1, Big / Capacity);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTTER_OWN_MALLOC 1 // the sanitizer's allocator: no glibc arenas
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OTTER_OWN_MALLOC 1
#endif
#endif

namespace {
/// glibc's arena of a block from a thread's arena (not the main one): its
/// heaps are 64 MiB (HEAP_MAX_SIZE on 64-bit) aligned on their size.
std::uintptr_t arenaOf(const void *P) {
  return reinterpret_cast<std::uintptr_t>(P) &
         ~((std::uintptr_t(64) << 20) - 1);
}
} // namespace

/// libomp 19 writes into the memory of a pthread running OpenMP after the
/// thread ended (a worker returns the ended root's freed task blocks to
/// the root's freed kmp_info_t): the background thread used to make its
/// first allocation at its first ingest, after such a thread had ended,
/// and glibc gave it that thread's arena, so the graph's tables were made
/// over the memory libomp still wrote (docs/reliability.md). A thread that
/// allocates, frees and ends after start(); then the background thread's
/// first ingest allocates: not in the ended thread's arena.
TEST(RecorderIngestQueue, TheThreadKeepsOffTheArenaOfAThreadThatEnded) {
  const std::thread::id Main = std::this_thread::get_id();
  std::atomic<void *> Made{nullptr};
  std::atomic<bool> Ingested{false};
  IngestQueue Q(
      [&](std::uint32_t, const Event *, std::size_t) {
        if (std::this_thread::get_id() != Main && !Made.load())
          Made.store(std::malloc(2048)); // as the shards' first table
        Ingested.store(true);
      },
      half());
  ASSERT_TRUE(Q.start());
  std::uintptr_t Ended = 0;
  std::thread T([&] {
    void *volatile P = std::malloc(2048); // as libomp's thread data
    Ended = arenaOf(P);
    std::free(P);
  });
  T.join(); // its arena is now free, for the next thread that needs one
  auto *Buf = static_cast<Event *>(std::malloc(sizeof(Event) * Capacity));
  for (std::size_t I = 0; I < Capacity; ++I)
    Buf[I] = Event{};
  Event *Next = Q.adopt(0, Buf, Capacity, Capacity, false);
  ASSERT_NE(Next, Buf); // queued for the background thread
  // The thread runs at SCHED_IDLE: on a busy machine it may take a while.
  for (int I = 0; I < 60000 && !Ingested.load(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(Q.stop());
  std::free(Next);
  void *P = Made.load();
  ASSERT_NE(P, nullptr) << "the background thread did not ingest the buffer";
#ifndef OTTER_OWN_MALLOC
  EXPECT_NE(arenaOf(P), Ended)
      << "the background thread took the ended thread's malloc arena";
#else
  (void)Ended;
#endif
  std::free(P);
}
