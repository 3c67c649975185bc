//===- job_graph.cpp - One task graph for a whole MPI job ----------===//
//
// Matching (see job_graph.h for the rules): every send and every receive
// of the job becomes one record keyed by its channel (communicator, source,
// destination, tag) and its position in its rank's posting order; sorting
// both lists by (channel, position) and walking them side by side pairs the
// k-th send of each channel with its k-th receive, in O(n log n) for n
// operations, with no per-channel table.
//
//===----------------------------------------------------------------------===//
#include "job_graph.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace otter {

const char *jobEdgeKindName(JobEdgeKind K) {
  return K == JobEdgeKind::Message ? "message" : "collective";
}

const char *jobMessageStatusName(JobMessage::Status S) {
  switch (S) {
  case JobMessage::Matched:
    return "matched";
  case JobMessage::NoReceive:
    return "no_receive";
  case JobMessage::ReceiveIncomplete:
    return "receive_incomplete";
  case JobMessage::NoSend:
    return "no_send";
  }
  return "?";
}

std::uint32_t JobGraph::rankOf(JobNodeId Id) const {
  auto It = std::upper_bound(Offset.begin(), Offset.end(), Id);
  std::size_t R = std::size_t(It - Offset.begin());
  // Id >= Offset.back(): a collective node. Ranks with no nodes share
  // their offset with the next rank: upper_bound skips them.
  return R == 0 ? 0 : std::uint32_t(std::min(R - 1, Ranks.size()));
}

NodeId JobGraph::localOf(JobNodeId Id) const {
  return NodeId(Id - Offset[rankOf(Id)]);
}

std::string jobCommText(const JobGraph &J, std::uint64_t Key,
                        std::uint32_t Rank) {
  if (Key == 0)
    return "?";
  if (auto It = J.CommNames.find(Key); It != J.CommNames.end())
    return It->second;
  if (Key == mpi::WorldKey)
    return "world";
  if (Rank != mpi::NoRank && Key == mpi::commSelfKey(Rank))
    return "self";
  char B[20];
  std::snprintf(B, sizeof B, "%016llx", (unsigned long long)Key);
  return B;
}

namespace {

/// One send or receive of the job, for matching.
struct P2p {
  std::uint64_t Comm;
  std::uint32_t Src, Dst, Tag;
  std::uint64_t Post; // when its posting call began (its rank's clock)
  NodeId PostNode;    // the posting call
  std::uint32_t Op;   // index in its rank's MpiGraph::Ops
  NodeId Node;        // send: PostNode; receive: the completing call
                      // (NoNode: never completed)
  std::uint64_t Bytes;
  auto key() const { return std::tie(Comm, Src, Dst, Tag); }
  bool operator<(const P2p &O) const {
    return std::tie(Comm, Src, Dst, Tag, Post, PostNode, Op) <
           std::tie(O.Comm, O.Src, O.Dst, O.Tag, O.Post, O.PostNode, O.Op);
  }
};

/// A call of a rank by its node (MpiGraph::Calls is sorted by node).
const MpiCall *callAt(const MpiGraph &M, NodeId N) {
  auto It =
      std::lower_bound(M.Calls.begin(), M.Calls.end(), N,
                       [](const MpiCall &C, NodeId X) { return C.Node < X; });
  return It != M.Calls.end() && It->Node == N ? &*It : nullptr;
}

bool isCollectiveIn(mpi::CollectiveOp Op, std::uint32_t Rank,
                    std::uint32_t Root) {
  using mpi::CollectiveOp;
  if (Root == mpi::NoRank)
    return true;
  switch (Op) {
  case CollectiveOp::Bcast:
  case CollectiveOp::Scatter:
  case CollectiveOp::Scatterv:
    return Rank == Root;
  default:
    return true;
  }
}

bool isCollectiveOut(mpi::CollectiveOp Op, std::uint32_t Rank,
                     std::uint32_t Root) {
  using mpi::CollectiveOp;
  if (Root == mpi::NoRank)
    return true;
  switch (Op) {
  case CollectiveOp::Bcast:
  case CollectiveOp::Scatter:
  case CollectiveOp::Scatterv:
    return Rank != Root;
  case CollectiveOp::Reduce:
  case CollectiveOp::Gather:
  case CollectiveOp::Gatherv:
    return Rank == Root;
  default:
    return true;
  }
}

/// An edge before its ends are resolved: a rank's node (Rank < size) or a
/// collective (Rank == NoRank, Node = its index).
struct End {
  std::uint32_t Rank;
  NodeId Node;
};
struct Pending {
  End From, To;
  JobEdgeKind Kind;
};

class Builder {
public:
  explicit Builder(JobGraph &J) : J(J) {}
  void run(bool WithEdges);

private:
  JobGraph &J;
  std::vector<Pending> Edges;
  /// A few examples of each kind of problem, then a count: a killed rank
  /// can leave millions of operations without a partner.
  enum Problem { Ranks, NoReceive, Incomplete, NoSend, Collective, Other, N };
  std::uint64_t Seen[N] = {};
  static constexpr std::uint64_t Examples = 5;

