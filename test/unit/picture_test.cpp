//===- unit/picture_test.cpp - The graph pictures' pieces ---------------===//
//
// picture.h: the directory long source paths are shown relative to, the
// size read back from Graphviz's SVG (what the limits are checked on), and
// the graph choice when Graphviz is not needed (--aggregate is decided
// without building the full graph).
//
//===----------------------------------------------------------------------===//
#include "picture.h"

#include <gtest/gtest.h>

using namespace otter;
using namespace otter::picture;

TEST(Picture, CommonDirectoryIsAWholeDirectory) {
  EXPECT_EQ(commonDirectory({"/home/me/proj/src/a.c", "/home/me/proj/src/b.c"}),
            "/home/me/proj/src/");
  // Not a common prefix of names: "/home/me/proj/s" is no directory.
  EXPECT_EQ(commonDirectory({"/home/me/proj/src/a.c", "/home/me/proj/sub/b.c",
                             "relative.c", ""}),
            "/home/me/proj/");
  // Nothing shared but the root, or nothing absolute: none.
  EXPECT_EQ(commonDirectory({"/usr/include/omp.h", "/home/me/a.c"}), "");
  EXPECT_EQ(commonDirectory({"a.c", "dir/b.c"}), "");
  EXPECT_EQ(commonDirectory({}), "");
}

TEST(Picture, RelativeLabelsStripTheDirectoryOnly) {
  analysis::LabelFn Label = [](std::uint64_t Code) {
    SourceLabel L;
    L.File = Code == 1 ? "/p/q/a.c" : Code == 2 ? "/other/b.c" : "";
    L.Line = 3;
    return L;
  };
  analysis::LabelFn Rel = relativeLabels(Label, "/p/q/");
  EXPECT_EQ(Rel(1).File, "a.c");
  EXPECT_EQ(Rel(2).File, "/other/b.c");
  EXPECT_EQ(Rel(3).File, "");
  EXPECT_EQ(relativeLabels(Label, "")(1).File, "/p/q/a.c");
}

TEST(Picture, SvgSizeIsReadFromTheRootElement) {
  std::string Svg =
      "<?xml version=\"1.0\"?>\n<!-- width=\"1pt\" -->\n<svg width=\"1234pt\" "
      "height=\"56789pt\"\n viewBox=\"0.00 0.00 1234.00 56789.00\">"
      "<g width=\"3pt\"/></svg>";
  auto [W, H] = svgSizePt(Svg);
  EXPECT_DOUBLE_EQ(W, 1234);
  EXPECT_DOUBLE_EQ(H, 56789);
  EXPECT_EQ(svgSizePt("no picture"), std::make_pair(0.0, 0.0));
}

TEST(Picture, AnAggregateChoiceNeverBuildsTheFullGraph) {
  analysis::Result R;
  R.ExplicitTasks = 10;
  analysis::AggregateGraph Agg;
  bool Built = false;
  FullGraphFn Full = [&](Graph &, std::string &) {
    Built = true;
    return true;
  };
  GraphPicture P;
  std::string Error;
  // Graphviz may be missing here: the choice is what is checked.
  drawGraph(
      Full, R, Agg, [](std::uint64_t) { return SourceLabel{}; },
      GraphMode::Aggregate, P, Error);
  EXPECT_FALSE(Built);
  EXPECT_FALSE(P.Full);
  // Too many tasks for any full picture within the limits: not built.
  R.ExplicitTasks = 10000000;
  bool Drawn = drawGraph(
      Full, R, Agg, [](std::uint64_t) { return SourceLabel{}; },
      GraphMode::Auto, P, Error);
  EXPECT_FALSE(Built);
  EXPECT_FALSE(P.Full);
  if (Drawn) { // with Graphviz: the reason, in the user's words
    EXPECT_NE(P.Why.find("the run has 10,000,000 tasks"), std::string::npos)
        << P.Why;
  }
}

// The construct graph's edges land on the node their construct's code
// addresses were grouped into, also for an MPI job's unlabelled constructs:
// every rank's rows of one address are one node (groupConstructs), and an
// edge from another rank's row than the first is on it too (the edges
// were once looked up by the address with its rank, and such edges lost).
TEST(Picture, AggregateEdgesOfEveryRankLandOnTheirConstruct) {
  using analysis::Kind;
  auto Ranked = [](int Rank, std::uint64_t Address) {
    return (std::uint64_t(Rank + 1) << analysis::CodeRankShift) | Address;
  };
  analysis::Result R;
  for (int Rank : {0, 1}) {
    analysis::ConstructStats P, T;
    P.Code = Ranked(Rank, 0x20);
    P.K = Kind::Parallel;
    P.Instances = 1;
    T.Code = Ranked(Rank, 0x10);
    T.K = Kind::Task;
    T.Instances = 2;
    R.Constructs.push_back(P);
    R.Constructs.push_back(T);
  }
  analysis::AggregateGraph Agg;
  for (int Rank : {0, 1})
    Agg.constructEdge(Ranked(Rank, 0x20), Kind::Parallel, Ranked(Rank, 0x10),
                      Kind::Task, "create");
  auto B = Agg.build(R, [](std::uint64_t) { return SourceLabel{}; });
  ASSERT_EQ(B.Groups.Nodes.size(), 2u);
  EXPECT_EQ(B.Groups.Nodes[0].S.Instances + B.Groups.Nodes[1].S.Instances, 6u);
  ASSERT_EQ(B.Edges.size(), 1u);
  EXPECT_EQ(std::get<3>(B.Edges[0]), 2u); // both ranks' creations
  EXPECT_EQ(B.Groups.find(Kind::Task, Ranked(1, 0x10)),
            B.Groups.find(Kind::Task, Ranked(0, 0x10)));
}
