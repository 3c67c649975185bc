//===- advice_test.cpp - The advice's transformations of the program -----===//
//
// Each transformation of the replayed program (advice.h) on synthetic
// programs built by hand (a recursion tree, regions forked back to back, a
// dependence chain with a redundant edge, needless taskwaits) and the
// properties that must hold whatever the program: the draft round trip
// replays as the recorded program does (random programs,
// random_programs.h); a cut-off without creation cost conserves the work
// and never shortens the span; fusing regions conserves the work and the
// barriers; removing dependence edges or taskwaits conserves the work and
// never lengthens the span; removing edges implied by others changes no
// replay at all.
//
//===----------------------------------------------------------------------===//
#include "advice.h"
#include "random_programs.h"
#include "sim_program.h"
#include "simulate.h"

#include <gtest/gtest.h>

#include <string>

using namespace otter;
using namespace otter::advice;
using sim::Step;

namespace {

constexpr std::uint32_t TaskA = 1, TaskB = 2, Wait = 3, Region = 4;

/// Builds a Draft by hand; ids are handed out in creation order, so a
/// creator's id is below its children's as in a recorded program.
struct Maker {
  Draft D;
  Maker() {
    D.Sites = {0, 0x1000, 0x2000, 0x3000, 0x4000};
    std::uint32_t Root = task(sim::FInitial);
    D.Teams.push_back({sim::NoTask, 0, 0, {Root}, {0}});
    D.Tasks[Root].Team = 0;
    D.Roots = {Root};
  }
  std::uint32_t task(std::uint8_t Flags = 0) {
    D.Tasks.emplace_back();
    D.Tasks.back().Flags = Flags;
    return std::uint32_t(D.Tasks.size() - 1);
  }
  void step(std::uint32_t T, Step S, std::uint64_t Pre, std::uint32_t Arg = 0,
            std::uint32_t Site = 0) {
    Draft::Task &K = D.Tasks[T];
    if (S == Step::Compute)
      K.Steps.push_back(std::uint64_t(S) | (Pre << 4));
    else
      K.Steps.push_back(std::uint64_t(S) | (Pre << 4) |
                        (std::uint64_t(Arg) << 32));
    K.Sites.push_back(Site);
  }
  /// A fib-like task: two children (sites TaskA, TaskB) down to Height,
  /// a taskwait, then 5 ns; a leaf computes Leaf ns.
  std::uint32_t tree(unsigned Height, std::uint64_t Leaf) {
    std::uint32_t T = task();
    if (!Height) {
      step(T, Step::End, Leaf);
      return T;
    }
    std::uint32_t A = tree(Height - 1, Leaf);
    step(T, Step::Create, 3, A, TaskA);
    std::uint32_t B = tree(Height - 1, Leaf);
    step(T, Step::Create, 3, B, TaskB);
    step(T, Step::Taskwait, 2, 0, Wait);
    step(T, Step::End, 5);
    return T;
  }
  sim::Program program() const { return build(D); }
};

/// The root creates a recursion tree of Height levels below its first
/// task and waits for it.
Draft recursion(unsigned Height, std::uint64_t Leaf) {
  Maker M;
  // The tree's tasks must come after the root's: create them first.
  std::uint32_t T = M.tree(Height, Leaf);
  M.step(0, Step::Create, 1, T, TaskA);
  M.step(0, Step::Taskwait, 1, 0, Wait);
  M.step(0, Step::End, 1);
  return draftOf(M.program()); // renumbered in pre-order
}

sim::Options ideal() {
  sim::Options O;
  O.Overheads = false;
  return O;
}

std::uint64_t makespan(const Draft &D, unsigned Cores,
                       const sim::Options &O) {
  sim::Program P = build(D);
  return sim::simulate(P, Cores, O).MakespanNs;
}

} // namespace

