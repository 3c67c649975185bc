// Unit tests for ConstructEdges (graph/aggregate.h), the edge
// counting both aggregated graphs share: counts per (source, target, kind),
// listed in order of first edge, the same in its table form (few
// constructs) and its hash form (many).
#include "graph/aggregate.h"

#include <gtest/gtest.h>

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
