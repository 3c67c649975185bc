//===- graph_layout_test.cpp - The graph's compact layout and its limits --===//
//
// Node is 16 bytes (a 16-bit thread number), Edge 8 (a 30-bit target and a
// 2-bit kind): past those limits making one throws a one-line
// std::length_error, never truncates. And the walk gives each block of its
// items and per-task entries back once every task that reads it is emitted
// (graph/builder_walk.h, BlockRelease): on a stream big enough to release
// blocks mid-walk, with released blocks poisoned, the graph equals the one
// of the same stream made not a tree (so that nothing is released).
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "graph/builder_walk.h"
#include "graph/writers.h"
#include "test_streams.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace otter;
using otter::testutil::labelOf;

namespace {

TEST(GraphLayout, NodeThreadHolds16BitsAndRefusesMore) {
  EXPECT_EQ(sizeof(Node), 16u);
  EXPECT_EQ(std::uint32_t(NodeThread()), NoThread);
  EXPECT_EQ(std::uint32_t(NodeThread(NoThread)), NoThread);
  EXPECT_EQ(std::uint32_t(NodeThread(0)), 0u);
  EXPECT_EQ(std::uint32_t(NodeThread(MaxNodeThread)), MaxNodeThread);
  try {
    NodeThread T(MaxNodeThread + 1);
    FAIL() << "made a node thread " << std::uint32_t(T);
  } catch (const std::length_error &E) {
    EXPECT_STREQ(E.what(), "thread number 65535 is past 65,534, the graph's "
                           "limit (docs/graph.md, \"Limits\")");
  }
  EXPECT_THROW(NodeThread(70000), std::length_error);
}

TEST(GraphLayout, EdgeHolds30BitTargetsAndRefusesMore) {
  EXPECT_EQ(sizeof(Edge), 8u);
  for (EdgeKind K : {EdgeKind::Create, EdgeKind::Sync, EdgeKind::Dependence,
                     EdgeKind::Scope}) {
    Edge E(NodeId(MaxNodes - 2), NodeId(MaxNodes - 1), K);
    EXPECT_EQ(E.Source, MaxNodes - 2);
    EXPECT_EQ(E.Target, MaxNodes - 1);
    EXPECT_EQ(E.kind(), K);
  }
  try {
    Edge E(0, NodeId(MaxNodes), EdgeKind::Scope);
    FAIL() << "made an edge to " << E.Target;
  } catch (const std::length_error &E) {
    EXPECT_STREQ(E.what(), "more than 1,073,741,824 nodes, the graph's limit "
                           "(docs/graph.md, \"Limits\")");
  }
}

TEST(GraphLayout, EdgeKeyIsSourceTargetKind) {
  Edge E(0x12345, 0x3fffffff, EdgeKind::Scope);
  EXPECT_EQ(E.key(), (std::uint64_t(0x12345) << 32) |
                         (std::uint64_t(0x3fffffff) << 2) |
                         std::uint64_t(EdgeKind::Scope));
  EXPECT_EQ(Edge(7, 0, EdgeKind::Sync).key(),
            (std::uint64_t(7) << 32) | std::uint64_t(EdgeKind::Sync));
}

/// operator< and sortEdges (the builder's radix sort) order edges as the
/// tuple (source, target, kind) does, on edges of few and of many distinct
/// values, with duplicates, below and above the insertion sort's size.
TEST(GraphLayout, EdgesOrderBySourceTargetKind) {
  auto Tuple = [](const Edge &E) {
    return std::make_tuple(E.Source, NodeId(E.Target), E.kind());
  };
  std::mt19937_64 Rng(7);
  for (std::size_t N : {0, 1, 2, 40, 2000, 300000})
    for (std::uint64_t Range : {std::uint64_t(50), std::uint64_t(MaxNodes)}) {
      std::vector<Edge> Edges;
      for (std::size_t I = 0; I < N; ++I)
        Edges.push_back({NodeId(Rng() % Range), NodeId(Rng() % Range),
                         EdgeKind(Rng() % 4)});
      std::vector<Edge> Less = Edges, Radix = Edges;
      std::sort(Less.begin(), Less.end());
      sortEdges(Radix);
      std::sort(Edges.begin(), Edges.end(), [&](const Edge &A, const Edge &B) {
        return Tuple(A) < Tuple(B);
      });
      ASSERT_EQ(Radix.size(), N);
      for (std::size_t I = 0; I < N; ++I) {
        ASSERT_EQ(Tuple(Edges[I]), Tuple(Less[I])) << N << ' ' << I;
        ASSERT_EQ(Tuple(Edges[I]), Tuple(Radix[I])) << N << ' ' << I;
      }
    }
}

/// The shapes sortEdges meets: edges made in the walk's order (by target,
/// each source earlier), and a source with most of the edges (a bucket
/// bigger than the sort's scratch, and one within it), in order and
/// reversed.
TEST(GraphLayout, EdgesOrderOnWalkShapes) {
  std::mt19937_64 Rng(11);
  std::vector<std::vector<Edge>> Cases;
  std::vector<Edge> Walk;
  for (NodeId T = 1; T < 400000; ++T) {
    Walk.push_back({NodeId(Rng() % T), T, EdgeKind(Rng() % 4)});
    if (T % 3 == 0)
      Walk.push_back({T - 1, T, EdgeKind::Sync});
  }
  Cases.push_back(Walk);
  std::vector<Edge> Star;
  for (NodeId T = 0; T < 300000; ++T)
    Star.push_back({5, T, EdgeKind::Create});
  for (NodeId T = 0; T < 1000; ++T)
    Star.push_back({NodeId(Rng() % 1000000), T, EdgeKind::Sync});
  Cases.push_back(Star);
  std::reverse(Star.begin(), Star.end());
  Cases.push_back(Star);
  // Within the scratch: a long run out of order.
  Star.resize(20000);
  Cases.push_back(Star);
  for (std::vector<Edge> &Edges : Cases) {
    std::vector<Edge> Less = Edges;
    std::sort(Less.begin(), Less.end());
    sortEdges(Edges);
    ASSERT_EQ(Edges.size(), Less.size());
    for (std::size_t I = 0; I < Edges.size(); ++I)
      ASSERT_EQ(Edges[I].key(), Less[I].key()) << I;
  }
}

/// With the canonical graph its events build.
struct Stream : testutil::ThreadStreams {
  std::string graph() const {
    GraphBuilder B(labelOf);
    for (const auto &[Th, Evs] : PerThread)
      B.addEvents(Th, Evs.data(), Evs.size());
    Graph G = B.build();
    std::ostringstream OS;
    writeCanonical(G, OS);
    for (const std::string &W : G.Warnings)
      OS << "warning: " << W << '\n';
    return OS.str();
  }
};

/// fib(N) as bench/fib.c does it (two tasks, a taskwait), each task run on
/// a random one of two threads.
void fib(Stream &S, std::mt19937 &Rng, std::uint32_t Th, TaskId T, int N,
         TaskId &Next) {
  if (N < 2)
    return;
  TaskId A = Next++, B = Next++;
  S.add(Th, Event::taskCreate(0, T, A, TaskExplicit, 10));
  S.add(Th, Event::taskCreate(0, T, B, TaskExplicit, 11));
  for (auto [C, M] : {std::pair{A, N - 1}, std::pair{B, N - 2}}) {
    std::uint32_t Ran = Rng() % 2;
    S.add(Ran, Event::taskSchedule(0, 0, ScheduleStatus::Switch, C));
    fib(S, Rng, Ran, C, M, Next);
  }
  S.add(Th, Event::syncBegin(0, T, 0, SyncKind::Taskwait, 12));
  S.add(Th, Event::syncEnd(0, T, 0, SyncKind::Taskwait, 12));
}

/// A team of two (so both members' subtrees are hashed first), member 0
/// runs fib(22): 57,313 tasks (four blocks of per-task entries), ~86,000
/// items (eleven blocks).
Stream fibStream() {
  Stream S;
  std::mt19937 Rng(11);
  S.add(0, Event::implicitTaskBegin(0, 1, 0, 1, 0, TaskInitial));
  S.add(0, Event::parallelBegin(0, 1, 7, 2, 0, 20));
  for (std::uint32_t I = 0; I < 2; ++I)
    S.add(I, Event::implicitTaskBegin(0, 100 + I, 7, 2, std::uint16_t(I),
                                      TaskImplicit));
  TaskId Next = 1000, Root = Next++;
  S.add(0, Event::taskCreate(0, 100, Root, TaskExplicit, 13));
  S.add(1, Event::taskSchedule(0, 0, ScheduleStatus::Switch, Root));
  fib(S, Rng, 1, Root, 22, Next);
  for (std::uint32_t I = 0; I < 2; ++I) {
    S.add(I, Event::syncBegin(0, 100 + I, 7, SyncKind::BarrierImplicitParallel,
                              I == 0 ? 20 : 0));
    S.add(I, Event::syncEnd(0, 100 + I, 7, SyncKind::BarrierImplicitParallel,
                            I == 0 ? 20 : 0));
  }
  S.add(0, Event::parallelEnd(0, 1, 7, 20));
  return S;
}

TEST(GraphLayout, ItemsReleasedAsTheWalkGoesAreNotReadAgain) {
  Stream S = fibStream();
  walk::BlockRelease::Poison = true;
  std::string Released = S.graph();
  // A task no one created creates task 1001 a second time: not a tree, so
  // the walk keeps every item; the unreachable task changes nothing else
  // (same flags and code as the first creation).
  S.add(1, Event::taskCreate(0, 999999, 1001, TaskExplicit, 10));
  std::string Kept = S.graph();
  walk::BlockRelease::Poison = false;
  EXPECT_EQ(Released.find("warning"), std::string::npos) << Released;
  EXPECT_GT(Released.size(), 1000000u);
  // (Not EXPECT_EQ: a megabyte each.) The first line that differs.
  std::size_t At =
      std::mismatch(Released.begin(), Released.end(), Kept.begin(), Kept.end())
          .first -
      Released.begin();
  std::size_t Line = Released.rfind('\n', At) + 1; // npos + 1 == 0
  EXPECT_TRUE(Released == Kept) << "from: " << Released.substr(Line, 200)
                                << "\nnot: " << Kept.substr(Line, 200);
}

TEST(GraphLayout, AThreadPastTheLimitFailsTheBuildWithOneLine) {
  Stream S;
  S.add(70000, Event::implicitTaskBegin(0, 1, 0, 1, 0, TaskInitial));
  S.add(70000, Event::syncBegin(0, 1, 0, SyncKind::BarrierExplicit, 5));
  GraphBuilder B(labelOf);
  for (const auto &[Th, Evs] : S.PerThread)
    B.addEvents(Th, Evs.data(), Evs.size());
  try {
    B.build();
    FAIL() << "built a graph with thread 70000";
  } catch (const std::length_error &E) {
    EXPECT_STREQ(E.what(), "thread number 70000 is past 65,534, the graph's "
                           "limit (docs/graph.md, \"Limits\")");
  }
}

} // namespace
