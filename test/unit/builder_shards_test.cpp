//===- builder_shards_test.cpp - the graph builder's per-thread ingest ----===//
//
// GraphBuilder::addEvents keeps each thread's events in a store of its own
// (no lock between threads) and build() merges the stores. On random
// programs (random_programs.h), feeding each thread's events from its own
// std::thread, in flush-sized pieces, makes the same canonical graph as
// feeding every event through one store (all as one thread: no merge).
// TSan runs these (scripts/sanitize.sh tsan selects the Builder suite).
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "graph/writers.h"
#include "random_programs.h"
#include "test_streams.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace otter;
using otter::testutil::labelOf;
using namespace otter::testprog;

namespace {

std::string canonical(GraphBuilder &B) {
  Graph G = B.build();
  std::ostringstream OS;
  writeCanonical(G, OS);
  for (const std::string &W : G.Warnings)
    OS << "warning: " << W << '\n';
  OS << "events " << G.Stats.Events << '\n';
  return OS.str();
}

/// Feeds each thread's events from a std::thread of its own, in pieces of
/// 1 to 16 events (as buffers are flushed), all threads at once.
std::string concurrently(const Simulator &Sim, std::uint64_t Seed) {
  GraphBuilder B(labelOf);
  std::vector<std::thread> Feeders;
  for (const auto &[Th, Events] : Sim.PerThread)
    Feeders.emplace_back([&B, Th, &Events, Seed] {
      std::mt19937_64 Rng(Seed + Th);
      for (std::size_t I = 0; I < Events.size();) {
        std::size_t N =
            std::min<std::size_t>(1 + Rng() % 16, Events.size() - I);
        B.addEvents(Th, Events.data() + I, N);
        I += N;
      }
    });
  for (std::thread &F : Feeders)
    F.join();
  return canonical(B);
}

/// Every event through one store: all threads' events as thread 0's.
std::string oneStore(const Simulator &Sim) {
  GraphBuilder B(labelOf);
  for (const auto &[Th, Events] : Sim.PerThread)
    B.addEvents(0, Events.data(), Events.size());
  return canonical(B);
}

} // namespace

TEST(Builder, PerThreadStoresMergeToTheOneStoreGraph) {
  std::size_t MultiThread = 0;
  for (std::uint64_t Seed = 1; Seed <= 150; ++Seed) {
    Generator Gen(Seed);
    Program P = Gen.make();
    Simulator Sim(P, Seed * 7919);
    Sim.run();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    MultiThread += Sim.PerThread.size() > 1;
    std::string Expected = oneStore(Sim);
    ASSERT_EQ(concurrently(Sim, Seed), Expected);
    if (HasFailure())
      break;
  }
  // The merge is exercised: most programs run on two threads.
  EXPECT_GT(MultiThread, 50u);
}

TEST(Builder, ManyThreadsFeedAtOnce) {
  // 64 threads, each with an implicit task of one team and a task of its
  // own: every thread's store is made at once (the table's pages by
  // compare and swap) and all are merged.
  constexpr std::uint32_t N = 64;
  std::vector<std::vector<Event>> PerThread(N);
  std::uint64_t Time = 0;
  auto add = [&](std::uint32_t Th, Event E, std::uint32_t Seq) {
    E.Time = ++Time;
    E.Seq = Seq;
    PerThread[Th].push_back(E);
  };
  add(0, Event::implicitTaskBegin(0, 1, 0, 1, 0, TaskInitial), 0);
  add(0, Event::parallelBegin(0, 1, 7, N, 0, 0x10), 1);
  for (std::uint32_t I = 0; I < N; ++I) {
    TaskId Member = 100 + I, Child = 1000 + I;
    add(I,
        Event::implicitTaskBegin(0, Member, 7, N, std::uint16_t(I),
                                 TaskImplicit),
        0);
    add(I, Event::taskCreate(0, Member, Child, TaskExplicit, 0x20), 1);
    add(I, Event::taskSchedule(0, Member, ScheduleStatus::Switch, Child), 2);
    add(I,
        Event::syncBegin(0, Member, 7, SyncKind::BarrierImplicitParallel,
                         I == 0 ? 0x10 : 0),
        2);
    add(I,
        Event::syncEnd(0, Member, 7, SyncKind::BarrierImplicitParallel,
                       I == 0 ? 0x10 : 0),
        3);
  }
  add(0, Event::parallelEnd(0, 1, 7, 0x10), 2);

  GraphBuilder Seq(labelOf);
  for (std::uint32_t I = 0; I < N; ++I)
    Seq.addEvents(0, PerThread[I].data(), PerThread[I].size());
  std::string Expected = canonical(Seq);

  GraphBuilder B(labelOf);
  std::vector<std::thread> Feeders;
  for (std::uint32_t I = 0; I < N; ++I)
    Feeders.emplace_back(
        [&, I] { B.addEvents(I, PerThread[I].data(), PerThread[I].size()); });
  for (std::thread &F : Feeders)
    F.join();
  Graph G = B.build();
  EXPECT_EQ(G.Stats.Threads, N);
  EXPECT_EQ(G.Stats.Tasks, N); // the explicit tasks
  std::ostringstream OS;
  writeCanonical(G, OS);
  for (const std::string &W : G.Warnings)
    OS << "warning: " << W << '\n';
  OS << "events " << G.Stats.Events << '\n';
  EXPECT_EQ(OS.str(), Expected);
}
