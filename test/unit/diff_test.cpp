//===- diff_test.cpp - otter diff: matching and comparing two runs --------===//
//
// Two synthetic analysis results whose constructs sit at different code
// addresses (two builds), labelled by hand: matched by region id, by
// file:line when one run has no region id, by location last; an ambiguous
// file:line stays unmatched; the rest is listed as only in one run; rows
// sorted by impact; the critical path's time goes to its construct.
//
//===----------------------------------------------------------------------===//
#include "diff.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

using namespace otter;
using namespace otter::analysis;

namespace {

ConstructStats stat(std::uint64_t Code, Kind K, std::uint64_t N,
                    std::uint64_t Total, std::uint64_t Wait = 0) {
  ConstructStats S;
  S.Code = Code;
  S.K = K;
  S.Instances = N;
  S.TotalNs = Total;
  S.WaitNs = Wait;
  return S;
}

SourceLabel label(std::uint64_t Id, const char *File, unsigned Line,
                  const char *Loc = "") {
  SourceLabel L;
  L.RegionId = Id;
  L.File = File;
  L.Line = Line;
  L.Location = Loc;
  return L;
}

LabelFn labels(std::map<std::uint64_t, SourceLabel> M) {
  return [M](std::uint64_t Code) {
    auto It = M.find(Code);
    return It == M.end() ? SourceLabel{} : It->second;
  };
}

const diff::Row *find(const std::vector<diff::Row> &V, const char *Where,
                      Kind K) {
  for (const diff::Row &R : V)
    if (R.Where == Where && R.K == K)
      return &R;
  return nullptr;
}

} // namespace

