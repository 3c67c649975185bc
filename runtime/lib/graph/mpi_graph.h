//===- graph/mpi_graph.h - MPI calls in a rank's task graph -------*- C++
//-*-===//
//
// A rank's graph has one node (NodeKind::MpiCall) per MPI call, in the task
// that made it, in program order, labelled with the call's site. What each
// call did -- messages sent and received, requests posted and completed,
// collective instances -- is kept beside the graph (Graph::Mpi), resolved to
// job-wide terms: communicator keys instead of per-process indices, world
// ranks, and for a completion the node of the call that posted its request.
// That is what joining the ranks' graphs into the job's needs (message
// edges matched by communicator, source, tag and MPI's non-overtaking
// order; collectives by communicator and instance).
//
// MpiIngest is the builder's part: it reduces the MPI events of the stream
// (otter/mpi.h) as they arrive, per thread, without knowing the walk.
//
// What makes no node, because it depends on timing, not on the program: a
// Test/Testany/Testall/Testsome or Iprobe that completed nothing, and every
// MpiRequestTest. (How many requests one Waitany/Waitsome/Test* completes
// still depends on timing, as it does in the program.)
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_MPI_GRAPH_H
#define OTTER_GRAPH_MPI_GRAPH_H

#include "otter/mpi.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace otter {

using NodeId = std::uint32_t;

/// One thing an MPI call did.
struct MpiOp {
  EventKind Kind = EventKind::None; // MpiSend ... MpiCollectiveEnd
  std::uint64_t Comm = 0;           // CommKey; 0: unknown communicator
  std::uint32_t Peer = mpi::NoRank; // world rank (collectives: the root's)
  std::uint32_t PeerInComm = mpi::NoRank; // (collectives: the root's)
  std::uint32_t Tag = 0;                  // mpi::AnyTag: wildcard
  std::uint64_t Bytes = 0;                // collectives: sent
  std::uint64_t Received = 0;             // collectives
  std::uint64_t Instance = 0;             // collectives: k-th on Comm
  mpi::CollectiveOp Op = mpi::CollectiveOp::Barrier;
  std::uint32_t Request = 0; // the process's request id (0: blocking)
  /// The call that posted Request (for a post: its own call); ~0: unknown.
  NodeId RequestNode = ~NodeId(0);
  std::uint64_t Time = 0; // ns: for the utils' waiting-time analyses
};

/// An MPI call that made a node.
struct MpiCall {
  NodeId Node = ~NodeId(0);
  mpi::Function Function = mpi::Function::None;
  std::uint32_t FirstOp = 0, OpCount = 0; // in MpiGraph::Ops
  std::uint64_t Begin = 0, End = 0;       // ns
  std::uint64_t Site = 0;                 // the call site (code address)
  std::uint32_t Thread = 0;               // the thread that made it
};

struct MpiGraph {
  std::int64_t Rank = -1; // from MPI_Init; -1: not an MPI process
  std::uint32_t WorldSize = 0;
  std::vector<MpiCall> Calls; // by node
  std::vector<MpiOp> Ops;
  /// Sizes of the communicators the rank knew, by key (sorted): how many
  /// members a collective on it has (the job graph's incomplete ones).
  std::vector<std::pair<std::uint64_t, std::uint32_t>> CommSizes;
  /// Calls of MPI functions counted but not traced (MpiUntracedCalls), by
  /// function: their time is part of the computation around them.
  std::vector<std::pair<mpi::Function, std::uint64_t>> Untraced;
  /// Names the program gave communicators (MPI_Comm_set_name), by key
  /// (sorted): ids in the graph's name table (Graph::Names).
  std::vector<std::pair<std::uint64_t, std::uint32_t>> CommNames;
  /// The name of the communicator Key in Names, "" if it has none.
  const std::string &commName(std::uint64_t Key,
                              const std::vector<std::string> &Names) const;
  /// Where each communicator the rank made came from, by key (sorted):
  /// its parent, the how-manieth communicator made from that parent it
  /// was in this rank's order (1: the first), its size and its lowest
  /// world rank (mpi::NoRank: not known).
  struct CommOrigin {
    std::uint64_t Key = 0, Parent = 0;
    std::uint32_t Ordinal = 0, Size = 0, Lowest = mpi::NoRank;
  };
  std::vector<CommOrigin> CommOrigins;
  /// How OTTER shows communicator Key: the program's name for it
  /// (MPI_Comm_set_name), "world", "self", else, for one made from
  /// another, the parent's text, '/', its ordinal and -- when it holds
  /// fewer ranks than its parent (a part of a split) -- '@' and its lowest
  /// world rank: "world/1@2", "world/2"; the key in hex when its origin is
  /// not known; "?" for key 0 (docs/mpi.md, "Communicators").
  std::string commText(std::uint64_t Key,
                       const std::vector<std::string> &Names) const;
  bool empty() const { return Calls.empty(); }
};

/// Collects the MPI events of a stream (GraphBuilder::Store).
class MpiIngest {
public:
  /// A call that makes a node: recorded in its task's strand at Seq.
  struct Done {
    std::uint64_t Task;
    std::uint32_t Seq;
    mpi::Function Function;
    std::uint32_t Call; // index, for nodeMade() and the walk's payload
    std::uint64_t Code; // the call site
  };
  /// E is an MPI event of thread Thread (in that thread's order). True
  /// when E ends a call that makes a node (Out says which).
  bool add(std::uint32_t Thread, const Event &E, Done &Out);
  /// The walk made node N for call Call.
  void nodeMade(std::uint32_t Call, NodeId N);
  /// Call's function (None if there is no such call).
  mpi::Function functionOf(std::uint32_t Call) const {
    return Call < Calls.size() ? Calls[Call].Function : mpi::Function::None;
  }
  /// Everything resolved (communicator keys, request nodes), calls by node.
  MpiGraph finish();

private:
  void commOrigins(MpiGraph &G) const;
  struct Open {
    bool Active = false;
    Event Begin{};
    std::uint32_t FirstOp = 0;
    bool Completed = false; // some request completed (Test*: makes a node)
  };
  struct CallRec {
    std::uint32_t FirstOp, OpCount;
    mpi::Function Function;
    std::uint64_t Begin, End;
    std::uint64_t Site;
    std::uint32_t Thread;
    NodeId Node = ~NodeId(0);
  };
  std::unordered_map<std::uint32_t, Open> OpenCalls; // by thread
  std::vector<Event> Ops;            // raw, in each call's order
  std::vector<std::uint32_t> OpCall; // call index of each op (~0: none)
  std::vector<CallRec> Calls;
  std::vector<Event> CommCreates; // MpiCommCreate events
  /// Per CommCreates entry: the lowest world rank its MpiCommMembers
  /// events listed (mpi::NoRank: none came: members 0 .. size-1).
  std::vector<std::uint32_t> CreateLowest;
  std::map<mpi::Function, std::uint64_t> Untraced;
  std::map<std::uint64_t, std::uint32_t> CommNames; // key -> name id
  std::int64_t Rank = -1;
  std::uint32_t WorldSize = 0;
};

/// rank-N/mpi.csv: one line per thing an MPI call did, by node (written
/// with the csv graph files when the graph has MPI calls).
/// Names: the graph's name table (communicators' names).
void writeMpiCsv(const MpiGraph &M, const std::vector<std::string> &Names,
                 std::ostream &OS);

} // namespace otter

#endif // OTTER_GRAPH_MPI_GRAPH_H
