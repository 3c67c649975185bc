//===- job_graph.h - One task graph for a whole MPI job ----*- C++
//-*-===//
//
// Joins the task graphs of an MPI job's ranks (each with its MPI calls,
// Graph::Mpi) into the job's graph: every rank's nodes and edges, namespaced
// by rank, plus what connects the ranks:
//
//  * a `message` edge for each message, from the call that posted the send
//    (MPI_Send, MPI_Isend, MPI_Sendrecv, ...) to the call that completed the
//    receive (MPI_Recv, or the Wait/Test that completed an MPI_Irecv).
//    Sends and receives are matched per channel -- communicator key, source
//    and destination world ranks, tag -- in MPI's non-overtaking order: the
//    k-th send of a channel, in the order the sender posted them, is the
//    k-th receive of it, in the order the receiver posted them. A wildcard
//    receive (MPI_ANY_SOURCE / MPI_ANY_TAG) is in the channel of the source
//    and tag it actually received (mpi.csv records them).
//  * one `mpi_collective` node per collective instance (communicator key,
//    instance), like a team barrier, with `collective` edges from the calls
//    of the members whose data it needs and to the calls of the members that
//    receive its result: all members both ways for Barrier, Allreduce,
//    Allgather, Alltoall, Reduce_scatter, Scan, Exscan; the root in and
//    every member out for Bcast and Scatter; every member in and the root
//    out for Reduce and Gather. A non-blocking collective goes in from the
//    call that started it, out to the call that completed it.
//
// Why the edges leave from where they do (docs/graph.md, "The job's graph"):
// every edge must go from something that happened before to something
// after, or the job graph has cycles and no critical path. A send's data
// leaves when the send is posted; the Wait that completes an MPI_Isend may
// return after the receiver received it (the usual halo exchange, Isend;
// Recv; Wait on both sides, would be a cycle). A call whose own node sends
// or feeds a collective (MPI_Sendrecv, MPI_Allreduce) stands for the call's
// start: what it waits for enters its continuation, the nodes its rank
// graph edges lead to (the next node of its task, ...), as a team barrier's
// members continue after the barrier. Rooted collectives are not barriers
// (the root of a Bcast leaves at once), so only the data flow is an edge.
//
// Calls on one thread are ordered by program order; calls of several
// threads of a rank (MPI_THREAD_MULTIPLE) by the time the calls began, the
// only order the trace knows. What cannot be matched -- a send whose
// receiver was killed, a receive posted but never completed, a communicator
// OTTER could not name job-wide -- is counted and listed, never an error.
//
// Knows nothing of OTF2 or MPI's headers: the input is the ranks' Graphs.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_JOB_GRAPH_H
#define OTTER_GRAPH_JOB_GRAPH_H

#include "graph/graph.h"
#include "graph/writers.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace otter {

/// A node of the job graph: rank r's node n is Offset[r] + n; collective k
/// is Offset.back() + k.
using JobNodeId = std::uint64_t;

enum class JobEdgeKind : std::uint8_t {
  Message,    // send -> receive
  Collective, // member's call -> collective node -> member's call
};
const char *jobEdgeKindName(JobEdgeKind K);

struct JobEdge {
  JobNodeId Source, Target;
  JobEdgeKind Kind;
  auto operator<=>(const JobEdge &) const = default;
};

/// One message, or one side of a message that found no other.
struct JobMessage {
  enum Status : std::uint8_t {
    Matched,
    NoReceive,         // no receive completed it (receiver killed, or the
                       // program never received it)
    ReceiveIncomplete, // matched a receive that was posted and never
                       // completed (cut off, or never waited for)
    NoSend,            // a completed receive that no recorded send matches
  };
  Status State = Matched;
  std::uint32_t SendRank = mpi::NoRank;
  NodeId SendNode = NoNode; // the call that posted the send
  std::uint32_t RecvRank = mpi::NoRank;
  NodeId RecvNode = NoNode; // the call that completed the receive
  NodeId RecvPost = NoNode; // the call that posted it (MPI_Irecv, or the
                            // MPI_Recv itself)
  std::uint64_t Comm = 0;
  std::uint32_t Tag = 0;
  std::uint64_t Bytes = 0; // sent (received, for NoSend)
};
const char *jobMessageStatusName(JobMessage::Status S);

/// One collective instance: its node in the job graph.
struct JobCollective {
  std::uint64_t Comm = 0, Instance = 0;
  mpi::CollectiveOp Op = mpi::CollectiveOp::Barrier;
  mpi::Function Function = mpi::Function::None; // the first member's call
  std::uint32_t Root = mpi::NoRank;             // world rank; NoRank: none
  std::uint32_t Size = 0; // the communicator's size when known, else 0
  struct Member {
    std::uint32_t Rank;
    NodeId Post = NoNode;         // the call that started it
    NodeId Complete = NoNode;     // the call that completed it (NoNode: none)
    bool In = false, Out = false; // has an edge in / out (data flow)
  };
  std::vector<Member> Members; // by rank
  /// The site shown for the node: the first member's starting call.
  std::uint32_t LabelRank = 0;
  NodeId LabelNode = NoNode;
  bool complete() const {
    if (Size == 0 || Members.size() != Size)
      return false;
    for (const Member &M : Members)
      if (M.Complete == NoNode)
        return false;
    return true;
  }
};

