// Unit tests for the job graph (job_graph.h) on synthetic ranks'
// graphs: message edges matched by communicator, source, tag and
// non-overtaking order (wildcards by what they received, non-blocking
// receives by where they were posted), collectives as one node each with
// data-flow edges, edges into calls that also send going to their
// continuation (so halo exchanges and Sendrecv pairs make no cycle), and
// what cannot be matched counted, never fatal. A property test checks the
// matcher against a brute-force simulation of MPI's matching queues on
// random programs.
#include "job_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

using namespace otter;

namespace {

using mpi::Function;

MpiOp op(EventKind K, std::uint64_t Comm, std::uint32_t Peer, std::uint32_t Tag,
         std::uint32_t Req = 0, NodeId ReqNode = NoNode) {
  MpiOp O;
  O.Kind = K;
  O.Comm = Comm;
  O.Peer = Peer;
  O.PeerInComm = Peer;
  O.Tag = Tag;
  O.Bytes = 4;
  O.Request = Req;
  O.RequestNode = ReqNode;
  return O;
}
MpiOp send(std::uint32_t Peer, std::uint32_t Tag,
           std::uint64_t Comm = mpi::WorldKey) {
  return op(EventKind::MpiSend, Comm, Peer, Tag);
}
MpiOp recv(std::uint32_t Peer, std::uint32_t Tag,
           std::uint64_t Comm = mpi::WorldKey) {
  return op(EventKind::MpiRecv, Comm, Peer, Tag);
}
MpiOp coll(bool Begin, mpi::CollectiveOp Op, std::uint64_t Instance,
           std::uint32_t Root = mpi::NoRank, std::uint64_t Comm = mpi::WorldKey,
           std::uint32_t Req = 0, NodeId ReqNode = NoNode) {
  MpiOp O;
  O.Kind = Begin ? EventKind::MpiCollectiveBegin : EventKind::MpiCollectiveEnd;
  O.Comm = Comm;
  O.Op = Op;
  O.Instance = Instance;
  O.Peer = Root;
  O.Request = Req;
  O.RequestNode = ReqNode;
  return O;
}

/// One rank's graph: the initial task's strand of MPI calls, each labelled
/// t.c:<line>, one clock tick per call.
struct Rank {
  Graph G;
  std::uint64_t Clock = 100;
  Rank(std::int64_t R, std::uint32_t Size) {
    G.Nodes.push_back({NodeKind::InitialTask});
    G.Labels.push_back({});
    G.Mpi.Rank = R;
    G.Mpi.WorldSize = Size;
  }
  NodeId call(Function F, std::vector<MpiOp> Ops, std::uint32_t Line = 0) {
    NodeId N = NodeId(G.Nodes.size());
    SourceLabel L;
    L.File = "t.c";
    L.Line = Line ? Line : N;
    L.Col = 1;
    G.Labels.push_back(L);
    G.Nodes.push_back({NodeKind::MpiCall, false, 0, 0,
                       std::uint32_t(G.Labels.size() - 1), std::uint32_t(F)});
    G.Edges.push_back({N - 1, N, EdgeKind::Scope});
    MpiCall C;
    C.Node = N;
    C.Function = F;
    C.FirstOp = std::uint32_t(G.Mpi.Ops.size());
    C.OpCount = std::uint32_t(Ops.size());
    C.Begin = Clock++;
    for (MpiOp &O : Ops) {
      if (O.RequestNode == NoNode && O.Request)
        O.RequestNode = N; // a post names itself
      O.Time = Clock;
      G.Mpi.Ops.push_back(O);
    }
    C.End = Clock++;
    G.Mpi.Calls.push_back(C);
    return N;
  }
  Graph done() {
    std::sort(G.Edges.begin(), G.Edges.end());
    return G;
  }
};

std::vector<Graph> ranks(std::vector<Rank> &Rs) {
  std::vector<Graph> V;
  for (Rank &R : Rs)
    V.push_back(R.done());
  return V;
}

/// The job graph has no cycle (Kahn's algorithm over every edge).
bool acyclic(const JobGraph &J) {
  std::vector<std::vector<JobNodeId>> Out(J.nodeCount());
  std::vector<std::uint32_t> In(J.nodeCount(), 0);
  auto add = [&](JobNodeId S, JobNodeId T) {
    Out[S].push_back(T);
    ++In[T];
  };
  for (std::uint32_t R = 0; R < J.Ranks.size(); ++R)
    for (const Edge &E : J.Ranks[R].Edges)
      add(J.id(R, E.Source), J.id(R, E.Target));
  for (const JobEdge &E : J.Edges)
    add(E.Source, E.Target);
  std::vector<JobNodeId> Ready;
  for (JobNodeId I = 0; I < J.nodeCount(); ++I)
    if (!In[I])
      Ready.push_back(I);
  std::size_t Seen = 0;
  while (!Ready.empty()) {
    JobNodeId N = Ready.back();
    Ready.pop_back();
    ++Seen;
    for (JobNodeId T : Out[N])
      if (--In[T] == 0)
        Ready.push_back(T);
  }
  return Seen == J.nodeCount();
}

std::string canon(const JobGraph &J) {
  std::ostringstream OS;
  writeJobCanonical(J, OS);
  return OS.str();
}

using Pair = std::tuple<std::uint32_t, NodeId, std::uint32_t, NodeId>;
std::vector<Pair> matched(const JobGraph &J) {
  std::vector<Pair> V;
  for (const JobMessage &M : J.Messages)
    if (M.State == JobMessage::Matched)
      V.push_back({M.SendRank, M.SendNode, M.RecvRank, M.RecvNode});
  std::sort(V.begin(), V.end());
  return V;
}

TEST(JobGraph, PingPongIsTwoMessageEdgesWithSites) {
  std::vector<Rank> Rs{Rank(0, 2), Rank(1, 2)};
  Rs[0].call(Function::Send, {send(1, 5)}, 30);
  Rs[0].call(Function::Recv, {recv(1, 6)}, 31);
  Rs[1].call(Function::Recv, {recv(0, 5)}, 33);
  Rs[1].call(Function::Send, {send(0, 6)}, 35);
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(J.Stats.Messages, 2u);
  EXPECT_TRUE(J.Warnings.empty());
  EXPECT_EQ(canon(J), "# otter canonical job graph v1: 2 ranks, 6 nodes, 6 "
                      "edges, 2 messages, 0 collectives\n"
                      "r0.n0 initial_task parent=- at=?\n"
                      "  -> r0.n1 scope\n"
                      "r0.n1 mpi parent=r0.n0 at=t.c:30:1 flags=MPI_Send\n"
                      "  -> r0.n2 scope\n"
                      "  -> r1.n1 message at=t.c:33:1\n"
                      "r0.n2 mpi parent=r0.n0 at=t.c:31:1 flags=MPI_Recv\n"
                      "r1.n0 initial_task parent=- at=?\n"
                      "  -> r1.n1 scope\n"
                      "r1.n1 mpi parent=r1.n0 at=t.c:33:1 flags=MPI_Recv\n"
                      "  -> r1.n2 scope\n"
                      "r1.n2 mpi parent=r1.n0 at=t.c:35:1 flags=MPI_Send\n"
                      "  -> r0.n2 message at=t.c:31:1\n");
  std::ostringstream Csv, Edges, Nodes;
  writeJobMessagesCsv(J, Csv);
  EXPECT_EQ(Csv.str(), "status,send_rank,send_node,send_at,recv_rank,"
                       "recv_node,recv_at,comm,tag,bytes\n"
                       "matched,0,1,t.c:30:1,1,1,t.c:33:1,world,5,4\n"
                       "matched,1,2,t.c:35:1,0,2,t.c:31:1,world,6,4\n");
  writeJobEdgesCsv(J, Edges);
  EXPECT_EQ(Edges.str(), "source,target,kind\n0,1,scope\n1,2,scope\n"
                         "1,4,message\n3,4,scope\n4,5,scope\n5,2,message\n");
  writeJobNodesCsv(J, Nodes);
  EXPECT_NE(Nodes.str().find("\n4,1,1,mpi,3,0,t.c,33,1,,"), std::string::npos)
      << Nodes.str();
  EXPECT_TRUE(acyclic(J));
}

TEST(JobGraph, HaloExchangeEdgesLeaveFromThePostNotTheWait) {
  // Isend; Recv; Wait on both ranks: an edge from the Wait that completes
  // the Isend would make a cycle (each Wait after its own Recv).
  std::vector<Rank> Rs{Rank(0, 2), Rank(1, 2)};
  for (std::uint32_t R = 0; R < 2; ++R) {
    NodeId P = Rs[R].call(
        Function::Isend, {op(EventKind::MpiIsend, mpi::WorldKey, 1 - R, 0, 7)});
    Rs[R].call(Function::Recv, {recv(1 - R, 0)});
    Rs[R].call(Function::Wait, {op(EventKind::MpiIsendComplete, mpi::WorldKey,
                                   1 - R, 0, 7, P)});
  }
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(matched(J), (std::vector<Pair>{{0, 1, 1, 2}, {1, 1, 0, 2}}));
  EXPECT_TRUE(acyclic(J));
}

TEST(JobGraph, SendrecvReceivesIntoItsContinuation) {
  // A ring of Sendrecv: each call sends, so what it receives enters the
  // node after it (else a ring of Sendrecv would be a cycle).
  std::vector<Rank> Rs{Rank(0, 3), Rank(1, 3), Rank(2, 3)};
  for (std::uint32_t R = 0; R < 3; ++R) {
    Rs[R].call(Function::Sendrecv,
               {send((R + 1) % 3, 1), recv((R + 2) % 3, 1)});
    Rs[R].call(Function::Finalize, {});
  }
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(J.Stats.Messages, 3u);
  EXPECT_TRUE(acyclic(J));
  std::vector<JobEdge> Want;
  for (std::uint32_t R = 0; R < 3; ++R)
    Want.push_back({J.id(R, 1), J.id((R + 1) % 3, 2), JobEdgeKind::Message});
  std::sort(Want.begin(), Want.end());
  EXPECT_EQ(J.Edges, Want);
  // The message table still names the calls themselves.
  EXPECT_EQ(matched(J),
            (std::vector<Pair>{{0, 1, 1, 1}, {1, 1, 2, 1}, {2, 1, 0, 1}}));
}

TEST(JobGraph, WildcardReceivesMatchWhatTheyReceived) {
  // Rank 0 posts two any-source/any-tag receives and a specific one; the
  // completions say who sent what.
  std::vector<Rank> Rs{Rank(0, 3), Rank(1, 3), Rank(2, 3)};
  NodeId A =
      Rs[0].call(Function::Irecv, {op(EventKind::MpiIrecvRequest, mpi::WorldKey,
                                      mpi::NoRank, mpi::AnyTag, 1)});
  NodeId B =
      Rs[0].call(Function::Irecv, {op(EventKind::MpiIrecvRequest, mpi::WorldKey,
                                      mpi::NoRank, mpi::AnyTag, 2)});
  NodeId W = Rs[0].call(Function::Waitall,
                        {op(EventKind::MpiIrecv, mpi::WorldKey, 2, 9, 1, A),
                         op(EventKind::MpiIrecv, mpi::WorldKey, 1, 3, 2, B)});
  NodeId R3 = Rs[0].call(Function::Recv, {recv(1, 3)});
  NodeId S1 = Rs[1].call(Function::Send, {send(0, 3)});
  NodeId S1b = Rs[1].call(Function::Send, {send(0, 3)});
  NodeId S2 = Rs[2].call(Function::Send, {send(0, 9)});
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(matched(J),
            (std::vector<Pair>{{1, S1, 0, W}, {1, S1b, 0, R3}, {2, S2, 0, W}}));
  EXPECT_EQ(J.Stats.UnmatchedSends + J.Stats.UnmatchedReceives, 0u);
}

TEST(JobGraph, NonOvertakingFollowsPostOrderNotCompletionOrder) {
  // Three messages with one tag; rank 1 posts three Irecvs and completes
  // them in the opposite order: the k-th posted gets the k-th sent.
  std::vector<Rank> Rs{Rank(0, 2), Rank(1, 2)};
  NodeId S[3];
  for (NodeId &N : S)
    N = Rs[0].call(Function::Send, {send(1, 4)});
  NodeId P[3], C[3];
  for (int I = 0; I < 3; ++I)
    P[I] = Rs[1].call(Function::Irecv,
                      {op(EventKind::MpiIrecvRequest, mpi::WorldKey, 0, 4,
                          std::uint32_t(10 + I))});
  for (int I = 2; I >= 0; --I)
    C[I] = Rs[1].call(Function::Wait, {op(EventKind::MpiIrecv, mpi::WorldKey, 0,
                                          4, std::uint32_t(10 + I), P[I])});
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(matched(J),
            (std::vector<Pair>{
                {0, S[0], 1, C[0]}, {0, S[1], 1, C[1]}, {0, S[2], 1, C[2]}}));
}

TEST(JobGraph, CommunicatorsAndTagsAreSeparateChannels) {
  // Same source and destination, different communicators and tags: a
  // receive on one never takes a message of another, whatever the order.
  const std::uint64_t Odd = 0x1234567890;
  std::vector<Rank> Rs{Rank(0, 2), Rank(1, 2)};
  NodeId A = Rs[0].call(Function::Send, {send(1, 1, Odd)});
  NodeId B = Rs[0].call(Function::Send, {send(1, 1)});
  NodeId C = Rs[0].call(Function::Send, {send(1, 2)});
  NodeId X = Rs[1].call(Function::Recv, {recv(0, 2)});
  NodeId Y = Rs[1].call(Function::Recv, {recv(0, 1)});
  NodeId Z = Rs[1].call(Function::Recv, {recv(0, 1, Odd)});
  JobGraph J = buildJobGraph(ranks(Rs));
  EXPECT_EQ(matched(J),
            (std::vector<Pair>{{0, A, 1, Z}, {0, B, 1, Y}, {0, C, 1, X}}));
}

TEST(JobGraph, CollectivesAreOneNodeWithDataFlowEdges) {
  std::vector<Rank> Rs{Rank(0, 3), Rank(1, 3), Rank(2, 3)};
  using Op = mpi::CollectiveOp;
  for (std::uint32_t R = 0; R < 3; ++R) {
    Rs[R].call(Function::Allreduce,
               {coll(true, Op::Allreduce, 0), coll(false, Op::Allreduce, 0)},
               40);
    Rs[R].call(Function::Bcast,
               {coll(true, Op::Bcast, 1, 1), coll(false, Op::Bcast, 1, 1)}, 41);
    NodeId P = Rs[R].call(
        Function::Ibarrier,
        {coll(true, Op::Barrier, 2, mpi::NoRank, mpi::WorldKey, 5)}, 42);
    Rs[R].call(Function::Wait,
               {coll(false, Op::Barrier, 2, mpi::NoRank, mpi::WorldKey, 5, P)},
               43);
    Rs[R].call(Function::Finalize, {}, 44);
  }
  JobGraph J = buildJobGraph(ranks(Rs));
  ASSERT_EQ(J.Collectives.size(), 3u);
  EXPECT_EQ(J.Stats.IncompleteCollectives, 0u);
  EXPECT_TRUE(J.Warnings.empty());
  EXPECT_TRUE(acyclic(J));
  std::string T = canon(J);
  // Allreduce: every member in, every member's continuation out.
  EXPECT_NE(T.find("c0 mpi_collective at=t.c:40:1 flags=MPI_Allreduce "
                   "comm=world instance=0 ranks=3/3\n"
                   "  -> r0.n2 collective at=t.c:41:1\n"
                   "  -> r1.n2 collective at=t.c:41:1\n"
                   "  -> r2.n2 collective at=t.c:41:1\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("r1.n1 mpi parent=r1.n0 at=t.c:40:1 flags=MPI_Allreduce\n"
                   "  -> r1.n2 scope\n  -> c0 collective"),
            std::string::npos);
  // Bcast from rank 1: only the root in; the others' own calls out (they
  // send nothing, so the call itself is where the data arrives).
  EXPECT_NE(T.find("c1 mpi_collective at=t.c:41:1 flags=MPI_Bcast comm=world "
                   "instance=1 ranks=3/3\n"
                   "  -> r0.n2 collective at=t.c:41:1\n"
                   "  -> r2.n2 collective at=t.c:41:1\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("r1.n2 mpi parent=r1.n0 at=t.c:41:1 flags=MPI_Bcast\n"
                   "  -> r1.n3 scope\n  -> c1 collective"),
            std::string::npos);
  EXPECT_EQ(T.find("r0.n2 mpi parent=r0.n0 at=t.c:41:1 flags=MPI_Bcast\n"
                   "  -> r0.n3 scope\n  -> c1"),
            std::string::npos);
  // Ibarrier: in from the call that started it, out to the Wait.
  EXPECT_NE(T.find("  -> r2.n4 collective at=t.c:43:1\n"), std::string::npos);
  EXPECT_NE(T.find("r2.n3 mpi parent=r2.n0 at=t.c:42:1 flags=MPI_Ibarrier\n"
                   "  -> r2.n4 scope\n  -> c2 collective"),
            std::string::npos);
}

TEST(JobGraph, ReduceGoesToTheRootOnlyAndSplitCommsAreSeparate) {
  // Comm_split into {0,2} and {1,3}: instance 0 on each half is its own
  // node; a Reduce to world rank 2 on the even half.
  const std::uint64_t Even = 0xe0e0, OddK = 0x0d0d;
  std::vector<Rank> Rs;
  for (std::uint32_t R = 0; R < 4; ++R) {
    Rs.emplace_back(R, 4);
    std::uint64_t K = R % 2 ? OddK : Even;
    Rs[R].G.Mpi.CommSizes = {{K, 2}};
    std::uint32_t Root = R % 2 ? 3 : 2;
    Rs[R].call(Function::Reduce,
               {coll(true, mpi::CollectiveOp::Reduce, 0, Root, K),
                coll(false, mpi::CollectiveOp::Reduce, 0, Root, K)});
    Rs[R].call(Function::Finalize, {});
  }
  JobGraph J = buildJobGraph(ranks(Rs));
  ASSERT_EQ(J.Collectives.size(), 2u);
  EXPECT_EQ(J.Collectives[0].Members.size(), 2u);
  EXPECT_EQ(J.Collectives[0].Comm, Even); // its first member is rank 0
  EXPECT_EQ(J.Collectives[1].Comm, OddK);
  EXPECT_EQ(J.Stats.IncompleteCollectives, 0u);
  std::vector<JobEdge> Want = {
      {J.id(0, 1), J.collectiveId(0), JobEdgeKind::Collective},
      {J.id(1, 1), J.collectiveId(1), JobEdgeKind::Collective},
      {J.id(2, 1), J.collectiveId(0), JobEdgeKind::Collective},
      {J.id(3, 1), J.collectiveId(1), JobEdgeKind::Collective},
      {J.collectiveId(0), J.id(2, 2), JobEdgeKind::Collective},
      {J.collectiveId(1), J.id(3, 2), JobEdgeKind::Collective}};
  std::sort(Want.begin(), Want.end());
  EXPECT_EQ(J.Edges, Want);
}

TEST(JobGraph, MissingRanksAndCutOffReceivesAreCountedNotFatal) {
  // Rank 2 left no graph (killed before writing anything); rank 1 posted
  // an Irecv it never completed (cut off): the send it took is reported,
  // and the next message of the channel still matches the next receive.
  std::vector<Rank> Rs{Rank(0, 3), Rank(1, 3), Rank(2, 3)};
  NodeId S0 = Rs[0].call(Function::Send, {send(1, 1)});
  NodeId S1 = Rs[0].call(Function::Send, {send(1, 1)});
  NodeId S2 = Rs[0].call(Function::Send, {send(2, 1)});
  Rs[0].call(Function::Allreduce,
             {coll(true, mpi::CollectiveOp::Allreduce, 0),
              coll(false, mpi::CollectiveOp::Allreduce, 0)});
  Rs[1].call(Function::Irecv,
             {op(EventKind::MpiIrecvRequest, mpi::WorldKey, 0, 1, 3)});
  NodeId R1 = Rs[1].call(Function::Recv, {recv(0, 1)});
  NodeId R2 = Rs[1].call(Function::Recv, {recv(0, 7)}); // never sent
  std::vector<Graph> G = ranks(Rs);
  G[2] = Graph();
  JobGraph J = buildJobGraph(std::move(G));
  EXPECT_EQ(J.Stats.MissingRanks, 1u);
  EXPECT_EQ(matched(J), (std::vector<Pair>{{0, S1, 1, R1}}));
  EXPECT_EQ(J.Stats.UnmatchedSends, 2u);
  EXPECT_EQ(J.Stats.UnmatchedReceives, 1u);
  EXPECT_EQ(J.Stats.IncompleteCollectives, 1u);
  ASSERT_EQ(J.Messages.size(), 4u);
  EXPECT_EQ(J.Messages[1].State, JobMessage::NoReceive);
  EXPECT_EQ(J.Messages[1].SendNode, S2);
  EXPECT_EQ(J.Messages[2].State, JobMessage::ReceiveIncomplete);
  EXPECT_EQ(J.Messages[2].SendNode, S0);
  EXPECT_EQ(J.Messages[3].State, JobMessage::NoSend);
  EXPECT_EQ(J.Messages[3].RecvNode, R2);
  EXPECT_FALSE(J.Warnings.empty());
  EXPECT_NE(canon(J).find("# unmatched: 2 sends, 1 receives; 1 incomplete "
                          "collectives; 1 ranks without a graph\n"),
            std::string::npos);
  // Every writer copes.
  std::ostringstream OS;
  writeJobNodesCsv(J, OS);
  writeJobEdgesCsv(J, OS);
  writeJobMessagesCsv(J, OS);
  writeJobCollectivesCsv(J, OS);
  writeJobDot(J, OS);
  EXPECT_NE(OS.str().find("no_receive,0,3,t.c:3:1,2,,,world,1,4\n"),
            std::string::npos)
      << OS.str();
}

TEST(JobGraph, UnknownCommunicatorsAndDamagedCallsAreSkipped) {
  std::vector<Rank> Rs{Rank(0, 2), Rank(1, 2)};
  Rs[0].call(Function::Send, {send(1, 1, 0)});
  Rs[1].call(Function::Recv, {recv(0, 1, 0)});
  std::vector<Graph> G = ranks(Rs);
  G[1].Mpi.Calls[0].Node = 99; // beyond its graph
  JobGraph J = buildJobGraph(std::move(G));
  EXPECT_EQ(J.Stats.Messages, 0u);
  EXPECT_EQ(J.Stats.UnknownCommunicator, 1u);
  EXPECT_TRUE(J.Edges.empty());
}

//===----------------------------------------------------------------------===//
// Property test: a brute-force MPI matching engine.
//
// Random programs (ranks, communicators, messages with Send/Isend, Recv/
// Irecv with any-source/any-tag, Waitall/Waitsome at random points) run
// under a literal model of MPI's matching: per destination a queue of
// posted receives and a queue of unexpected messages, each searched in
// order; eager sends. Ranks interleave at random. Each call is recorded
// as the wrappers would (one node per call, begin/end times), and the
// job graph must find exactly the pairs the engine made. Programs the
// engine cannot finish (a wildcard took a message a later receive needed)
// are drawn again.
//===----------------------------------------------------------------------===//

struct SimComm {
  std::uint64_t Key;
  std::vector<std::uint32_t> Members; // world ranks
};

struct SimOp {
  enum Type { Send, Isend, Recv, Irecv, Waitall, Waitsome } T;
  std::uint32_t Comm = 0;
  std::uint32_t Peer = mpi::NoRank; // world rank; NoRank: any source
  std::uint32_t Tag = mpi::AnyTag;
  std::uint32_t Msg = 0; // sends: the message's id
};

struct SimResult {
  std::vector<Graph> Graphs;
  std::vector<Pair> Pairs;
  bool Finished = false;
};

SimResult simulate(std::uint32_t NRanks, const std::vector<SimComm> &Comms,
                   const std::vector<std::vector<SimOp>> &Prog,
                   std::mt19937 &Rng) {
  struct Req {
    std::uint32_t Id;
    bool Recv;
    NodeId PostNode;
    std::uint32_t Comm, Peer, Tag; // posted / sent
    bool Matched = false;
    std::uint32_t GotSrc = 0, GotTag = 0;
    std::uint32_t SendRank = 0;
    NodeId SendNode = NoNode;
    bool Blocking = false;
  };
  struct Unexpected {
    std::uint32_t Comm, Src, Tag, SendRank;
    NodeId SendNode;
  };
  struct RankSt {
    Rank Rec;
    std::size_t Pc = 0;
    std::vector<Req> Reqs;                  // all, by id
    std::vector<std::uint32_t> Outstanding; // not yet completed
    std::vector<std::uint32_t> Posted;      // receive queue (req ids)
    std::vector<Unexpected> Unexp;
    bool Blocked = false;
    std::uint64_t CallBegin = 0;
    RankSt(std::uint32_t R, std::uint32_t N) : Rec(R, N) {}
  };
  std::vector<RankSt> St;
  for (std::uint32_t R = 0; R < NRanks; ++R)
    St.emplace_back(R, NRanks);
  SimResult Out;
  std::uint64_t Time = 1000;
  auto matches = [](std::uint32_t PComm, std::uint32_t PPeer,
                    std::uint32_t PTag, std::uint32_t Comm, std::uint32_t Src,
                    std::uint32_t Tag) {
    return PComm == Comm && (PPeer == mpi::NoRank || PPeer == Src) &&
           (PTag == mpi::AnyTag || PTag == Tag);
  };
  auto pair = [&](RankSt &D, Req &Q, std::uint32_t Src, std::uint32_t Tag,
                  std::uint32_t SendRank, NodeId SendNode) {
    Q.Matched = true;
    Q.GotSrc = Src;
    Q.GotTag = Tag;
    Q.SendRank = SendRank;
    Q.SendNode = SendNode;
    (void)D;
  };
  auto deliver = [&](std::uint32_t From, NodeId Node, std::uint32_t Dst,
                     std::uint32_t Comm, std::uint32_t Tag) {
    RankSt &D = St[Dst];
    for (std::size_t I = 0; I < D.Posted.size(); ++I) {
      Req &Q = D.Reqs[D.Posted[I]];
      if (matches(Q.Comm, Q.Peer, Q.Tag, Comm, From, Tag)) {
        pair(D, Q, From, Tag, From, Node);
        D.Posted.erase(D.Posted.begin() + std::ptrdiff_t(I));
        return;
      }
    }
    D.Unexp.push_back({Comm, From, Tag, From, Node});
  };
  auto postRecv = [&](RankSt &S, Req &Q) {
    for (std::size_t I = 0; I < S.Unexp.size(); ++I) {
      Unexpected &U = S.Unexp[I];
      if (matches(Q.Comm, Q.Peer, Q.Tag, U.Comm, U.Src, U.Tag)) {
        pair(S, Q, U.Src, U.Tag, U.SendRank, U.SendNode);
        S.Unexp.erase(S.Unexp.begin() + std::ptrdiff_t(I));
        return;
      }
    }
    S.Posted.push_back(Q.Id);
  };
  auto key = [&](std::uint32_t C) { return Comms[C].Key; };
  // Records call N's ops with the node it will get and the times.
  auto record = [&](RankSt &S, Function F, std::vector<MpiOp> Ops) {
    S.Rec.Clock = S.CallBegin;
    NodeId N = S.Rec.call(F, std::move(Ops));
    S.Rec.G.Mpi.Calls.back().End = Time;
    S.Rec.Clock = Time + 1;
    return N;
  };
  auto completionOp = [&](const Req &Q) {
    if (Q.Recv)
      return op(EventKind::MpiIrecv, key(Q.Comm), Q.GotSrc, Q.GotTag, Q.Id + 1,
                Q.PostNode);
    return op(EventKind::MpiIsendComplete, key(Q.Comm), Q.Peer, Q.Tag, Q.Id + 1,
              Q.PostNode);
  };
  for (;;) {
    std::vector<std::uint32_t> Runnable;
    for (std::uint32_t R = 0; R < NRanks; ++R) {
      RankSt &S = St[R];
      if (S.Pc >= Prog[R].size())
        continue;
      if (!S.Blocked) {
        Runnable.push_back(R);
        continue;
      }
      // Blocked: can its call finish now?
      const SimOp &O = Prog[R][S.Pc];
      bool Can = false;
      if (O.T == SimOp::Recv)
        Can = S.Reqs.back().Matched;
      else if (O.T == SimOp::Waitall) {
        Can = true;
        for (std::uint32_t Id : S.Outstanding)
          Can = Can && (!S.Reqs[Id].Recv || S.Reqs[Id].Matched);
      } else if (O.T == SimOp::Waitsome) {
        for (std::uint32_t Id : S.Outstanding)
          Can = Can || !S.Reqs[Id].Recv || S.Reqs[Id].Matched;
      }
      if (Can)
        Runnable.push_back(R);
    }
    if (Runnable.empty())
      break;
    std::uint32_t R = Runnable[Rng() % Runnable.size()];
    RankSt &S = St[R];
    const SimOp &O = Prog[R][S.Pc];
    ++Time;
    if (!S.Blocked)
      S.CallBegin = Time;
    switch (O.T) {
    case SimOp::Send:
    case SimOp::Isend: {
      bool NB = O.T == SimOp::Isend;
      NodeId N = NodeId(S.Rec.G.Nodes.size()); // the node it will be
      deliver(R, N, O.Peer, O.Comm, O.Tag);
      if (NB) {
        std::uint32_t Id = std::uint32_t(S.Reqs.size());
        S.Reqs.push_back({Id, false, N, O.Comm, O.Peer, O.Tag});
        S.Outstanding.push_back(Id);
        record(S, Function::Isend,
               {op(EventKind::MpiIsend, key(O.Comm), O.Peer, O.Tag, Id + 1)});
      } else {
        record(S, Function::Send, {send(O.Peer, O.Tag, key(O.Comm))});
      }
      ++S.Pc;
      break;
    }
    case SimOp::Recv:
    case SimOp::Irecv: {
      bool NB = O.T == SimOp::Irecv;
      if (!S.Blocked) {
        std::uint32_t Id = std::uint32_t(S.Reqs.size());
        S.Reqs.push_back(
            {Id, true, NodeId(S.Rec.G.Nodes.size()), O.Comm, O.Peer, O.Tag});
        S.Reqs.back().Blocking = !NB;
        postRecv(S, S.Reqs.back());
        if (NB) {
          S.Outstanding.push_back(Id);
          record(S, Function::Irecv,
                 {op(EventKind::MpiIrecvRequest, key(O.Comm), O.Peer, O.Tag,
                     Id + 1)});
          ++S.Pc;
          break;
        }
      }
      Req &Q = S.Reqs.back();
      if (!Q.Matched) {
        S.Blocked = true;
        break;
      }
      S.Blocked = false;
      record(S, Function::Recv, {recv(Q.GotSrc, Q.GotTag, key(O.Comm))});
      Out.Pairs.push_back({Q.SendRank, Q.SendNode, R, Q.PostNode});
      ++S.Pc;
      break;
    }
    case SimOp::Waitall:
    case SimOp::Waitsome: {
      std::vector<std::uint32_t> Done, Left;
      for (std::uint32_t Id : S.Outstanding)
        (!S.Reqs[Id].Recv || S.Reqs[Id].Matched ? Done : Left).push_back(Id);
      if ((O.T == SimOp::Waitall && !Left.empty()) || Done.empty()) {
        if (!S.Outstanding.empty()) {
          S.Blocked = true;
          break;
        }
      }
      S.Blocked = false;
      if (O.T == SimOp::Waitsome && Done.size() > 1)
        Done.resize(1 + Rng() % Done.size()); // returns some of them
      for (std::uint32_t Id : Done)
        S.Outstanding.erase(
            std::find(S.Outstanding.begin(), S.Outstanding.end(), Id));
      if (!Done.empty()) {
        std::vector<MpiOp> Ops;
        for (std::uint32_t Id : Done)
          Ops.push_back(completionOp(S.Reqs[Id]));
        NodeId N = record(
            S, O.T == SimOp::Waitall ? Function::Waitall : Function::Waitsome,
            std::move(Ops));
        for (std::uint32_t Id : Done)
          if (S.Reqs[Id].Recv)
            Out.Pairs.push_back(
                {S.Reqs[Id].SendRank, S.Reqs[Id].SendNode, R, N});
      }
      ++S.Pc;
      break;
    }
    }
  }
  Out.Finished = true;
  for (RankSt &S : St)
    Out.Finished = Out.Finished && S.Pc == Prog[&S - St.data()].size() &&
                   S.Outstanding.empty() && S.Posted.empty() && S.Unexp.empty();
  for (RankSt &S : St) {
    S.Rec.call(Function::Finalize, {});
    Out.Graphs.push_back(S.Rec.done());
  }
  std::sort(Out.Pairs.begin(), Out.Pairs.end());
  return Out;
}

/// A random program: messages on random communicators, received with
/// random wildcards, in a random order per rank, waits at random points.
bool randomProgram(std::mt19937 &Rng, std::uint32_t &NRanks,
                   std::vector<SimComm> &Comms,
                   std::vector<std::vector<SimOp>> &Prog) {
  NRanks = 2 + Rng() % 4;
  Comms = {{mpi::WorldKey, {}}};
  for (std::uint32_t R = 0; R < NRanks; ++R)
    Comms[0].Members.push_back(R);
  for (unsigned C = Rng() % 3; C > 0; --C) {
    SimComm X{0x100 + Rng() % 1000, {}};
    for (std::uint32_t R = 0; R < NRanks; ++R)
      if (Rng() % 2)
        X.Members.push_back(R);
    if (X.Members.size() >= 2)
      Comms.push_back(X);
  }
  Prog.assign(NRanks, {});
  unsigned Messages = 1 + Rng() % 24;
  for (unsigned M = 0; M < Messages; ++M) {
    std::uint32_t C = std::uint32_t(Rng() % Comms.size());
    const auto &Mem = Comms[C].Members;
    std::uint32_t Src = Mem[Rng() % Mem.size()], Dst = Mem[Rng() % Mem.size()];
    std::uint32_t Tag = Rng() % 3;
    // Self messages only non-blocking (a blocking self-receive before its
    // send would never finish).
    bool SelfMsg = Src == Dst;
    Prog[Src].push_back(
        {Rng() % 2 || SelfMsg ? SimOp::Isend : SimOp::Send, C, Dst, Tag, M});
    SimOp Rv{Rng() % 2 || SelfMsg ? SimOp::Irecv : SimOp::Recv, C, Src, Tag};
    if (Rng() % 4 == 0)
      Rv.Peer = mpi::NoRank;
    if (Rng() % 4 == 0)
      Rv.Tag = mpi::AnyTag;
    Prog[Dst].push_back(Rv);
  }
  for (auto &P : Prog) {
    std::shuffle(P.begin(), P.end(), Rng);
    std::vector<SimOp> Q;
    for (const SimOp &O : P) {
      Q.push_back(O);
      if (Rng() % 5 == 0)
        Q.push_back({Rng() % 2 ? SimOp::Waitall : SimOp::Waitsome});
    }
    Q.push_back({SimOp::Waitall});
    Q.push_back({SimOp::Waitall}); // after a final Waitsome
    P = Q;
  }
  return true;
}

TEST(JobGraph, PropertyMatchesABruteForceMatchingEngine) {
  std::mt19937 Rng(20240601);
  int Checked = 0, Drawn = 0;
  while (Checked < 300 && Drawn < 5000) {
    ++Drawn;
    std::uint32_t N;
    std::vector<SimComm> Comms;
    std::vector<std::vector<SimOp>> Prog;
    randomProgram(Rng, N, Comms, Prog);
    SimResult S = simulate(N, Comms, Prog, Rng);
    if (!S.Finished)
      continue;
    ++Checked;
    JobGraph J = buildJobGraph(S.Graphs);
    ASSERT_EQ(matched(J), S.Pairs) << "program " << Drawn;
    ASSERT_EQ(J.Stats.UnmatchedSends, 0u);
    ASSERT_EQ(J.Stats.UnmatchedReceives, 0u);
    ASSERT_TRUE(acyclic(J)) << "program " << Drawn;
    // Cut one rank off after a random call (as a SIGKILL does): whatever
    // survives on both sides still pairs exactly, unless a wildcard
    // receive was left posted (then the graph says it may not).
    std::uint32_t Cut = std::uint32_t(Rng() % N);
    Graph &G = S.Graphs[Cut];
    NodeId Keep = NodeId(1 + Rng() % G.Nodes.size());
    G.Nodes.resize(Keep);
    G.Labels.resize(Keep);
    G.Edges.erase(
        std::remove_if(G.Edges.begin(), G.Edges.end(),
                       [&](const Edge &E) { return E.Target >= Keep; }),
        G.Edges.end());
    std::vector<MpiCall> Calls;
    std::vector<MpiOp> Ops;
    for (MpiCall C : G.Mpi.Calls)
      if (C.Node < Keep) {
        std::uint32_t First = std::uint32_t(Ops.size());
        Ops.insert(Ops.end(), G.Mpi.Ops.begin() + C.FirstOp,
                   G.Mpi.Ops.begin() + C.FirstOp + C.OpCount);
        C.FirstOp = First;
        Calls.push_back(C);
      }
    G.Mpi.Calls = Calls;
    G.Mpi.Ops = Ops;
    std::vector<Pair> Survive;
    for (const Pair &P : S.Pairs)
      if ((std::get<0>(P) != Cut || std::get<1>(P) < Keep) &&
          (std::get<2>(P) != Cut || std::get<3>(P) < Keep))
        Survive.push_back(P);
    JobGraph K = buildJobGraph(S.Graphs);
    bool Unsure = false;
    for (const std::string &W : K.Warnings)
      Unsure = Unsure || W.find("wildcard") != std::string::npos;
    if (!Unsure) {
      ASSERT_EQ(matched(K), Survive)
          << "program " << Drawn << " cut rank " << Cut << " at n" << Keep;
    }
    ASSERT_EQ(K.Stats.Messages + K.Stats.UnmatchedSends, [&] {
      std::uint64_t Sends = 0;
      for (std::uint32_t R = 0; R < N; ++R)
        for (const MpiOp &O : S.Graphs[R].Mpi.Ops)
          Sends +=
              O.Kind == EventKind::MpiSend || O.Kind == EventKind::MpiIsend;
      return Sends;
    }());
  }
  EXPECT_EQ(Checked, 300) << "too few random programs finished";
}

} // namespace
