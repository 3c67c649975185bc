//===- graph/graph.h - The task graph: nodes, edges, labels ------*- C++ -*-===//
//
// The task graph that the builder produces and the writers consume. Node ids
// are canonical: the builder numbers nodes in a structural order that does
// not depend on threads, timing or addresses, so the same program gives the
// same ids on every run.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_GRAPH_H
#define OTTER_GRAPH_GRAPH_H

#include "graph/mpi_graph.h"
#include "otter/label.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace otter {

/// The graph's node kinds: otter/constructs.def, where each row says what
/// the node stands for.
enum class NodeKind : std::uint8_t {
#define OTTER_NODE_KIND(Kind, Name, Shape, Fill) Kind,
#include "otter/constructs.def"
  Count
};

const char *nodeKindName(NodeKind K);

enum class EdgeKind : std::uint8_t {
  Create,     // creating strand -> new task
  Sync,       // completion of a task -> the construct that waits for it
  Dependence, // completion of a sibling task -> task that depends on it
  Scope,      // program order within one strand, and fork/join of a team
  Count
};

const char *edgeKindName(EdgeKind K);

using NodeId = std::uint32_t;
inline constexpr NodeId NoNode = ~NodeId(0);
inline constexpr std::uint32_t NoThread = ~std::uint32_t(0);

/// Node ids an Edge can hold (30 bits, see Edge): a bigger graph is not
/// built (the builder stops with a one-line error; docs/graph.md, "Limits").
inline constexpr std::size_t MaxNodes = std::size_t(1) << 30;
/// Thread numbers a Node can hold (16 bits, see NodeThread): 0 to 65,534.
inline constexpr std::uint32_t MaxNodeThread = 0xfffe;

/// What a graph of more than MaxNodes nodes, or a node on a thread past
/// MaxNodeThread, throws (std::length_error, one line).
[[noreturn]] void throwNodeLimit();
[[noreturn]] void throwThreadLimit(std::uint32_t Thread);

/// A node's thread in 16 bits: reads as the thread number, or NoThread.
/// Making one of a number past MaxNodeThread throws (never truncates).
class NodeThread {
public:
  constexpr NodeThread(std::uint32_t T = NoThread)
      : V(T == NoThread        ? None
          : T <= MaxNodeThread ? T
                               : (throwThreadLimit(T), 0)) {}
  constexpr operator std::uint32_t() const { return V == None ? NoThread : V; }

private:
  static constexpr std::uint16_t None = 0xffff;
  std::uint16_t V;
};

/// 16 bytes: a graph has millions of nodes (one per task and construct), so
/// nothing goes here that no writer or analysis reads (no timestamp: times
/// belong to the trace), and the thread takes 16 bits.
struct Node {
  NodeKind Kind;
  bool LabelInherited = false;  // label taken from the enclosing construct
  NodeThread Thread = NoThread; // thread that encountered / ran it
  NodeId Parent = NoNode;
  std::uint32_t Label = 0; // index into Graph::Labels
  std::uint32_t Flags = 0; // TaskFlags for task nodes, node flags
};
static_assert(sizeof(Node) == 16);

/// Flags on non-task nodes.
enum NodeFlags : std::uint32_t {
  NodeSingleExecutor = 0x1, // single_begin/end on the thread that ran it
  // cancel: the construct it cancels
  NodeCancelParallel = 0x2,
  NodeCancelSections = 0x4,
  NodeCancelLoop = 0x8,
  NodeCancelTaskgroup = 0x10,
  // nest_lock_begin/end: a nesting level the owner re-acquired (OMPT's
  // nest_lock scope begin) and its release, not the first acquisition
  NodeReacquire = 0x20,
};

/// 8 bytes (a graph has more edges than nodes): the target takes 30 bits
/// (MaxNodes), the kind the other 2, so the kind is read with kind(). The
/// fields are laid out so that the 8 bytes, read as one little-endian
/// number, are the edges' order (source, target, kind): key(), which the
/// sort compares (a unit test checks the layout).
struct Edge {
  std::uint32_t KindBits : 2 = 0;
  NodeId Target : 30 = 0;
  NodeId Source = 0;

  Edge() = default;
  /// Throws (never truncates) for a target past MaxNodes.
  constexpr Edge(NodeId S, NodeId T, EdgeKind K)
      : KindBits(std::uint32_t(K)),
        Target(T < MaxNodes ? T : (throwNodeLimit(), 0)), Source(S) {}
  EdgeKind kind() const { return static_cast<EdgeKind>(KindBits); }
  /// (Source << 32) | (Target << 2) | kind.
  std::uint64_t key() const { return std::bit_cast<std::uint64_t>(*this); }
  bool operator<(const Edge &O) const { return key() < O.key(); }
  bool operator==(const Edge &O) const { return key() == O.key(); }
};
static_assert(sizeof(Edge) == 8);
static_assert(unsigned(EdgeKind::Count) <= 4, "Edge keeps the kind in 2 bits");

/// Sorts edges by (source, target, kind) in place (graph/edge_sort.cpp):
/// the same order as std::sort, faster on millions, no second array of
/// the edges' size (a scratch of one bucket of them).
void sortEdges(std::vector<Edge> &Edges);

struct GraphStats {
  std::uint32_t Threads = 0;
  std::uint64_t ParallelRegions = 0;
  std::uint64_t Tasks = 0; // explicit tasks
  std::uint64_t Events = 0;
  std::uint64_t Warnings = 0;
};

/// The bytes a target construct's node moved to and from the device
/// (Graph::NodeBytes; docs/offload.md, "The graph").
struct TargetBytes {
  std::uint64_t To = 0;
  std::uint64_t From = 0;
  bool operator==(const TargetBytes &) const = default;
};

struct Graph {
  std::vector<Node> Nodes;
  std::vector<Edge> Edges; // sorted, unique
  /// Distinct labels; Labels[0] is the empty/unknown label.
  std::vector<SourceLabel> Labels;
  GraphStats Stats;
  /// Problems found in the event stream (missing ends, unknown ids ...).
  std::vector<std::string> Warnings;
  /// What the MPI calls did, by node (empty without MPI).
  MpiGraph Mpi;
  /// What was not recorded (docs/filter.md), one line; empty: nothing was
  /// filtered. Not the builder's: the runtime's filter, or the trace's.
  std::string Filtered;
  /// The program's names (annotations, otter/otter.h), by name id; [0] is
  /// "". Filled by whoever has the table (the runtime, the trace reader);
  /// the builder knows only ids.
  std::vector<std::string> Names;
  /// The name of a node that has one: a phase or mark node, a task
  /// labelled by otter_task_label (its last label). By node id.
  std::unordered_map<NodeId, std::uint32_t> NodeNames;
  /// The bytes moved to and from the device by a target construct's node
  /// (target_begin of a `target` region: the region's; target_begin and
  /// target_end of a `target data` region: its entry's and its exit's;
  /// enter data, exit data, update: their own). By node id; no entry for
  /// other nodes.
  std::unordered_map<NodeId, TargetBytes> NodeBytes;
  /// The name of node N ("" if none, or the table is not known).
  std::string nameOf(NodeId N) const {
    auto It = NodeNames.find(N);
    if (It == NodeNames.end())
      return {};
    return It->second < Names.size() ? Names[It->second]
                                     : "#" + std::to_string(It->second);
  }
};

/// Flags column text: "untied|final" etc.
std::string taskFlagsText(std::uint32_t Flags);
std::string nodeFlagsText(const Node &N);

} // namespace otter

#endif // OTTER_GRAPH_GRAPH_H
