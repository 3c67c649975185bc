//===- graph/aggregate.cpp - Edges counted between constructs ------------===//
//
// ConstructEdges (aggregate.h): the table or the hash map, and the edges
// read back in order of first appearance.
//
//===----------------------------------------------------------------------===//
#include "graph/aggregate.h"

#include <algorithm>

namespace otter {

namespace {
constexpr std::size_t DenseMax = std::size_t(1) << 20; // table entries
} // namespace

ConstructEdges::ConstructEdges(std::size_t Groups)
    : Groups(Groups), Dense(Groups * Groups * MaxKinds <= DenseMax) {
  if (Dense)
    Table.assign(Groups * Groups * MaxKinds, 0);
}

std::uint64_t ConstructEdges::countOf(std::uint64_t Key) const {
  std::size_t From = Key >> 34, To = (Key >> 4) & 0x3fffffff,
              Kind = Key & (MaxKinds - 1);
  if (Dense)
    return Table[(From * Groups + To) * MaxKinds + Kind];
  auto It = Hashed.find(Key);
  return It == Hashed.end() ? 0 : It->second;
}

std::vector<ConstructEdges::Counted> ConstructEdges::edges() const {
  std::vector<Counted> E;
  E.reserve(Order.size());
  for (std::uint64_t Key : Order)
    E.push_back({std::uint32_t(Key >> 34),
                 std::uint32_t((Key >> 4) & 0x3fffffff),
                 unsigned(Key & (MaxKinds - 1)), countOf(Key)});
  return E;
}

std::uint64_t ConstructEdges::maxCount() const {
  std::uint64_t M = 1;
  for (std::uint64_t Key : Order)
    M = std::max(M, countOf(Key));
  return M;
}

} // namespace otter