TEST(Advice, RecursionFamilyAndDepth) {
  Draft D = recursion(4, 100);
  auto F = recursiveFamilies(D);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0], (std::vector<std::uint32_t>{TaskA, TaskB}));
  // The root's child is depth 0, the leaves depth 4.
  EXPECT_EQ(recursionDepth(D, F[0]), 4u);
}

TEST(Advice, CutOffMakesSubtreesOneTask) {
  Draft D = recursion(4, 100);
  sim::Program Before = build(D);
  auto F = recursiveFamilies(D);
  // Depth 2: 4 tasks stay as tasks, each with its subtree (3 tasks) in it.
  Draft C = D;
  std::uint64_t Removed = cutOff(C, F[0], 2, 0);
  EXPECT_EQ(Removed, 4u * 6u);
  sim::Program After = build(C);
  EXPECT_EQ(After.ExplicitTasks, Before.ExplicitTasks - Removed);
  EXPECT_EQ(After.ComputeNs, Before.ComputeNs); // no creation cost given
  // With a creation cost: 10 ns less per task removed.
  Draft C10 = D;
  cutOff(C10, F[0], 2, 10);
  EXPECT_EQ(build(C10).ComputeNs, Before.ComputeNs - 10 * Removed);
  // Cut at the top: one task does everything.
  Draft Top = D;
  cutOff(Top, F[0], 0, 0);
  EXPECT_EQ(build(Top).ExplicitTasks, 1u);
  EXPECT_EQ(makespan(Top, 1, ideal()), Before.ComputeNs);
  // (On more cores only the root's 1 ns before its taskwait runs beside.)
  EXPECT_EQ(makespan(Top, 4, ideal()), Before.ComputeNs - 1);
}

TEST(Advice, CutOffPropertiesAtEveryDepth) {
  for (unsigned Height : {3u, 5u})
    for (std::uint64_t Leaf : {1ull, 1000ull}) {
      Draft D = recursion(Height, Leaf);
      auto F = recursiveFamilies(D);
      ASSERT_EQ(F.size(), 1u);
      std::uint64_t Work = build(D).ComputeNs;
      std::uint64_t Span = makespan(D, 1024, ideal());
      for (unsigned Depth = 0; Depth <= Height; ++Depth) {
        SCOPED_TRACE("height " + std::to_string(Height) + " depth " +
                     std::to_string(Depth));
        Draft C = D;
        cutOff(C, F[0], Depth, 0);
        // Work conserved; the span never shorter; one core: the work.
        EXPECT_EQ(build(C).ComputeNs, Work);
        EXPECT_GE(makespan(C, 1024, ideal()), Span);
        EXPECT_EQ(makespan(C, 1, ideal()), Work);
      }
    }
}

TEST(Advice, CutOffGainsWhenTasksAreTooFine) {
  // Leaves of 1 ns, 500 ns to start each task: a cut-off near the top wins
  // on 2 cores.
  Draft D = recursion(8, 1);
  sim::Options O;
  O.ScheduleNs = 500;
  std::uint64_t Before = makespan(D, 2, O);
  Draft C = D;
  cutOff(C, recursiveFamilies(D)[0], 1, 0);
  EXPECT_LT(makespan(C, 2, O), Before / 2);
}

namespace {
/// The root forks Regions teams of two back to back, 10 ns between them;
/// each member computes Work ns and waits at the region's barrier. Fork
/// 1000 ns, join 500 ns.
Draft regions(unsigned Regions, std::uint64_t Work) {
  Maker M;
  for (unsigned R = 0; R < Regions; ++R) {
    std::uint32_t TI = std::uint32_t(M.D.Teams.size());
    Draft::Team Tm;
    Tm.Enc = 0;
    Tm.ForkNs = 1000;
    Tm.JoinNs = 500;
    for (unsigned I = 0; I < 2; ++I) {
      std::uint32_t T = M.task(sim::FImplicit);
      M.D.Tasks[T].Team = TI;
      M.step(T, Step::Barrier, Work, 0, Wait);
      M.step(T, Step::End, 1);
      Tm.Members.push_back(T);
      Tm.Delay.push_back(0);
    }
    M.D.Teams.push_back(Tm);
    M.step(0, Step::Fork, 10, TI, Region);
  }
  M.step(0, Step::End, 10);
  return draftOf(M.program());
}

unsigned countSteps(const sim::Program &P, Step S) {
  unsigned N = 0;
  for (std::uint64_t W : P.Steps)
    N += sim::stepOf(W) == S;
  return N;
}
} // namespace

