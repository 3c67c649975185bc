//===- analysis_property_test.cpp - work and span against brute force ----===//
//
// Random small OpenMP programs, executed by a simple simulator that writes
// the events the OMPT adapter would record, with random schedules
// (random_programs.h). For each:
//  - work and span equal those of the program's task graph built here
//    independently (each computation a node weighted by its time, OpenMP's
//    edges from the program's text, dependences between every conflicting
//    pair of siblings), the span found by enumerating every path;
//  - the region's work and span likewise, and span <= work, for the
//    program and for the region;
//  - the burdened span (each explicit task paying a burden b before it
//    starts, each region's members starting after its fork time and the
//    join taking its join time) equals the heaviest path of the burdened
//    graph, for a given b, for the program and for the region; with the
//    burden measured in the trace, it lies between the span and the
//    burdened graph's heaviest path;
//  - the analysis links exactly the dependence edges the graph builder
//    makes (they share graph/rules.h);
// and the case that showed the span > work drift (a team whose primary
// starts its implicit task long after the fork) is checked by hand.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "graph/builder.h"
#include "random_programs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>

using namespace otter;
using namespace otter::analysis;
using namespace otter::testprog;

namespace {

class CountDependences final : public Observer {
public:
  std::uint64_t Edges = 0;
  void task(std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
            std::uint64_t, std::uint64_t) override {}
  void construct(std::uint32_t, Kind, std::uint64_t, std::uint64_t,
                 std::uint64_t) override {}
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void constructEdge(std::uint64_t, Kind, std::uint64_t, Kind,
                     const char *EdgeKind) override {
    Edges += std::string(EdgeKind) == "dependence";
  }
};

const ConstructStats *region(const Result &R) {
  for (const ConstructStats &C : R.Constructs)
    if (C.K == Kind::Parallel)
      return &C;
  return nullptr;
}

} // namespace

TEST(AnalysisProperty, WorkAndSpanEqualBruteForceOnRandomPrograms) {
  std::uint64_t MaxPaths = 0, WithDeps = 0, Measured = 0;
  for (std::uint64_t Seed = 1; Seed <= 400; ++Seed) {
    Generator Gen(Seed);
    Program P = Gen.make();
    Oracle O(P);
    O.build();
    std::uint64_t Paths = 0;
    std::uint64_t Span = O.G.heaviest(O.Source, false, Paths);
    std::uint64_t RegionSpan = 0;
    for (int S : O.MemberStarts)
      RegionSpan = std::max(RegionSpan, O.G.heaviest(S, true, Paths));
    MaxPaths = std::max(MaxPaths, Paths);
    // The burdened graph's: the program's, and the region's from the fork
    // (its time, then the members) plus the join.
    std::uint64_t BSpan = O.G.heaviest(O.Source, false, Paths, true);
    std::uint64_t RegionBSpan =
        O.G.heaviest(O.Startup, true, Paths, true) + P.JoinNs;
    std::uint64_t Work = 0, RegionWork = 0;
    for (std::size_t N = 0; N < O.G.W.size(); ++N) {
      Work += O.G.W[N];
      RegionWork += O.G.InRegion[N] ? O.G.W[N] : 0;
    }

    Simulator Sim(P, Seed * 7919);
    Sim.run();
    CountDependences Deps;
    Analyzer A;
    A.setObserver(&Deps);
    A.setBurden(double(P.Burden));
    for (auto &[Th, E] : Sim.Events)
      A.add(Th, E);
    Result R = A.finish();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    ASSERT_TRUE(R.Warnings.empty()) << R.Warnings[0];
    EXPECT_EQ(R.WorkNs, Work);
    EXPECT_EQ(R.SpanNs, Span);
    EXPECT_LE(R.SpanNs, R.WorkNs);
    const ConstructStats *Reg = region(R);
    ASSERT_NE(Reg, nullptr);
    EXPECT_EQ(Reg->RegionWorkNs, RegionWork);
    EXPECT_EQ(Reg->RegionSpanNs, RegionSpan);
    EXPECT_LE(Reg->RegionSpanNs, Reg->RegionWorkNs);
    EXPECT_EQ(Reg->RegionForkNs, P.ForkNs);
    EXPECT_EQ(Reg->RegionJoinNs, P.JoinNs);
    // The burdened span, with the burden given: exact.
    EXPECT_EQ(R.BurdenNs, double(P.Burden));
    EXPECT_EQ(R.burdenedSpanNs(), double(BSpan));
    EXPECT_EQ(R.regionBurdenedSpanNs(*Reg), double(RegionBSpan));
    EXPECT_GE(R.burdenedSpanNs(), double(R.SpanNs));
    EXPECT_GE(R.regionBurdenedSpanNs(*Reg), double(Reg->RegionSpanNs));
    // With the burden measured in the trace (the scheduling cost,
    // compared as measured so far): a real path of the burdened graph, so
    // between the span and the heaviest one.
    {
      Analyzer M;
      for (auto &[Th, E] : Sim.Events)
        M.add(Th, E);
      Result RM = M.finish();
      EXPECT_EQ(RM.SpanNs, R.SpanNs);
      EXPECT_EQ(RM.BurdenNs, RM.ScheduleCostNs);
      Measured += RM.BurdenNs > 0;
      Program Q = P;
      // (a percentile is a bucket's midpoint: maybe not a whole ns)
      Q.Burden = std::uint64_t(std::ceil(RM.BurdenNs));
      Oracle OM(Q);
      OM.build();
      std::uint64_t PathsM = 0;
      EXPECT_GE(RM.burdenedSpanNs(), double(RM.SpanNs));
      EXPECT_LE(RM.burdenedSpanNs(),
                double(OM.G.heaviest(OM.Source, false, PathsM, true)));
    }

    // The graph builder, fed the same events per thread, makes the
    // dependence edges the analysis linked.
    GraphBuilder B([](std::uint64_t) { return SourceLabel{}; });
    for (auto &[Th, V] : Sim.PerThread)
      B.addEvents(Th, V.data(), V.size());
    Graph G = B.build();
    ASSERT_TRUE(G.Warnings.empty()) << G.Warnings[0];
    std::uint64_t GraphDeps = 0;
    for (const Edge &E : G.Edges)
      GraphDeps += E.kind() == EdgeKind::Dependence;
    EXPECT_EQ(Deps.Edges, GraphDeps);
    WithDeps += GraphDeps > 0;
    if (HasFailure())
      break;
  }
  // The programs are small enough to enumerate every path, and exercise
  // dependences.
  EXPECT_LT(MaxPaths, 10000000u);
  EXPECT_GT(WithDeps, 100u);
  // and the burden measured is not always 0 (a low percentile of the
  // dispatch latencies: 0 in programs whose simulated schedule starts most
  // tasks on the event after the one before).
  EXPECT_GT(Measured, 50u);
}

