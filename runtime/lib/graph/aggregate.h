//===- graph/aggregate.h - Edges counted between constructs -----*- C++ -*-===//
//
// The aggregated graph: one node per construct, one edge per pair of
// constructs and edge kind with its count. Both aggregated graphs count
// their edges here: graph.gv's when the task graph is too big to draw
// (writers.cpp, writeAggregatedDot: constructs are (node kind, label)),
// and `otter`'s construct graph (`otter export --aggregate`, `otter
// picture`, the report; utils/otter/export.cpp: constructs are the
// analyses' source constructs). What a construct is stays with each; the
// counting, and the order edges are listed in, is this one.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_AGGREGATE_H
#define OTTER_GRAPH_AGGREGATE_H

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace otter {

/// Edges between Groups constructs (numbered 0 .. Groups-1) of at most
/// MaxKinds kinds, counted per (source, target, kind) and listed in the
/// order of each triple's first edge, so the output is the same on every
/// run of the same input. Counted in a table when the constructs are few
/// (a hash lookup per edge was most of the time of graph.gv's aggregation),
/// in a hash map otherwise.
class ConstructEdges {
public:
  static constexpr unsigned MaxKinds = 16;
  explicit ConstructEdges(std::size_t Groups);

  /// N more edges From -> To of Kind (< MaxKinds).
  void add(std::uint32_t From, std::uint32_t To, unsigned Kind,
           std::uint64_t N = 1) {
    std::uint64_t Key = keyOf(From, To, Kind);
    std::uint64_t &C =
        Dense ? Table[(std::size_t(From) * Groups + To) * MaxKinds + Kind]
              : Hashed[Key];
    if (C == 0)
      Order.push_back(Key);
    C += N;
  }

  struct Counted {
    std::uint32_t From, To;
    unsigned Kind;
    std::uint64_t Count;
  };
  /// Every (source, target, kind) seen, in order of its first edge.
  std::vector<Counted> edges() const;
  /// The largest count (at least 1).
  std::uint64_t maxCount() const;

private:
  static std::uint64_t keyOf(std::uint32_t From, std::uint32_t To,
                             unsigned Kind) {
    return (std::uint64_t(From) << 34) | (std::uint64_t(To) << 4) | Kind;
  }
  std::uint64_t countOf(std::uint64_t Key) const;

  std::size_t Groups;
  bool Dense;
  std::vector<std::uint64_t> Table;
  std::unordered_map<std::uint64_t, std::uint64_t> Hashed;
  std::vector<std::uint64_t> Order;
};

} // namespace otter

#endif // OTTER_GRAPH_AGGREGATE_H