TEST(Advice, FuseRegionsKeepsWorkAndBarriers) {
  Draft D = regions(5, 100);
  auto Runs = regionRuns(D);
  ASSERT_EQ(Runs.size(), 1u);
  EXPECT_EQ(Runs[0].ForkSteps.size(), 5u);
  sim::Program Before = build(D);
  Draft F = D;
  EXPECT_EQ(fuseRegions(F, Runs), 4u);
  sim::Program After = build(F);
  EXPECT_EQ(countSteps(After, Step::Fork), 1u);
  EXPECT_EQ(countSteps(After, Step::Barrier), countSteps(Before, Step::Barrier));
  // The fork time of the regions fused away is gone; the code between the
  // regions is replicated in both members.
  EXPECT_EQ(After.ComputeNs, Before.ComputeNs - 4 * 1000 + 4 * 10);
  // One fork and one join instead of five: faster with the overheads.
  sim::Options O;
  EXPECT_LT(makespan(F, 2, O), makespan(D, 2, O));
  EXPECT_LE(makespan(F, 2, ideal()), makespan(D, 2, ideal()));
}

TEST(Advice, FuseRegionsNeedsEqualTeams) {
  Draft D = regions(3, 100);
  D.Teams[D.Teams.size() - 1].Members.pop_back();
  auto Runs = regionRuns(D);
  ASSERT_EQ(Runs.size(), 1u);
  EXPECT_EQ(Runs[0].ForkSteps.size(), 2u);
}

namespace {
/// The root creates Chain tasks of 100 ns (site TaskA), each depending on
/// the one before, plus an edge from the first to the third (implied).
Draft chain(unsigned Chain) {
  Maker M;
  std::vector<std::uint32_t> T;
  for (unsigned I = 0; I < Chain; ++I) {
    T.push_back(M.task());
    M.step(T.back(), Step::End, 100);
    M.step(0, Step::Create, 1, T.back(), TaskA);
    if (I)
      M.D.Tasks[T[I - 1]].Succ.push_back(T[I]);
  }
  M.D.Tasks[T[0]].Succ.push_back(T[2]);
  M.step(0, Step::Taskwait, 1, 0, Wait);
  M.step(0, Step::End, 1);
  return draftOf(M.program());
}
} // namespace

TEST(Advice, ChainAndRedundantEdges) {
  Draft D = chain(6);
  std::vector<Edge> Implied = redundantEdges(D);
  ASSERT_EQ(Implied.size(), 1u);
  // Chains: tasks whose only predecessor is the sibling before; the third
  // has two, so it heads a chain of its own: 1->2 (two tasks, too short)
  // and 3->4->5->6.
  std::vector<Edge> C = chainEdges(D, 3);
  EXPECT_EQ(C.size(), 3u);
  EXPECT_TRUE(chainEdges(D, 7).empty());
  // An implied edge delays nothing: every replay is the same without it.
  Draft R = D;
  EXPECT_EQ(removeEdges(R, Implied), 1u);
  for (unsigned Cores : {1u, 2u, 8u})
    EXPECT_EQ(makespan(R, Cores, ideal()), makespan(D, Cores, ideal()));
  // Without the chain's edges the tasks run side by side.
  Draft Free = D;
  removeEdges(Free, C);
  EXPECT_EQ(build(Free).ComputeNs, build(D).ComputeNs);
  EXPECT_LT(makespan(Free, 8, ideal()), makespan(D, 8, ideal()));
}

