//===- builder_index_test.cpp - The walk's index on two threads -----------===//
//
// Walker::index (graph/builder_index.cpp) runs its task loop and its
// record scatter on two threads for a big stream whose per-task counts the
// ingest kept (one thread's events), and tallies there what Walker::run
// reserves and decides (the nodes the items can make, whether a node is
// named, whether the tasks form a tree). The graph, the warnings and what
// the walk offers the nodes' feed (WalkStarts: only when no node is named,
// with the nodes reserved) must be those of the serial index: on streams
// past the default threshold, with the thread's creation failing (serial
// fallback), with the threads handing over give-backs and prefaults as on
// a stream of millions of records, not a tree (with released blocks
// poisoned), and on random small programs with the split forced. Named
// Builder* so that scripts/sanitize.sh tsan runs them.
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "graph/builder_walk.h"
#include "graph/writers.h"
#include "random_programs.h"
#include "test_streams.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace otter;
using otter::testutil::labelOf;

namespace {

using Stream = testutil::ThreadStreams;

/// How index() is to run. SplitGivingBack: split, and the scatter asks
/// the other thread to give freed records back every page of records (so
/// that a stream of a few hundred thousand records has the threads hand
/// over as a stream of millions would).
enum class Index { Serial, Default, Split, NoThread, SplitGivingBack };

/// The graph (canonical form and warnings) and what the walk offered the
/// feed, built with index() run as said; Split: whether it was split.
struct Built {
  std::string Graph;
  bool Offered = false;
  std::size_t MaxNodes = 0;
  bool Split = false;
};

Built build(const std::map<std::uint32_t, std::vector<Event>> &PerThread,
            Index How) {
  struct Knobs { // restored even if the build throws
    std::size_t Tasks = walk::Walker::ParallelIndexTasks;
    bool NoThread = walk::Walker::NoIndexThread;
    std::size_t GiveBack = walk::Walker::GiveBackPagesForTests;
    ~Knobs() {
      walk::Walker::ParallelIndexTasks = Tasks;
      walk::Walker::NoIndexThread = NoThread;
      walk::Walker::GiveBackPagesForTests = GiveBack;
    }
  } Saved;
  if (How == Index::Serial)
    walk::Walker::ParallelIndexTasks = std::numeric_limits<std::size_t>::max();
  if (How == Index::Split || How == Index::SplitGivingBack)
    walk::Walker::ParallelIndexTasks = 0;
  if (How == Index::SplitGivingBack)
    walk::Walker::GiveBackPagesForTests = 1;
  walk::Walker::NoIndexThread = How == Index::NoThread;
  GraphBuilder B(labelOf);
  for (const auto &[Th, Evs] : PerThread)
    B.addEvents(Th, Evs.data(), Evs.size());
  Built R;
  GraphBuilder::Hooks H;
  H.WalkStarts = [&](Graph &, std::size_t MaxNodes) -> NodeFeed * {
    R.Offered = true;
    R.MaxNodes = MaxNodes;
    return nullptr;
  };
  std::size_t Splits = walk::Walker::ParallelIndexes;
  Graph G;
  B.build(G, H);
  R.Split = walk::Walker::ParallelIndexes != Splits;
  G.Names = {"n0", "n1", "n2", "n3"};
  std::ostringstream OS;
  writeCanonical(G, OS);
  for (const std::string &W : G.Warnings)
    OS << "warning: " << W << '\n';
  R.Graph = OS.str();
  return R;
}

/// fib(N) as bench/fib.c does it (two tasks, a taskwait), all on thread 0,
/// with now and then what the index treats apart: a dependence (a wide
/// payload, an item that makes no node), a critical (the pass that gives a
/// critical's end its begin's code), a team of one (a parallel index and
/// its member's claim) and, if Named, a task label and a mark.
void fib(Stream &S, std::mt19937 &Rng, TaskId T, int N, TaskId &Next,
         ParallelId &NextParallel, bool Named) {
  if (N < 2)
    return;
  TaskId A = Next++, B = Next++;
  S.add(0, Event::taskCreate(0, T, A, TaskExplicit, 10));
  if (Rng() % 16 == 0) {
    S.add(0, Event::taskDependence(0, A, 0x1000 + N, DependenceType::Out));
    S.add(0, Event::taskCreate(0, T, B, TaskExplicit, 11));
    S.add(0, Event::taskDependence(0, B, 0x1000 + N, DependenceType::In));
  } else {
    S.add(0, Event::taskCreate(0, T, B, TaskExplicit, 11));
  }
  for (auto [C, M] : {std::pair{A, N - 1}, std::pair{B, N - 2}}) {
    S.add(0, Event::taskSchedule(0, 0, ScheduleStatus::Switch, C));
    if (Named && Rng() % 64 == 0)
      S.add(0, Event::taskLabel(0, C, 1 + Rng() % 3));
    fib(S, Rng, C, M, Next, NextParallel, Named);
  }
  switch (Rng() % 32) {
  case 0:
    S.add(0, Event::mutexAcquired(0, T, MutexKind::Critical, 7, 30));
    S.add(0, Event::mutexReleased(0, T, MutexKind::Critical, 7, 31));
    break;
  case 1: {
    ParallelId P = NextParallel++;
    TaskId I = Next++;
    S.add(0, Event::parallelBegin(0, T, P, 1, 0, 40));
    S.add(0, Event::implicitTaskBegin(0, I, P, 1, 0, TaskImplicit));
    S.add(0, Event::syncBegin(0, I, P, SyncKind::BarrierImplicitParallel, 41));
    S.add(0, Event::syncEnd(0, I, P, SyncKind::BarrierImplicitParallel, 41));
    S.add(0, Event::parallelEnd(0, T, P, 40));
    break;
  }
  case 2:
    if (Named)
      S.add(0, Event::mark(0, T, 2, 50));
    break;
  }
  S.add(0, Event::syncBegin(0, T, 0, SyncKind::Taskwait, 12));
  S.add(0, Event::syncEnd(0, T, 0, SyncKind::Taskwait, 12));
}

/// An initial task that runs fib(N) and then creates 300 tasks (more
/// records than a task's count holds: Store::ManyRecs).
Stream fibStream(int N, bool Named) {
  Stream S;
  std::mt19937 Rng(5);
  const TaskId Init = 1;
  S.add(0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  TaskId Next = 1000, Root = Next++;
  ParallelId NextParallel = 2;
  S.add(0, Event::taskCreate(0, Init, Root, TaskExplicit, 13));
  S.add(0, Event::taskSchedule(0, 0, ScheduleStatus::Switch, Root));
  fib(S, Rng, Root, N, Next, NextParallel, Named);
  for (int I = 0; I < 300; ++I) {
    TaskId C = Next++;
    S.add(0, Event::taskCreate(0, Init, C, TaskExplicit, 14));
    S.add(0, Event::taskSchedule(0, 0, ScheduleStatus::Switch, C));
  }
  S.add(0, Event::syncBegin(0, Init, 0, SyncKind::BarrierImplicitParallel, 15));
  S.add(0, Event::syncEnd(0, Init, 0, SyncKind::BarrierImplicitParallel, 15));
  return S;
}

void expectSame(const Built &A, const Built &B) {
  EXPECT_EQ(A.Offered, B.Offered);
  EXPECT_EQ(A.MaxNodes, B.MaxNodes);
  // (Not EXPECT_EQ: megabytes each.) The first line that differs.
  std::size_t At = std::mismatch(A.Graph.begin(), A.Graph.end(),
                                 B.Graph.begin(), B.Graph.end())
                       .first -
                   A.Graph.begin();
  std::size_t Line = A.Graph.rfind('\n', At) + 1; // npos + 1 == 0
  EXPECT_TRUE(A.Graph == B.Graph) << "from: " << A.Graph.substr(Line, 200)
                                  << "\nnot: " << B.Graph.substr(Line, 200);
}

} // namespace

TEST(BuilderIndex, BigStreamSplitMakesTheSerialGraph) {
  for (bool Named : {false, true}) {
    SCOPED_TRACE(Named ? "named" : "unnamed");
    // fib(24): ~150,000 tasks, past the default threshold.
    Stream S = fibStream(24, Named);
    Built Serial = build(S.PerThread, Index::Serial);
    Built Split = build(S.PerThread, Index::Default);
    Built Fallback = build(S.PerThread, Index::NoThread);
    Built GivingBack = build(S.PerThread, Index::SplitGivingBack);
    EXPECT_FALSE(Serial.Split);
    EXPECT_TRUE(Split.Split);
    EXPECT_FALSE(Fallback.Split);
    EXPECT_TRUE(GivingBack.Split);
    EXPECT_EQ(Serial.Graph.find("warning"), std::string::npos)
        << Serial.Graph.substr(Serial.Graph.find("warning"), 200);
    EXPECT_GT(Serial.Graph.size(), 1000000u);
    EXPECT_EQ(Serial.Offered, !Named);
    expectSame(Serial, Split);
    expectSame(Serial, Fallback);
    expectSame(Serial, GivingBack);
  }
}

// A target construct's node gets its bytes as its transfers come, after
// the node (and others) were made: the feed's reader would read them
// unfinished, and race with the map's growth (a crash writing nodes.csv of
// 100,000 target regions). Such a graph's nodes are not offered.
TEST(BuilderIndex, TargetConstructsAreNotFed) {
  constexpr TaskId Init = 1;
  std::map<std::uint32_t, std::vector<Event>> PerThread;
  std::vector<Event> &Ev = PerThread[0];
  Ev.push_back(Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  for (std::uint64_t I = 0; I < 3; ++I) {
    Ev.push_back(
        Event::targetBegin(0, Init, TargetKind::Target, I + 1, 0, 0x200));
    Ev.push_back(Event::targetDataOpBegin(0, Init, DataOpKind::TransferToDevice,
                                          64, 4, 0, 0x200));
    Ev.push_back(Event::targetSubmitBegin(0, Init, I + 1, 1));
    Ev.push_back(Event::targetSubmitEnd(0, Init, I + 1, 1));
    Ev.push_back(
        Event::targetEnd(0, Init, TargetKind::Target, I + 1, 0, 0x200));
  }
  Ev.push_back(Event::implicitTaskEnd(0, Init));
  Built B = build(PerThread, Index::Serial);
  EXPECT_FALSE(B.Offered);
  std::map<std::uint32_t, std::vector<Event>> Plain = PerThread;
  Plain[0] = {Ev.front(), Ev.back()};
  EXPECT_TRUE(build(Plain, Index::Serial).Offered);
}

TEST(BuilderIndex, NotATreeOnEitherIndex) {
  Stream S = fibStream(20, false);
  // Task 1001 created a second time, by the initial task (reachable: a
  // warning) and by a task no one created: not a tree, so the walk must
  // keep every item (released blocks are poisoned).
  S.add(0, Event::taskCreate(0, 1, 1001, TaskExplicit, 10));
  S.add(0, Event::taskCreate(0, 999999, 1002, TaskExplicit, 11));
  walk::BlockRelease::Poison = true;
  Built Serial = build(S.PerThread, Index::Serial);
  Built Split = build(S.PerThread, Index::Split);
  walk::BlockRelease::Poison = false;
  EXPECT_TRUE(Split.Split);
  EXPECT_NE(Serial.Graph.find("task created twice"), std::string::npos);
  expectSame(Serial, Split);
}

TEST(BuilderIndex, RandomProgramsSplitOrNotSameGraph) {
  std::size_t Splits = 0, Runs = 0;
  for (std::uint64_t Seed = 1; Seed <= 60; ++Seed) {
    testprog::Generator Gen(Seed);
    testprog::Program P = Gen.make();
    testprog::Simulator Sim(P, Seed * 104729);
    Sim.run();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    std::map<std::uint32_t, std::vector<Event>> PerThread(Sim.PerThread.begin(),
                                                          Sim.PerThread.end());
    Built Serial = build(PerThread, Index::Serial);
    Built Split = build(PerThread, Index::Split);
    expectSame(Serial, Split);
    // Every thread's events as if one thread's (in one store, so the ingest
    // counts them): the split then takes them.
    std::map<std::uint32_t, std::vector<Event>> One;
    for (const auto &[Th, Evs] : PerThread)
      One[0].insert(One[0].end(), Evs.begin(), Evs.end());
    Built OneSerial = build(One, Index::Serial);
    Built OneSplit = build(One, Index::Split);
    expectSame(OneSerial, OneSplit);
    // And dealt to two threads in runs of three events: tasks whose
    // records are in both stores (Store::MaybeUnordered: serial).
    std::map<std::uint32_t, std::vector<Event>> Dealt;
    for (std::size_t I = 0; I < One[0].size(); ++I)
      Dealt[I / 3 % 2].push_back(One[0][I]);
    Built DealtSerial = build(Dealt, Index::Serial);
    Built DealtSplit = build(Dealt, Index::Split);
    expectSame(DealtSerial, DealtSplit);
    Splits += Split.Split + OneSplit.Split + DealtSplit.Split;
    Runs += 3;
  }
  // Split where the ingest counted (one store), serial where a task's
  // records came from two threads' stores.
  EXPECT_GE(Splits, 60u);
  EXPECT_LT(Splits, Runs);
}
