//===- node_feed_test.cpp - nodes.csv written while the walk runs ---------===//
//
// GraphBuilder::Hooks::WalkStarts lets another thread write the nodes'
// table while the walk makes the nodes (graph/node_feed.h). The table must
// be the one written from the finished graph: on random programs, on a
// program of tens of thousands of nodes (published in batches, with labels
// added while the reader reads), and when the nodes move under the feed
// (NodeFeed::grow). Named Builder* so that scripts/sanitize.sh tsan runs
// them.
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "graph/node_feed.h"
#include "graph/writers.h"
#include "random_programs.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>

using namespace otter;
using namespace otter::testprog;

namespace {

SourceLabel labelOf(std::uint64_t Code) {
  SourceLabel L;
  L.Location = "c+" + std::to_string(Code);
  L.File = "f" + std::to_string(Code % 5) + ".c";
  L.Line = unsigned(Code % 97);
  L.RegionId = Code;
  return L;
}

/// Builds B's graph with the nodes' table written through the feed while
/// the walk runs (Fed: whether the walk offered the feed) and returns
/// (that table, the table written from the finished graph).
std::pair<std::string, std::string> bothTables(GraphBuilder &B, bool &Fed) {
  Graph G;
  NodeFeed Feed;
  std::ostringstream During;
  std::thread Reader;
  GraphBuilder::Hooks H;
  H.WalkStarts = [&](Graph &Out, std::size_t) {
    Reader = std::thread([&] { writeNodesCsvFed(Out, Feed, During); });
    return &Feed;
  };
  B.build(G, H);
  Fed = Reader.joinable();
  if (Reader.joinable())
    Reader.join();
  std::ostringstream After;
  writeNodesCsv(G, After);
  return {During.str(), After.str()};
}

} // namespace

TEST(BuilderNodeFeed, RandomProgramsSameTable) {
  std::size_t Fed = 0;
  for (std::uint64_t Seed = 1; Seed <= 60; ++Seed) {
    Generator Gen(Seed);
    Program P = Gen.make();
    Simulator Sim(P, Seed * 7919);
    Sim.run();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    GraphBuilder B(labelOf);
    for (const auto &[Th, Events] : Sim.PerThread)
      B.addEvents(Th, Events.data(), Events.size());
    bool WasFed = false;
    auto [During, After] = bothTables(B, WasFed);
    Fed += WasFed;
    if (WasFed) {
      ASSERT_EQ(During, After);
    }
  }
  EXPECT_GT(Fed, 30u);
}

TEST(BuilderNodeFeed, ManyNodesInBatchesSameTable) {
  // An initial task creating 30,000 tasks, with a taskwait every 100; the
  // tasks' code addresses are many, so labels are added while the reader
  // reads rows.
  std::vector<Event> E;
  std::uint32_t Seq = 0;
  auto add = [&](Event Ev, std::uint32_t S) {
    Ev.Time = E.size() + 1;
    Ev.Seq = S;
    E.push_back(Ev);
  };
  const TaskId Init = 1;
  add(Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial), Seq++);
  for (std::uint32_t I = 0; I < 30000; ++I) {
    TaskId Child = 1000 + I;
    add(Event::taskCreate(0, Init, Child, TaskExplicit, 0x100 + (I % 300) * 16),
        Seq++);
    add(Event::taskSchedule(0, Init, ScheduleStatus::Switch, Child), Seq);
    if (I % 100 == 99) {
      add(Event::syncBegin(0, Init, 0, SyncKind::Taskwait, 0x40), Seq++);
      add(Event::syncEnd(0, Init, 0, SyncKind::Taskwait, 0x40), Seq++);
    }
  }
  GraphBuilder B(labelOf);
  B.addEvents(0, E.data(), E.size());
  bool Fed = false;
  auto [During, After] = bothTables(B, Fed);
  EXPECT_TRUE(Fed);
  EXPECT_GT(std::count(After.begin(), After.end(), '\n'), 30000);
  EXPECT_EQ(During, After);
}

TEST(BuilderNodeFeed, NodesThatMoveAreReadAfterTheyMoved) {
  // The walk's side of the protocol (GraphBuilder's addNode) with a
  // reservation far too small: the nodes move many times while read.
  Graph G;
  G.Labels.push_back(SourceLabel{});
  G.Nodes.reserve(3);
  NodeFeed Feed;
  std::ostringstream During;
  std::thread Reader([&] { writeNodesCsvFed(G, Feed, During); });
  for (std::uint32_t I = 0; I < 50000; ++I) {
    if (I % 1000 == 0) {
      std::lock_guard<std::mutex> L(Feed.labelsLock());
      G.Labels.push_back(labelOf(I));
    }
    Node N;
    N.Kind = I % 2 ? NodeKind::Task : NodeKind::Taskwait;
    N.Parent = I ? I - 1 : NoNode;
    N.Thread = I % 3;
    N.Label = std::uint32_t(G.Labels.size() - 1);
    std::size_t Final = G.Nodes.size();
    if (Final == G.Nodes.capacity())
      Feed.grow(Final);
    else if (Final % NodeFeed::Batch == 0)
      Feed.publish(Final - (Final != 0));
    G.Nodes.push_back(N);
  }
  Feed.finish(G.Nodes.size());
  Reader.join();
  std::ostringstream After;
  writeNodesCsv(G, After);
  EXPECT_EQ(During.str(), After.str());
}