TEST(Advice, NeedlessTaskwaits) {
  Maker M;
  // A task whose child ran undeferred, then a taskwait; another taskwait
  // with nothing created before it; a deferred child and a taskwait at the
  // task's end.
  std::uint32_t U = M.task(sim::FImmediate), X = M.task();
  M.step(U, Step::End, 50);
  M.step(X, Step::End, 50);
  M.step(0, Step::Create, 1, U, TaskA);
  M.step(0, Step::Taskwait, 1, 0, Wait);
  M.step(0, Step::Taskwait, 1, 0, Wait);
  M.step(0, Step::Create, 1, X, TaskB);
  M.step(0, Step::Taskwait, 1, 0, Region);
  M.step(0, Step::End, 0);
  Draft D = draftOf(M.program());
  std::vector<StepRef> Idle = idleTaskwaits(D);
  ASSERT_EQ(Idle.size(), 2u);
  std::vector<StepRef> Trailing = trailingTaskwaits(D, 10);
  ASSERT_EQ(Trailing.size(), 1u);
  Draft R = D;
  EXPECT_EQ(removeTaskwaits(R, Idle), 2u);
  EXPECT_EQ(build(R).ComputeNs, build(D).ComputeNs);
  EXPECT_EQ(countSteps(build(R), Step::Taskwait), 1u);
}

TEST(AdviceProperty, TransformationsOnRandomPrograms) {
  for (std::uint64_t Seed = 1; Seed <= 150; ++Seed) {
    testprog::Generator Gen(Seed);
    testprog::Program P = Gen.make();
    testprog::Simulator Sim(P, Seed * 7919);
    Sim.run();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    sim::Program G;
    {
      sim::Recorder Rec;
      Rec.recordSites();
      for (auto &[Th, E] : Sim.Events)
        Rec.add(Th, &E, 1);
      std::string Error;
      ASSERT_TRUE(Rec.finish(G, Error));
    }
    ASSERT_EQ(G.StepSite.size(), G.Steps.size());
    Draft D = draftOf(G);
    // The round trip replays exactly as the recorded program.
    sim::Program Back = build(D);
    EXPECT_EQ(Back.ComputeNs, G.ComputeNs);
    EXPECT_EQ(Back.ExplicitTasks, G.ExplicitTasks);
    EXPECT_EQ(Back.Steps, G.Steps);
    for (unsigned Cores : {1u, 2u, 4u}) {
      EXPECT_EQ(sim::simulate(Back, Cores, sim::Options()).MakespanNs,
                sim::simulate(G, Cores, sim::Options()).MakespanNs);
    }
    std::uint64_t Span = makespan(D, 4096, ideal());
    // Implied edges: no replay changes.
    Draft R = D;
    removeEdges(R, redundantEdges(D));
    EXPECT_EQ(build(R).ComputeNs, G.ComputeNs);
    EXPECT_EQ(makespan(R, 4096, ideal()), Span);
    // Chains and taskwaits removed: the work conserved, the span never
    // longer.
    Draft C = D;
    removeEdges(C, chainEdges(D, 2));
    EXPECT_EQ(build(C).ComputeNs, G.ComputeNs);
    EXPECT_LE(makespan(C, 4096, ideal()), Span);
    Draft W = D;
    removeTaskwaits(W, idleTaskwaits(D));
    EXPECT_EQ(build(W).ComputeNs, G.ComputeNs);
    EXPECT_LE(makespan(W, 4096, ideal()), Span);
    // A cut-off at any depth of any family: the work conserved (no
    // creation cost), the span never shorter.
    for (const auto &F : recursiveFamilies(D))
      for (unsigned Depth = 0; Depth <= recursionDepth(D, F); ++Depth) {
        Draft X = D;
        cutOff(X, F, Depth, 0);
        EXPECT_EQ(build(X).ComputeNs, G.ComputeNs);
        EXPECT_GE(makespan(X, 4096, ideal()), Span);
      }
  }
}
