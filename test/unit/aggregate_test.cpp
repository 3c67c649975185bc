// Unit tests for graph/aggregate.h, what both aggregated graphs (graph.gv's
// and `otter`'s construct graph) share: the grouping into constructs
// (ConstructGroups, SourceConstructs' identities), the edge counting
// (ConstructEdges: counts per (source, target, kind), listed in order of
// first edge, the same in its table form and its hash form) and the dot
// syntax (AggregateDot).
#include "graph/aggregate.h"

#include <gtest/gtest.h>

#include <sstream>
#include <tuple>
#include <vector>

using otter::ConstructEdges;

namespace {

using Row = std::tuple<std::uint32_t, std::uint32_t, unsigned, std::uint64_t>;

std::vector<Row> rows(const ConstructEdges &C) {
  std::vector<Row> R;
  for (const ConstructEdges::Counted &E : C.edges())
    R.emplace_back(E.From, E.To, E.Kind, E.Count);
  return R;
}

/// The same edges between constructs 0, 1, 2 and Groups-1.
void addSome(ConstructEdges &C, std::uint32_t Last) {
  C.add(1, 2, 0);
  C.add(0, 1, 3);
  C.add(1, 2, 0);
  C.add(1, 2, 1); // another kind: another edge
  C.add(Last, 0, 2, 5);
  C.add(0, 1, 3, 2);
}

TEST(ConstructEdges, CountsInOrderOfFirstEdge) {
  // Few constructs: the table; many: the hash map. The same answer.
  for (std::size_t Groups : {std::size_t(4), std::size_t(100000)}) {
    ConstructEdges C(Groups);
    std::uint32_t Last = std::uint32_t(Groups - 1);
    addSome(C, Last);
    EXPECT_EQ(rows(C),
              (std::vector<Row>{
                  {1, 2, 0, 2}, {0, 1, 3, 3}, {1, 2, 1, 1}, {Last, 0, 2, 5}}))
        << Groups << " constructs";
    EXPECT_EQ(C.maxCount(), 5u);
  }
}

TEST(ConstructEdges, NoEdgesCountOne) {
  ConstructEdges C(3);
  EXPECT_TRUE(C.edges().empty());
  EXPECT_EQ(C.maxCount(), 1u); // a divisor: never 0
}

} // namespace

// ConstructGroups: the grouping both aggregated graphs share.
TEST(ConstructGroups, NumberedInOrderOfFirstItemTableOrHash) {
  // Identities within the table and beyond it (the hash map): the same
  // groups, numbered in order of first item, counted.
  for (std::size_t Table : {std::size_t(0), std::size_t(8), std::size_t(1000)}) {
    otter::ConstructGroups G(4, Table);
    EXPECT_EQ(G.add(2, 7), 0u);
    EXPECT_EQ(G.add(1, 7), 1u); // another kind: another construct
    EXPECT_EQ(G.add(2, 7, 3), 0u);
    EXPECT_EQ(G.add(3, 500), 2u);
    EXPECT_EQ(G.add(1, 7), 1u);
    ASSERT_EQ(G.size(), 3u) << Table;
    EXPECT_EQ(G.kind(0), 2u);
    EXPECT_EQ(G.identity(2), 500u);
    EXPECT_EQ(G.count(0), 4u);
    EXPECT_EQ(G.count(1), 2u);
    EXPECT_EQ(G.count(2), 1u);
    EXPECT_EQ(G.find(3, 500), 2u);
    EXPECT_EQ(G.find(0, 7), otter::ConstructGroups::None);
    EXPECT_EQ(G.find(3, 501), otter::ConstructGroups::None);
  }
}

// SourceConstructs: what makes code addresses one source construct.
TEST(SourceConstructs, RegionIdThenFileLineThenAddress) {
  auto Label = [](const char *File, std::uint32_t Line, std::uint32_t Col,
                  std::uint64_t RegionId) {
    otter::SourceLabel L;
    L.File = File;
    L.Line = Line;
    L.Col = Col;
    L.RegionId = RegionId;
    return L;
  };
  otter::SourceConstructs S;
  // The same directive's other call site: another line, the same region.
  EXPECT_EQ(S.identity(Label("a.c", 3, 0, 42), 0x100),
            S.identity(Label("a.c", 4, 0, 42), 0x200));
  EXPECT_EQ(S.identity(Label("a.c", 9, 0, 0), 0x300),
            S.identity(Label("a.c", 9, 5, 0), 0x400));
  otter::SourceLabel None;
  std::uint64_t A = S.identity(None, 0x500);
  EXPECT_NE(A, S.identity(None, 0x600));
  // A region id never meets an address of the same value.
  EXPECT_NE(S.identity(Label("", 0, 0, 0x500), 1), A);
  EXPECT_EQ(S.find(None, 0x500), A);
  EXPECT_EQ(S.find(None, 0x700), ~std::uint64_t(0));
}

// AggregateDot: the one syntax of both aggregated graphs' dot files.
TEST(AggregateDot, OneSyntaxForNodesEdgesAndLegend) {
  std::ostringstream OS;
  {
    otter::AggregateDot D(OS, "// note\n", "g", "rankdir=TB", "style=filled",
                          "fontsize=9");
    D.node(0, "task\na \"b\".c:3\n\u00d72", "ellipse", "#fff");
    D.node(1, "x", "box", "#000", ", penwidth=3");
    D.edge(0, 1, "color=grey", ", penwidth=2.0", "1,234");
    D.close("  legend [label=\"l\"];\n");
  }
  EXPECT_EQ(OS.str(), "// note\n"
                      "digraph g {\n"
                      "  graph [rankdir=TB];\n"
                      "  node [style=filled];\n"
                      "  edge [fontsize=9];\n"
                      "  c0 [label=\"task\\na \\\"b\\\".c:3\\n\u00d72\", "
                      "shape=ellipse, fillcolor=\"#fff\"];\n"
                      "  c1 [label=\"x\", shape=box, fillcolor=\"#000\", "
                      "penwidth=3];\n"
                      "  c0 -> c1 [color=grey, penwidth=2.0, label=\"1,234\"];\n"
                      "  legend [label=\"l\"];\n"
                      "}\n");
  EXPECT_EQ(otter::AggregateDot::penWidth(1, 1000), "1.0");
  EXPECT_EQ(otter::AggregateDot::penWidth(1000, 1000), "6.0");
  EXPECT_EQ(otter::AggregateDot::escape("a\\b"), "a\\\\b");
}