/// The case that showed the drift: `#pragma omp parallel` with a `master`
/// block; the worker starts at once, the primary's implicit task 143 us
/// after the fork (libomp starting the team). Before, the members started
/// from the encountering task's path when each began, so the region's span
/// (143 us + 4 us) exceeded its work (8.5 us).
TEST(AnalysisProperty, ForkTimeIsNotInTheRegionSpan) {
  constexpr TaskId Init = 1, I0 = 2, I1 = 3;
  constexpr ParallelId Par = 9;
  std::vector<std::pair<std::uint32_t, Event>> S;
  auto at = [&](std::uint32_t Th, std::uint64_t T, Event E,
                bool Folded = false) {
    E.Time = T;
    if (Folded)
      E.foldWait();
    S.push_back({Th, E});
  };
  auto Bar = SyncKind::BarrierImplicitParallel;
  at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  at(0, 1000, Event::parallelBegin(0, Init, Par, 2, 0, 0x500));
  // The worker starts 2 us after the fork, runs 4.5 us, waits.
  at(1, 3000, Event::implicitTaskBegin(0, I1, Par, 2, 1, TaskImplicit));
  at(1, 7500, Event::syncBegin(0, I1, Par, Bar, 0), true);
  // The primary starts 143 us after the fork: the master block, 4 us.
  at(0, 144000, Event::implicitTaskBegin(0, I0, Par, 2, 0, TaskImplicit));
  at(0, 144000, Event::maskedBegin(0, I0, 0x510));
  at(0, 148000, Event::maskedEnd(0, I0, 0x510));
  at(0, 148000, Event::syncBegin(0, I0, Par, Bar, 0x500), true);
  at(0, 148100, Event::syncEnd(0, I0, Par, Bar, 0x500), true);
  at(1, 148100, Event::syncEnd(0, I1, Par, Bar, 0), true);
  at(0, 148100, Event::implicitTaskEnd(0, I0));
  at(1, 148100, Event::implicitTaskEnd(0, I1));
  at(0, 148200, Event::parallelEnd(0, Init, Par, 0x500));
  at(0, 150000, Event::implicitTaskEnd(0, Init));
  std::stable_sort(S.begin(), S.end(), [](const auto &A, const auto &B) {
    return A.second.Time < B.second.Time;
  });
  Analyzer A;
  for (auto &[Th, E] : S)
    A.add(Th, E);
  Result R = A.finish();
  const ConstructStats *Reg = region(R);
  ASSERT_NE(Reg, nullptr);
  // Region work: the worker's 4.5 us and the primary's 4 us.
  EXPECT_EQ(Reg->RegionWorkNs, 8500u);
  // Region span: the longer member, from the fork: 4.5 us.
  EXPECT_EQ(Reg->RegionSpanNs, 4500u);
  EXPECT_LE(Reg->RegionSpanNs, Reg->RegionWorkNs);
  // The 143 us of start-up: the region's fork time, the initial task's
  // execution (work), and on the span beside the region: 1 + 143 + 1.8 us.
  EXPECT_EQ(Reg->RegionForkNs, 143000u);
  EXPECT_EQ(R.WorkNs, 1000u + 143000u + 8500u + 1800u);
  EXPECT_EQ(R.SpanNs, 1000u + 143000u + 1800u);
  EXPECT_LE(R.SpanNs, R.WorkNs);
  // The start-up is the burdened span's: the members after the fork time
  // (143 us + the longer member, 4.5 us), then the join (the primary's end
  // to the region's end, 0.1 us); no explicit task pays a burden.
  EXPECT_EQ(Reg->RegionJoinNs, 100u);
  EXPECT_EQ(R.regionBurdenedSpanNs(*Reg), 143000.0 + 4500 + 100);
  EXPECT_EQ(R.burdenedSpanNs(), 1000.0 + 143000 + 4500 + 100 + 1800);
}