  void warn(Problem P, const std::string &W) {
    if (++Seen[P] <= Examples)
      J.Warnings.push_back(W);
  }
  void leftOut() {
    static const char *What[N] = {"ranks' problems",
                                  "sends without a receive",
                                  "sends to an incomplete receive",
                                  "receives without a send",
                                  "incomplete collectives",
                                  "other problems"};
    for (int P = 0; P < N; ++P)
      if (Seen[P] > Examples)
        J.Warnings.push_back("... and " + std::to_string(Seen[P] - Examples) +
                             " more " + What[P]);
  }
  std::string where(std::uint32_t Rank, NodeId N) const {
    if (Rank >= J.Ranks.size() || N >= J.Ranks[Rank].Nodes.size())
      return "rank " + std::to_string(Rank) + " (no node)";
    const Graph &G = J.Ranks[Rank];
    const MpiCall *C = callAt(G.Mpi, N);
    return "rank " + std::to_string(Rank) + " n" + std::to_string(N) + " (" +
           (C ? mpi::functionName(C->Function) : "?") + " at " +
           nodeSourceText(G, G.Nodes[N]) + ")";
  }
  void collectP2p(std::vector<P2p> &Sends, std::vector<P2p> &Recvs);
  void matchP2p();
  void collectives();
  void resolveEdges();
};

void Builder::collectP2p(std::vector<P2p> &Sends, std::vector<P2p> &Recvs) {
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R) {
    const MpiGraph &M = J.Ranks[R].Mpi;
    // Requests that completed (or were cancelled), by (posting node, id).
    std::vector<std::pair<NodeId, std::uint32_t>> Done, Cancelled;
    for (const MpiOp &Op : M.Ops) {
      if (Op.Kind == EventKind::MpiIrecv)
        Done.push_back({Op.RequestNode, Op.Request});
      else if (Op.Kind == EventKind::MpiRequestCancelled) {
        Done.push_back({Op.RequestNode, Op.Request});
        Cancelled.push_back({Op.RequestNode, Op.Request});
      }
    }
    std::sort(Done.begin(), Done.end());
    std::sort(Cancelled.begin(), Cancelled.end());
    auto in = [](const std::vector<std::pair<NodeId, std::uint32_t>> &V,
                 NodeId N, std::uint32_t Req) {
      return std::binary_search(V.begin(), V.end(), std::make_pair(N, Req));
    };
    std::uint64_t Wildcards = 0;
    for (const MpiCall &C : M.Calls) {
      for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I) {
        const MpiOp &Op = M.Ops[I];
        bool Send =
            Op.Kind == EventKind::MpiSend || Op.Kind == EventKind::MpiIsend;
        bool Recv =
            Op.Kind == EventKind::MpiRecv || Op.Kind == EventKind::MpiIrecv;
        bool Posted = Op.Kind == EventKind::MpiIrecvRequest;
        if (!Send && !Recv && !Posted)
          continue;
        if (Op.Peer == mpi::NoRank && !Posted)
          continue; // MPI_PROC_NULL: no message
        if (Op.Comm == 0) {
          ++J.Stats.UnknownCommunicator;
          continue;
        }
        if (Send) {
          if (Op.Kind == EventKind::MpiIsend &&
              in(Cancelled, C.Node, Op.Request))
            continue;
          Sends.push_back({Op.Comm, R, Op.Peer, Op.Tag, C.Begin, C.Node, I,
                           C.Node, Op.Bytes});
        } else if (Recv) {
          P2p X{Op.Comm, Op.Peer, R,      Op.Tag,  C.Begin,
                C.Node,  I,       C.Node, Op.Bytes};
          if (Op.Kind == EventKind::MpiIrecv) {
            // Its place in the order is where it was posted.
            if (const MpiCall *P = callAt(M, Op.RequestNode)) {
              X.Post = P->Begin;
              X.PostNode = P->Node;
            } else {
              X.Post = Op.Time;
            }
          }
          Recvs.push_back(X);
        } else if (!in(Done, C.Node, Op.Request)) {
          // Posted, never completed (cut off, or never waited for): it may
          // still have taken a message, so it keeps its place in its
          // channel -- when the channel is known.
          if (Op.Peer == mpi::NoRank || Op.Tag == mpi::AnyTag)
            ++Wildcards;
          else
            Recvs.push_back({Op.Comm, Op.Peer, R, Op.Tag, C.Begin, C.Node, I,
                             NoNode, Op.Bytes});
        }
      }
    }
    if (Wildcards)
      warn(Other,
           "rank " + std::to_string(R) + ": " + std::to_string(Wildcards) +
               " wildcard receive(s) posted and never completed: whether they "
               "took a message is unknown (messages after them may be matched "
               "wrongly)");
  }
}