TEST(Diff, MatchesByRegionIdThenFileLineThenLocation) {
  Result A, B;
  A.WorkNs = 1000;
  B.WorkNs = 700;
  A.FirstTime = 0, A.LastTime = 900;
  B.FirstTime = 0, B.LastTime = 600;
  // A task construct: region id 7 in both, other addresses (a rebuild).
  A.Constructs.push_back(stat(0x100, Kind::Task, 10, 500));
  B.Constructs.push_back(stat(0x900, Kind::Task, 10, 300));
  // A taskwait: region id in A only (B built without the plugin but
  // symbolized): by file:line.
  A.Constructs.push_back(stat(0x110, Kind::Taskwait, 5, 50, 40));
  B.Constructs.push_back(stat(0x910, Kind::Taskwait, 5, 250, 240));
  // A lock with only a location in both: by location.
  A.Constructs.push_back(stat(0x120, Kind::Lock, 3, 30));
  B.Constructs.push_back(stat(0x920, Kind::Lock, 4, 35));
  // Two loop directives on one line: two region ids in A; in B, built
  // without the plugin, one construct (as otter summary groups them by
  // file:line). Which of A's is B's is ambiguous: unmatched.
  A.Constructs.push_back(stat(0x130, Kind::Loop, 1, 10));
  A.Constructs.push_back(stat(0x131, Kind::Loop, 1, 20));
  B.Constructs.push_back(stat(0x930, Kind::Loop, 1, 10));
  B.Constructs.push_back(stat(0x931, Kind::Loop, 1, 20));
  // Two barriers at one line, no region ids in either run: one construct
  // each (grouped by file:line), matched.
  A.Constructs.push_back(stat(0x150, Kind::Barrier, 1, 5));
  A.Constructs.push_back(stat(0x151, Kind::Barrier, 1, 6));
  B.Constructs.push_back(stat(0x950, Kind::Barrier, 1, 7));
  B.Constructs.push_back(stat(0x951, Kind::Barrier, 1, 8));
  // A critical section only in B.
  B.Constructs.push_back(stat(0x940, Kind::Critical, 2, 80));
  // The critical path: the task construct, 200 ns in A, 100 in B.
  A.CriticalPath.push_back({0x100, Kind::Task, 200, 2});
  B.CriticalPath.push_back({0x900, Kind::Task, 100, 2});
  LabelFn LA = labels({{0x100, label(7, "p.c", 10)},
                       {0x110, label(8, "p.c", 12)},
                       {0x120, label(0, "", 0, "libx.so+0x40")},
                       {0x130, label(11, "p.c", 20)},
                       {0x131, label(12, "p.c", 20)},
                       {0x150, label(0, "p.c", 40)},
                       {0x151, label(0, "p.c", 40)}});
  LabelFn LB = labels({{0x900, label(7, "p.c", 10)},
                       {0x910, label(0, "p.c", 12)},
                       {0x920, label(0, "", 0, "libx.so+0x40")},
                       {0x930, label(0, "p.c", 20)},
                       {0x931, label(0, "p.c", 20)},
                       {0x940, label(9, "p.c", 30)},
                       {0x950, label(0, "p.c", 40)},
                       {0x951, label(0, "p.c", 40)}});
  diff::Result D = diff::compare(A, LA, B, LB);
  EXPECT_EQ(D.A.WorkNs, 1000u);
  EXPECT_EQ(D.B.RunNs, 600u);
  ASSERT_EQ(D.Rows.size(), 4u);
  const diff::Row *Task = find(D.Rows, "p.c:10", Kind::Task);
  ASSERT_NE(Task, nullptr);
  EXPECT_STREQ(Task->Match, "region_id");
  EXPECT_EQ(Task->A.TimeNs, 500u);
  EXPECT_EQ(Task->B.TimeNs, 300u);
  EXPECT_EQ(Task->A.WorkNs, 500u);
  EXPECT_EQ(Task->A.SpanNs, 200u);
  EXPECT_EQ(Task->B.SpanNs, 100u);
  EXPECT_EQ(Task->ImpactNs, 200u); // time -200, span -100
  const diff::Row *Wait = find(D.Rows, "p.c:12", Kind::Taskwait);
  ASSERT_NE(Wait, nullptr);
  EXPECT_STREQ(Wait->Match, "file:line");
  EXPECT_EQ(Wait->B.WaitNs, 240u);
  EXPECT_EQ(Wait->ImpactNs, 200u); // time +200, wait +200
  const diff::Row *Lock = find(D.Rows, "~libx.so+0x40", Kind::Lock);
  ASSERT_NE(Lock, nullptr);
  EXPECT_STREQ(Lock->Match, "location");
  EXPECT_EQ(Lock->B.Count, 4u);
  const diff::Row *Bar = find(D.Rows, "p.c:40", Kind::Barrier);
  ASSERT_NE(Bar, nullptr);
  EXPECT_STREQ(Bar->Match, "file:line");
  EXPECT_EQ(Bar->A.TimeNs, 11u);
  EXPECT_EQ(Bar->B.TimeNs, 15u);
  EXPECT_EQ(Bar->B.Count, 2u);
  // By impact, ties by where: the task (p.c:10) before the taskwait.
  EXPECT_EQ(&D.Rows[0], Task);
  EXPECT_EQ(&D.Rows[1], Wait);
  EXPECT_EQ(&D.Rows[2], Lock);
  EXPECT_EQ(&D.Rows[3], Bar);
  // The ambiguous loops and the critical section are listed apart.
  EXPECT_EQ(D.OnlyA.size(), 2u);
  ASSERT_EQ(D.OnlyB.size(), 2u);
  EXPECT_EQ(D.OnlyB[0].K, Kind::Critical); // the largest first
  EXPECT_EQ(D.OnlyB[0].RegionIdB, 9u);
  // Text and JSON.
  std::ostringstream T, J;
  diff::print(D, false, T, 30, "a", "b");
  diff::print(D, true, J, 30, "a", "b");
  EXPECT_NE(T.str().find("only in B:"), std::string::npos);
  EXPECT_NE(T.str().find("(by file:line)"), std::string::npos);
  EXPECT_NE(J.str().find("\"match\":\"location\""), std::string::npos);
  EXPECT_NE(J.str().find("\"only_b\":[{\"kind\":\"critical\""),
            std::string::npos);
}
