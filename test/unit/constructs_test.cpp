//===- constructs_test.cpp - otter/constructs.def as code ----------------===//
//
// The construct table's promises that are not a matter of counting (the
// counts are static_asserts next to each consumer): a construct's node
// pair is named after it, the sub-kinds classify as the graph rules say,
// every filter kind drops something or has events of its own, and the
// names `otter dump` and the trace's regions give a sub-kind come from the
// same row.
//
//===----------------------------------------------------------------------===//
#include "core/filter_file.h"
#include "graph/graph.h"
#include "graph/rules.h"
#include "otter/constructs.h"
#include "otter/filter_rules.h"

#include <gtest/gtest.h>

#include <string>

using namespace otter;
using rules::Construct;

namespace {

struct ConstructRow {
  Construct C;
  const char *Name;
  NodeKind Begin, End;
};
constexpr ConstructRow ConstructRows[] = {
#define OTTER_CONSTRUCT(Id, Name, B, E)                                        \
  {Construct::Id, Name, NodeKind::B, NodeKind::E},
#include "otter/constructs.def"
};

} // namespace

TEST(ConstructTable, NodePairsAreNamedAfterTheirConstruct) {
  for (const ConstructRow &R : ConstructRows) {
    EXPECT_STREQ(rules::constructName(R.C), R.Name);
    if (R.End == NodeKind::Count)
      continue;
    std::string Base = nodeKindName(R.Begin);
    ASSERT_TRUE(Base.ends_with("_begin")) << R.Name;
    Base.resize(Base.size() - 6);
    EXPECT_EQ(std::string(nodeKindName(R.End)), Base + "_end") << R.Name;
    EXPECT_EQ(Base, R.Name) << "the node pair of " << R.Name;
  }
}

TEST(ConstructTable, SubKindsClassifyAsTheRulesSay) {
  Construct C = Construct::Count;
  EXPECT_TRUE(rules::constructOfSync(SyncKind::BarrierExplicit, C));
  EXPECT_EQ(C, Construct::Barrier);
  EXPECT_TRUE(rules::constructOfSync(SyncKind::BarrierImplicitParallel, C));
  EXPECT_EQ(C, Construct::ImplicitBarrier);
  C = Construct::Task;
  EXPECT_FALSE(rules::constructOfSync(SyncKind::Reduction, C));
  EXPECT_EQ(C, Construct::Task); // untouched
  EXPECT_FALSE(rules::constructOfSync(SyncKind(99), C));
  EXPECT_TRUE(rules::isBarrier(SyncKind::Barrier));
  EXPECT_TRUE(rules::isBarrier(SyncKind::BarrierTeams));
  EXPECT_FALSE(rules::isBarrier(SyncKind::Taskwait));
  EXPECT_FALSE(rules::isBarrier(SyncKind::Reduction));
  EXPECT_FALSE(rules::isBarrier(SyncKind(0)));
  EXPECT_EQ(rules::constructOfWork(WorkKind::LoopGuided), Construct::Loop);
  EXPECT_EQ(rules::constructOfWork(WorkKind::SingleOther), Construct::Single);
  EXPECT_EQ(rules::constructOfWork(WorkKind::Distribute), Construct::Workshare);
  EXPECT_EQ(rules::constructOfWork(WorkKind(9)), Construct::Workshare);
  EXPECT_EQ(rules::constructOfMutex(MutexKind::TestNestLock),
            Construct::NestLock);
  EXPECT_EQ(rules::constructOfMutex(MutexKind(0)), Construct::Count);
}

TEST(ConstructTable, DumpAndRegionNamesComeFromOneRow) {
  // OMPT's name says which value; the region's may be shared.
  EXPECT_STREQ(constructs::omptSyncName(3), "barrier_explicit");
  EXPECT_STREQ(constructs::syncRegionName(3), "barrier");
  EXPECT_STREQ(constructs::omptWorkName(11), "loop_dynamic");
  EXPECT_STREQ(constructs::workRegionName(11), "loop");
  EXPECT_STREQ(constructs::omptMutexName(2), "test_lock");
  EXPECT_STREQ(constructs::mutexRegionName(2), "lock");
  EXPECT_EQ(constructs::omptSyncName(0), nullptr);
  EXPECT_EQ(constructs::omptWorkName(9), nullptr);
  EXPECT_EQ(constructs::mutexRegionName(8), nullptr);
  // A value has both names or neither.
  for (unsigned V = 0; V < 32; ++V) {
    EXPECT_EQ(!constructs::syncRegionName(V), !constructs::omptSyncName(V));
    EXPECT_EQ(!constructs::workRegionName(V), !constructs::omptWorkName(V));
    EXPECT_EQ(!constructs::mutexRegionName(V), !constructs::omptMutexName(V));
  }
}

TEST(ConstructTable, EveryFilterKindDropsSomething) {
  using filter_rules::ConstructKind;
  filter::Rules None;
  for (std::size_t K = 0; K < std::size_t(ConstructKind::Count); ++K) {
    std::string Name = filter_rules::constructKindName(ConstructKind(K));
    filter_rules::RuleSet Set;
    std::string Error;
    ASSERT_TRUE(filter_rules::parse("exclude kind " + Name + "\n", "t", Set,
                                    Error))
        << Error;
    filter::Rules R;
    filter::addKindRules(Set, R);
    bool Drops = R.Groups != None.Groups;
    for (std::size_t E = 0; E < std::size(R.Subs); ++E)
      Drops = Drops || R.Subs[E] != None.Subs[E];
    EXPECT_TRUE(Drops) << "exclude kind " << Name << " drops nothing";
  }
}