void Builder::matchP2p() {
  std::vector<P2p> Sends, Recvs;
  collectP2p(Sends, Recvs);
  std::sort(Sends.begin(), Sends.end());
  std::sort(Recvs.begin(), Recvs.end());
  std::vector<JobMessage> Matched, Unmatched;
  auto message = [](const P2p &S, const P2p *R, JobMessage::Status St) {
    JobMessage M;
    M.State = St;
    M.SendRank = S.Src;
    M.SendNode = S.Node;
    M.Comm = S.Comm;
    M.Tag = S.Tag;
    M.Bytes = S.Bytes;
    M.RecvRank = S.Dst; // where it was sent, matched or not
    if (R) {
      M.RecvNode = R->Node;
      M.RecvPost = R->PostNode;
    }
    return M;
  };
  std::size_t I = 0, K = 0;
  std::vector<std::uint32_t> MatchedOrder; // send op, for sorting
  while (I < Sends.size() || K < Recvs.size()) {
    bool HaveS = I < Sends.size(), HaveR = K < Recvs.size();
    if (HaveS && (!HaveR || Sends[I].key() < Recvs[K].key())) {
      Unmatched.push_back(message(Sends[I], nullptr, JobMessage::NoReceive));
      ++J.Stats.UnmatchedSends;
      ++I;
    } else if (HaveR && (!HaveS || Recvs[K].key() < Sends[I].key())) {
      const P2p &R = Recvs[K++];
      if (R.Node == NoNode)
        continue; // posted, never completed, nothing sent to it: no message
      JobMessage M;
      M.State = JobMessage::NoSend;
      M.SendRank = R.Src;
      M.RecvRank = R.Dst;
      M.RecvNode = R.Node;
      M.RecvPost = R.PostNode;
      M.Comm = R.Comm;
      M.Tag = R.Tag;
      M.Bytes = R.Bytes;
      Unmatched.push_back(M);
      ++J.Stats.UnmatchedReceives;
    } else {
      const P2p &S = Sends[I++], &R = Recvs[K++];
      if (R.Node == NoNode) {
        Unmatched.push_back(message(S, &R, JobMessage::ReceiveIncomplete));
        ++J.Stats.UnmatchedSends;
        continue;
      }
      Matched.push_back(message(S, &R, JobMessage::Matched));
      MatchedOrder.push_back(S.Op);
      Edges.push_back({{S.Src, S.Node}, {R.Dst, R.Node}, JobEdgeKind::Message});
    }
  }
  J.Stats.Messages = Matched.size();
  // Matched messages by sender (rank, node, op), the others after them.
  std::vector<std::size_t> Order(Matched.size());
  for (std::size_t X = 0; X < Order.size(); ++X)
    Order[X] = X;
  std::sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    return std::tie(Matched[A].SendRank, Matched[A].SendNode, MatchedOrder[A]) <
           std::tie(Matched[B].SendRank, Matched[B].SendNode, MatchedOrder[B]);
  });
  for (std::size_t X : Order)
    J.Messages.push_back(Matched[X]);
  std::stable_sort(
      Unmatched.begin(), Unmatched.end(),
      [](const JobMessage &A, const JobMessage &B) {
        auto RankA = A.State == JobMessage::NoSend ? A.RecvRank : A.SendRank;
        auto RankB = B.State == JobMessage::NoSend ? B.RecvRank : B.SendRank;
        auto NodeA = A.State == JobMessage::NoSend ? A.RecvNode : A.SendNode;
        auto NodeB = B.State == JobMessage::NoSend ? B.RecvNode : B.SendNode;
        return std::tie(A.State, RankA, NodeA) <
               std::tie(B.State, RankB, NodeB);
      });
  for (const JobMessage &M : Unmatched) {
    J.Messages.push_back(M);
    std::string What =
        " (comm " + jobCommText(J, M.Comm, M.SendRank) + ", tag " +
        (M.Tag == mpi::AnyTag ? std::string("any") : std::to_string(M.Tag)) +
        ")";
    if (M.State == JobMessage::NoReceive)
      warn(NoReceive, "send from " + where(M.SendRank, M.SendNode) +
                          " to rank " + std::to_string(M.RecvRank) +
                          ": no receive completed it" + What);
    else if (M.State == JobMessage::ReceiveIncomplete)
      warn(Incomplete, "send from " + where(M.SendRank, M.SendNode) +
                           ": its receive on rank " +
                           std::to_string(M.RecvRank) +
                           " was posted but never completed" + What);
    else
      warn(NoSend, "receive at " + where(M.RecvRank, M.RecvNode) +
                       " from rank " + std::to_string(M.SendRank) +
                       ": no recorded send" + What);
  }
}

