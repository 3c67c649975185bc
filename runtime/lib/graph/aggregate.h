//===- graph/aggregate.h - Aggregated graph: groups, edges, dot -*- C++ -*-===//
//
// The aggregated graph: one node per construct, one edge per pair of
// constructs and edge kind with its count. There are two: graph.gv's when
// the task graph is too big to draw (writers.cpp, writeAggregatedDot) and
// `otter`'s construct graph (`otter export --aggregate`, `otter picture`,
// the report; utils/otter/export.cpp, picture.cpp). Both are made here:
//  - ConstructGroups: items grouped into constructs by a key (kind,
//    identity), numbered in order of first item. The key is the one thing
//    that differs: graph.gv's identity is the node's label (one per code
//    address), `otter`'s is SourceConstructs' (region id, else file:line,
//    else the address: every runtime call site of one directive);
//  - ConstructEdges: the edges counted between them;
//  - AggregateDot: the dot syntax of the file (its nodes, edges, legend);
//    what each draws on a node (times, the critical path) are its options.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_AGGREGATE_H
#define OTTER_GRAPH_AGGREGATE_H

#include "otter/label.h"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace otter {

/// Items grouped into constructs by the key (Kind, Identity), Kind below
/// the Kinds given: groups numbered in order of their first item (so the
/// output is the same on every run of the same input), with the items
/// (or their weights) counted. Looked up in a table when Kinds times the
/// Identities given is small (a hash lookup per node was much of the time
/// of graph.gv's aggregation), in a hash map otherwise and for identities
/// beyond the table.
class ConstructGroups {
public:
  static constexpr std::uint32_t None = ~std::uint32_t(0);
  ConstructGroups(std::size_t Kinds, std::size_t Identities);

  /// The group of (Kind, Identity), a new one if unseen; its count += N.
  std::uint32_t add(unsigned Kind, std::uint64_t Identity,
                    std::uint64_t N = 1) {
    std::uint32_t &G = slot(Kind, Identity);
    if (G == None) {
      G = std::uint32_t(Keys.size());
      Keys.push_back({Kind, Identity});
      Counts.push_back(0);
    }
    Counts[G] += N;
    return G;
  }
  /// The group of (Kind, Identity), None if no item had that key.
  std::uint32_t find(unsigned Kind, std::uint64_t Identity) const;

  std::size_t size() const { return Keys.size(); }
  unsigned kind(std::uint32_t G) const { return Keys[G].Kind; }
  std::uint64_t identity(std::uint32_t G) const { return Keys[G].Identity; }
  std::uint64_t count(std::uint32_t G) const { return Counts[G]; }

private:
  std::uint32_t &slot(unsigned Kind, std::uint64_t Identity) {
    if (Identity < Identities)
      return Table[std::size_t(Identity) * Kinds + Kind];
    return Hashed[Kind].try_emplace(Identity, None).first->second;
  }
  struct Key {
    unsigned Kind;
    std::uint64_t Identity;
  };
  std::size_t Kinds, Identities; // Identities: the table's (0: no table)
  std::vector<std::uint32_t> Table;
  // Per kind: identities beyond the table.
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> Hashed;
  std::vector<Key> Keys;
  std::vector<std::uint64_t> Counts;
};

/// `otter`'s identities of source constructs: one source construct has
/// several code addresses (each runtime call site of a directive, in each
/// MPI rank), so its identity is its label's region id (the plugin's, per
/// directive), else its file:line (a symbolized label), else the address
/// (without an MPI job's rank: an unlabelled construct's rows of every
/// rank are one). Numbered densely from 0 in order of first use.
class SourceConstructs {
public:
  /// The identity of the construct labelled L at Address (the address
  /// without its rank), a new one if unseen.
  std::uint64_t identity(const SourceLabel &L, std::uint64_t Address);
  /// The same, ~0 if unseen.
  std::uint64_t find(const SourceLabel &L, std::uint64_t Address) const;

private:
  static std::string keyOf(const SourceLabel &L, std::uint64_t Address);
  std::unordered_map<std::string, std::uint64_t> Ids;
};

/// The aggregated graph's dot syntax, written once for graph.gv and
/// `otter`'s construct graph: a node per construct (c<id>), an edge per
/// counted pair, the legend last. What differs -- the header, the graph's
/// name and attributes, a node's text (times, the path), its colours --
/// is the caller's.
class AggregateDot {
public:
  /// Opens the graph: Comments (whole lines, each ending with a newline)
  /// before `digraph Name {`, then the graph, node and edge defaults.
  AggregateDot(std::ostream &OS, const std::string &Comments, const char *Name,
               const std::string &GraphAttrs, const char *NodeAttrs,
               const char *EdgeAttrs);
  /// Node Id: Text (escaped here; a newline is a line break), its shape
  /// and fill colour, then Extra attributes (", color=..." or "").
  void node(std::size_t Id, const std::string &Text, const char *Shape,
            const char *Fill, const char *Extra = "");
  /// An edge From -> To: Style (its dot attributes), then Extra, then its
  /// label Text (escaped here).
  void edge(std::size_t From, std::size_t To, const std::string &Style,
            const std::string &Extra, const std::string &Text);
  /// Closes the graph after the legend (a whole `  legend [...];` line).
  void close(const std::string &Legend);

  /// A dot string's contents: quotes and backslashes escaped, a newline
  /// as dot's line break.
  static std::string escape(const std::string &S);
  /// An edge's width for Count of at most Max: 1 .. 6 with the log of it.
  static std::string penWidth(std::uint64_t Count, std::uint64_t Max);

private:
  std::ostream &OS;
};

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