struct JobStats {
  std::uint32_t Ranks = 0;        // world size (ranks given)
  std::uint32_t MissingRanks = 0; // ranks with no graph
  std::uint64_t Messages = 0;     // matched
  std::uint64_t UnmatchedSends = 0, UnmatchedReceives = 0;
  std::uint64_t Collectives = 0, IncompleteCollectives = 0;
  /// Cross-rank edges into a call that sends too but has no continuation
  /// in its rank's graph (nothing after it): dropped, see the file comment.
  std::uint64_t DroppedEdges = 0;
  /// Operations on a communicator without a job-wide key: not matched.
  std::uint64_t UnknownCommunicator = 0;
};

struct JobGraph {
  /// The ranks' graphs, by world rank (a missing rank: an empty graph).
  std::vector<Graph> Ranks;
  std::vector<bool> Present;
  std::vector<JobNodeId> Offset; // Ranks.size() + 1 entries
  std::vector<JobCollective> Collectives;
  /// Matched messages by send (rank, node, order), then the unmatched.
  std::vector<JobMessage> Messages;
  /// The edges between ranks and to collective nodes; sorted, unique. The
  /// ranks' own edges are in Ranks[r].Edges.
  std::vector<JobEdge> Edges;
  JobStats Stats;
  /// One line per problem (unmatched operations, disagreeing ranks), at
  /// most a few dozen; Stats has the counts.
  std::vector<std::string> Warnings;
  /// Communicators' names (MPI_Comm_set_name), by key: the lowest rank's.
  std::map<std::uint64_t, std::string> CommNames;

  JobNodeId id(std::uint32_t Rank, NodeId N) const { return Offset[Rank] + N; }
  JobNodeId collectiveId(std::size_t K) const { return Offset.back() + K; }
  JobNodeId nodeCount() const { return Offset.back() + Collectives.size(); }
  /// The rank of a job node (Ranks.size() for a collective node) and its
  /// node in that rank (the collective's index).
  std::uint32_t rankOf(JobNodeId Id) const;
  NodeId localOf(JobNodeId Id) const;
};

/// Builds the job graph. Ranks[r] is world rank r's graph (an empty graph
/// for a rank that left none); each must carry its MPI calls (Graph::Mpi).
/// Without Edges, only the matching: Messages and Collectives, no
/// JobGraph::Edges (for a reader that has the calls but not the graph).
JobGraph buildJobGraph(std::vector<Graph> Ranks, bool Edges = true);

// --- Writers (job_writers.cpp) ------------------------------------------
//
// As for a rank (graph/writers.h), in the job's output directory:
//  nodes.csv    id,rank,node,kind,parent,thread,file,line,col,function,
//               region_id,flags,directive,location,label_quality,name
//               (id and parent job-wide; rank and node: the rank's own
//               numbering; collective nodes have no rank and no name)
//  graph.csv    source,target,kind (job-wide ids; kinds as a rank's plus
//               message and collective)
//  messages.csv status,send_rank,send_node,send_at,recv_rank,recv_node,
//               recv_at,comm,tag,bytes: one line per message (matched) or
//               per operation that found no partner
//  collectives.csv id,function,collective,comm,instance,root,ranks,size,at
//  graph.gv     one cluster per rank, messages and collectives between
//  graph.txt    canonical: r<rank>.n<id> nodes, c<k> collective nodes

void writeJobNodesCsv(const JobGraph &J, std::ostream &OS);
void writeJobEdgesCsv(const JobGraph &J, std::ostream &OS);
void writeJobMessagesCsv(const JobGraph &J, std::ostream &OS);
void writeJobCollectivesCsv(const JobGraph &J, std::ostream &OS);
void writeJobDot(const JobGraph &J, std::ostream &OS);
/// graph.gv of a job above OTTER_DOT_MAX_NODES (MaxNodes) nodes: one node
/// per rank and construct and per collective call site, with counts.
void writeJobAggregatedDot(const JobGraph &J, std::ostream &OS,
                           std::size_t MaxNodes);
void writeJobCanonical(const JobGraph &J, std::ostream &OS);

/// "file:line:col" (or an approximate label) of a job node.
std::string jobNodeSourceText(const JobGraph &J, JobNodeId Id);
/// Short text for a communicator key: the name the program gave it
/// (MPI_Comm_set_name), world, self (of Rank), or hex.
std::string jobCommText(const JobGraph &J, std::uint64_t Key,
                        std::uint32_t Rank);

/// Writes the selected files into Dir (which must exist). False: Error is
/// a one-line reason.
bool writeJobGraphFiles(const JobGraph &J, const std::string &Dir,
                        const GraphFormats &F, std::string &Error);

} // namespace otter

#endif // OTTER_GRAPH_JOB_GRAPH_H