void Builder::collectives() {
  struct Entry {
    std::uint64_t Comm, Instance;
    std::uint32_t Rank;
    bool Begin;
    NodeId Node;
    mpi::CollectiveOp Op;
    std::uint32_t Root;
    mpi::Function Function;
  };
  std::vector<Entry> All;
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R) {
    const MpiGraph &M = J.Ranks[R].Mpi;
    for (const MpiCall &C : M.Calls)
      for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I) {
        const MpiOp &Op = M.Ops[I];
        bool Begin = Op.Kind == EventKind::MpiCollectiveBegin;
        if (!Begin && Op.Kind != EventKind::MpiCollectiveEnd)
          continue;
        if (Op.Comm == 0) {
          ++J.Stats.UnknownCommunicator;
          continue;
        }
        All.push_back({Op.Comm, Op.Instance, R, Begin, C.Node, Op.Op, Op.Peer,
                       C.Function});
      }
  }
  std::sort(All.begin(), All.end(), [](const Entry &A, const Entry &B) {
    return std::tie(A.Comm, A.Instance, A.Rank, B.Begin) <
           std::tie(B.Comm, B.Instance, B.Rank, A.Begin); // begins first
  });
  auto sizeOf = [&](std::uint64_t Comm) -> std::uint32_t {
    for (const Graph &G : J.Ranks) {
      auto It = std::lower_bound(
          G.Mpi.CommSizes.begin(), G.Mpi.CommSizes.end(), Comm,
          [](const auto &P, std::uint64_t K) { return P.first < K; });
      if (It != G.Mpi.CommSizes.end() && It->first == Comm)
        return It->second;
    }
    return Comm == mpi::WorldKey ? std::uint32_t(J.Ranks.size()) : 0;
  };
  std::vector<JobCollective> Found;
  for (std::size_t I = 0; I < All.size();) {
    std::size_t E = I;
    while (E < All.size() && All[E].Comm == All[I].Comm &&
           All[E].Instance == All[I].Instance)
      ++E;
    JobCollective C;
    C.Comm = All[I].Comm;
    C.Instance = All[I].Instance;
    bool HaveBegin = false;
    for (std::size_t X = I; X < E; ++X) {
      const Entry &En = All[X];
      if (C.Members.empty() || C.Members.back().Rank != En.Rank)
        C.Members.push_back({En.Rank});
      JobCollective::Member &M = C.Members.back();
      if (En.Begin) {
        if (M.Post != NoNode) {
          warn(Other, "rank " + std::to_string(En.Rank) +
                          ": collective instance " +
                          std::to_string(En.Instance) + " on comm " +
                          jobCommText(J, En.Comm, En.Rank) +
                          " started twice (n" + std::to_string(M.Post) + ", n" +
                          std::to_string(En.Node) + "): the second is ignored");
          continue;
        }
        M.Post = En.Node;
        if (!HaveBegin) {
          HaveBegin = true;
          C.Op = En.Op;
          C.Root = En.Root;
          C.Function = En.Function;
          C.LabelRank = En.Rank;
          C.LabelNode = En.Node;
        }
      } else if (M.Complete == NoNode) {
        M.Complete = En.Node;
        if (!HaveBegin) { // only its end survived: what the end says
          C.Op = En.Op;
          C.Root = En.Root;
          C.Function = En.Function;
          C.LabelRank = En.Rank;
          C.LabelNode = En.Node;
        }
      }
    }
    C.Size = sizeOf(C.Comm);
    Found.push_back(std::move(C));
    I = E;
  }
  // In program order of the lowest member that started it.
  std::sort(Found.begin(), Found.end(),
            [](const JobCollective &A, const JobCollective &B) {
              return std::tie(A.LabelRank, A.LabelNode, A.Comm, A.Instance) <
                     std::tie(B.LabelRank, B.LabelNode, B.Comm, B.Instance);
            });
  for (std::size_t K = 0; K < Found.size(); ++K) {
    JobCollective &C = Found[K];
    for (JobCollective::Member &M : C.Members) {
      M.In = M.Post != NoNode && isCollectiveIn(C.Op, M.Rank, C.Root);
      M.Out = M.Complete != NoNode && isCollectiveOut(C.Op, M.Rank, C.Root);
      if (M.In)
        Edges.push_back({{M.Rank, M.Post},
                         {mpi::NoRank, NodeId(K)},
                         JobEdgeKind::Collective});
      if (M.Out)
        Edges.push_back({{mpi::NoRank, NodeId(K)},
                         {M.Rank, M.Complete},
                         JobEdgeKind::Collective});
    }
    if (!C.complete()) {
      ++J.Stats.IncompleteCollectives;
      std::size_t Completed = 0;
      for (const JobCollective::Member &M : C.Members)
        Completed += M.Complete != NoNode;
      warn(Collective,
           std::string(mpi::functionName(C.Function)) + " instance " +
               std::to_string(C.Instance) + " on comm " +
               jobCommText(J, C.Comm, C.LabelRank) + " (first at " +
               where(C.LabelRank, C.LabelNode) +
               "): " + std::to_string(C.Members.size()) + " of " +
               (C.Size ? std::to_string(C.Size) : std::string("?")) +
               " members recorded, " + std::to_string(Completed) +
               " completed");
    }
  }
  J.Stats.Collectives = Found.size();
  J.Collectives = std::move(Found);
}

