//===- graph/builder.h - Task graph from OTTER's typed events ----*- C++
//-*-===//
//
// The graph builder: consumes Event records (from the live runtime or read
// back from an OTF2 trace) and produces the task graph. It knows nothing of
// OMPT. Events may arrive in any order across threads; the builder regroups
// them per task by (Task, Seq) and walks the program structurally, so the
// graph depends only on what each task did, in its own program order, never
// on the schedule.
//
// Semantics (see docs/graph.md): nestable constructs become begin/end nodes,
// standalone synchronisation one node, explicit tasks one node each; scope
// edges follow each task's program order, create edges go from the creating
// strand to the task, sync edges from a task's completion to the first
// construct that waits for it (taskwait, end of taskgroup, barrier), and
// dependence edges between sibling tasks follow OpenMP 5.x depend rules.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_BUILDER_H
#define OTTER_GRAPH_BUILDER_H

#include "graph/graph.h"
#include "otter/events.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace otter {

class NodeFeed; // graph/node_feed.h

class GraphBuilder {
public:
  /// Maps a code address to its source label. Called once per distinct
  /// address, from build().
  using Resolver = std::function<SourceLabel(std::uint64_t Code)>;

  explicit GraphBuilder(Resolver R);
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder &) = delete;
  GraphBuilder &operator=(const GraphBuilder &) = delete;

  /// Adds events recorded by thread `Thread`. Calls for different threads
  /// may run at once, without a lock: each thread's events go to a store
  /// of its own (a shard), merged by build(); calls for one thread must
  /// not overlap. (The MPI calls' events take a lock of their own.)
  /// Events are not kept as they come: each is reduced at once to what the
  /// graph needs (see builder.cpp, "Ingest"), so memory grows by ~16 bytes
  /// per construct event and ~24 per task, not by the 48-byte records.
  void addEvents(std::uint32_t Thread, const Event *Events, std::size_t N);

  /// Graph-relevant events added so far (not while events are added).
  std::size_t eventCount() const;

  /// Builds the graph from everything added so far. Call once: it releases
  /// the collected events as it indexes them.
  Graph build();
  /// The same into Out, calling NodesDone(Out) once Out's nodes, labels,
  /// names, warnings and stats are final and before its edges are sorted
  /// (one pass over millions of edges): NodesDone may start reading them on
  /// another thread (the runtime writes the nodes' table meanwhile), and
  /// may set Out's Names and Filtered; nothing may touch Out's Edges or Mpi
  /// until build returns.
  void build(Graph &Out, const std::function<void(Graph &)> &NodesDone);
  /// What build may call as it goes.
  struct Hooks {
    /// Called once when the walk begins, with an upper bound of the node
    /// count, if every node is final once made (no names, no target constructs:
    /// graph/node_feed.h): may start another thread reading Out's nodes as
    /// the walk makes them and return the feed it reads them through (null:
    /// none). The feed must live until build returns.
    std::function<NodeFeed *(Graph &Out, std::size_t MaxNodes)> WalkStarts;
    /// As NodesDone above.
    std::function<void(Graph &)> NodesDone;
  };
  void build(Graph &Out, const Hooks &H);

  struct Store;  // builder.cpp
  struct Shards; // builder.cpp

private:
  Resolver Resolve;
  std::unique_ptr<Shards> Sh;
};

/// Runs Fn on a thread with a large stack (the builder recurses along task
/// nesting), falling back to the calling thread if one cannot be made.
void runWithLargeStack(const std::function<void()> &Fn);

} // namespace otter

#endif // OTTER_GRAPH_BUILDER_H