/// Turns the pending edges into job edges. A node that is the source of a
/// cross edge stands for its call's start; edges into it go to its
/// continuation (job_graph.h).
void Builder::resolveEdges() {
  std::vector<std::vector<bool>> Source(J.Ranks.size());
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R)
    Source[R].assign(J.Ranks[R].Nodes.size(), false);
  for (const Pending &P : Edges)
    if (P.From.Rank != mpi::NoRank)
      Source[P.From.Rank][P.From.Node] = true;
  auto idOf = [&](const End &X) {
    return X.Rank == mpi::NoRank ? J.collectiveId(X.Node)
                                 : J.id(X.Rank, X.Node);
  };
  for (const Pending &P : Edges) {
    JobNodeId From = idOf(P.From);
    if (P.To.Rank == mpi::NoRank || !Source[P.To.Rank][P.To.Node]) {
      J.Edges.push_back({From, idOf(P.To), P.Kind});
      continue;
    }
    const Graph &G = J.Ranks[P.To.Rank];
    auto It =
        std::lower_bound(G.Edges.begin(), G.Edges.end(), P.To.Node,
                         [](const Edge &E, NodeId N) { return E.Source < N; });
    bool Any = false;
    for (; It != G.Edges.end() && It->Source == P.To.Node; ++It) {
      J.Edges.push_back({From, J.id(P.To.Rank, It->Target), P.Kind});
      Any = true;
    }
    if (!Any) {
      ++J.Stats.DroppedEdges;
      warn(Other,
           std::string(jobEdgeKindName(P.Kind)) + " edge into " +
               where(P.To.Rank, P.To.Node) +
               " dropped: the call itself sends (or feeds a collective) and "
               "nothing follows it in its rank's graph");
    }
  }
  std::sort(J.Edges.begin(), J.Edges.end());
  J.Edges.erase(std::unique(J.Edges.begin(), J.Edges.end()), J.Edges.end());
}

void Builder::run(bool WithEdges) {
  std::uint32_t N = std::uint32_t(J.Ranks.size());
  J.Stats.Ranks = N;
  J.Present.assign(N, false);
  J.Offset.assign(N + 1, 0);
  for (std::uint32_t R = 0; R < N; ++R) {
    const Graph &G = J.Ranks[R];
    J.Present[R] = !G.Nodes.empty();
    J.Offset[R + 1] = J.Offset[R] + G.Nodes.size();
    if (!J.Present[R]) {
      ++J.Stats.MissingRanks;
      warn(Ranks, "rank " + std::to_string(R) + ": no graph");
      continue;
    }
    if (G.Mpi.Rank >= 0 && std::uint32_t(G.Mpi.Rank) != R)
      warn(Ranks, "rank " + std::to_string(R) + "'s graph says it is rank " +
                      std::to_string(G.Mpi.Rank));
    if (G.Mpi.WorldSize && G.Mpi.WorldSize != N)
      warn(Ranks, "rank " + std::to_string(R) + " says the job has " +
                      std::to_string(G.Mpi.WorldSize) + " ranks, not " +
                      std::to_string(N));
    // Communicators' names: the lowest rank's that named it.
    for (const auto &[Key, Id] : G.Mpi.CommNames)
      if (Id < G.Names.size() && !G.Names[Id].empty())
        J.CommNames.emplace(Key, G.Names[Id]);
    // Drop what cannot be a node of this graph (a damaged input).
    for (const MpiCall &C : G.Mpi.Calls)
      if (C.Node >= G.Nodes.size()) {
        warn(Ranks, "rank " + std::to_string(R) + ": an MPI call names node " +
                        std::to_string(C.Node) + ", beyond its graph: ignored");
        J.Ranks[R].Mpi.Calls.clear();
        J.Ranks[R].Mpi.Ops.clear();
        break;
      }
  }
  // The others as OTTER shows them (MpiGraph::commText: "world/1@2"): the
  // lowest rank's view that made them.
  for (std::uint32_t R = 0; R < N; ++R)
    for (const MpiGraph::CommOrigin &O : J.Ranks[R].Mpi.CommOrigins)
      if (!J.CommNames.count(O.Key))
        J.CommNames.emplace(O.Key,
                            J.Ranks[R].Mpi.commText(O.Key, J.Ranks[R].Names));
  matchP2p();
  collectives();
  if (WithEdges)
    resolveEdges();
  leftOut();
}

} // namespace

JobGraph buildJobGraph(std::vector<Graph> Ranks, bool Edges) {
  JobGraph J;
  J.Ranks = std::move(Ranks);
  Builder(J).run(Edges);
  return J;
}

} // namespace otter
