//===- mpi_waits_test.cpp - Scalasca's MPI wait states, synthetic ---------===//
//
// Ranks' MPI calls with hand-set begin and end times (ns), joined by the
// job graph's matcher; the wait states of mpi_waits.h computed by hand in
// the comments: late sender (a Waitall counts its latest send once), late
// receiver (only for sends that block), wait at N x N, late broadcast,
// early reduce; a pattern spread over sites as one finding; MPI_Sendrecv
// counted once; a Wait* completing an Isend; delay costs; clock offsets
// applied; the 1% threshold; the split by thread.
//
//===----------------------------------------------------------------------===//
#include "mpi_waits.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace otter;
using namespace otter::analysis;

namespace {

using mpi::Function;

struct Rank {
  Graph G;
  explicit Rank(std::int64_t R) {
    G.Nodes.push_back({NodeKind::InitialTask});
    G.Labels.push_back({});
    G.Mpi.Rank = R;
  }
  /// A call at Site (its label's line) from B to E doing Ops.
  NodeId call(Function F, std::uint64_t B, std::uint64_t E,
              std::vector<MpiOp> Ops, std::uint64_t Site,
              std::uint32_t Thread = 0) {
    NodeId N = NodeId(G.Nodes.size());
    G.Nodes.push_back({NodeKind::MpiCall});
    MpiCall C;
    C.Node = N;
    C.Function = F;
    C.FirstOp = std::uint32_t(G.Mpi.Ops.size());
    C.OpCount = std::uint32_t(Ops.size());
    C.Begin = B;
    C.End = E;
    C.Site = Site;
    C.Thread = Thread;
    for (MpiOp &O : Ops) {
      if (O.Request && O.RequestNode == NoNode)
        O.RequestNode = N;
      G.Mpi.Ops.push_back(O);
    }
    G.Mpi.Calls.push_back(C);
    return N;
  }
};

MpiOp msg(EventKind K, std::uint32_t Peer, std::uint32_t Req = 0,
          NodeId ReqNode = NoNode) {
  MpiOp O;
  O.Kind = K;
  O.Comm = mpi::WorldKey;
  O.Peer = O.PeerInComm = Peer;
  O.Request = Req;
  O.RequestNode = ReqNode;
  return O;
}
MpiOp coll(bool Begin, mpi::CollectiveOp Op, std::uint64_t I,
           std::uint32_t Root = mpi::NoRank) {
  MpiOp O;
  O.Kind = Begin ? EventKind::MpiCollectiveBegin : EventKind::MpiCollectiveEnd;
  O.Comm = mpi::WorldKey;
  O.Op = Op;
  O.Instance = I;
  O.Peer = Root;
  return O;
}

/// Sites are labelled line = site, file t.c.
SourceLabel label(std::uint64_t Code) {
  SourceLabel L;
  L.File = "t.c";
  L.Line = std::uint32_t(codeAddress(Code));
  return L;
}

std::vector<Finding> run(std::vector<Rank> &Rs, double ThreadTime = 1000,
                         JobTimeFn Time = nullptr) {
  std::vector<Graph> G;
  for (Rank &R : Rs)
    G.push_back(R.G);
  JobGraph J = buildJobGraph(std::move(G), false);
  if (!Time)
    Time = [](std::uint32_t, std::uint64_t T) { return T; };
  return mpiWaitFindings(J, Time, label, ThreadTime);
}

const Finding *find(const std::vector<Finding> &F, const std::string &Check,
                    const std::string &Where) {
  for (const Finding &X : F)
    if (X.Check == Check && X.Where == Where)
      return &X;
  return nullptr;
}

TEST(MpiWaits, LateSenderCountsAWaitallsLatestSendOnce) {
  // Rank 0 posts two Irecvs (0, 1) and waits from 10 to 100; rank 1 sends
  // at 40, rank 2 at 70: the Waitall lost 70 - 10 = 60 (not 30 + 60).
  // Rank 1's Send (40..41) found its receive posted: no late receiver.
  std::vector<Rank> Rs{Rank(0), Rank(1), Rank(2)};
  NodeId A = Rs[0].call(Function::Irecv, 0, 1,
                        {msg(EventKind::MpiIrecvRequest, 1, 7)}, 5);
  NodeId B = Rs[0].call(Function::Irecv, 2, 3,
                        {msg(EventKind::MpiIrecvRequest, 2, 8)}, 6);
  Rs[0].call(
      Function::Waitall, 10, 100,
      {msg(EventKind::MpiIrecv, 1, 7, A), msg(EventKind::MpiIrecv, 2, 8, B)},
      7);
  Rs[1].call(Function::Send, 40, 41, {msg(EventKind::MpiSend, 0)}, 20);
  Rs[2].call(Function::Send, 70, 71, {msg(EventKind::MpiSend, 0)}, 20);
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(F, "late_sender", "t.c:7 MPI_Waitall");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 60u);
  EXPECT_EQ(X->K, Kind::Mpi);
  EXPECT_NE(X->Evidence.find("1 of 1 receive(s)"), std::string::npos);
  EXPECT_FALSE(find(F, "late_receiver", "t.c:20 MPI_Send"));
}

TEST(MpiWaits, SplitByThreadWhereMoreThanOneThreadWaited) {
  // Rank 0's threads 0 and 1 receive from rank 1 (10..50 and 11..80),
  // which sends at 50 and 80: they lose 40 and 69. Rank 2's thread 1
  // receives (0..30) what rank 1 sends at 30: 30, its rank's only waiting
  // thread, so not split.
  std::vector<Rank> Rs{Rank(0), Rank(1), Rank(2)};
  Rs[0].call(Function::Recv, 10, 50, {msg(EventKind::MpiRecv, 1)}, 5, 0);
  Rs[0].call(Function::Recv, 11, 80, {msg(EventKind::MpiRecv, 1)}, 5, 1);
  Rs[1].call(Function::Send, 30, 31, {msg(EventKind::MpiSend, 2)}, 9);
  Rs[1].call(Function::Send, 50, 51, {msg(EventKind::MpiSend, 0)}, 9);
  Rs[1].call(Function::Send, 80, 81, {msg(EventKind::MpiSend, 0)}, 9);
  Rs[2].call(Function::Recv, 0, 30, {msg(EventKind::MpiRecv, 1)}, 5, 1);
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(F, "late_sender", "t.c:5 MPI_Recv");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 139u);
  ASSERT_EQ(X->Ranks.size(), 2u);
  EXPECT_EQ(X->Ranks[0].second, 109u);
  ASSERT_EQ(X->Threads.size(), 2u);
  EXPECT_EQ(X->Threads[0].Rank, 0u);
  EXPECT_EQ(X->Threads[0].Thread, 0u);
  EXPECT_EQ(X->Threads[0].Ns, 40u);
  EXPECT_EQ(X->Threads[1].Thread, 1u);
  EXPECT_EQ(X->Threads[1].Ns, 69u);
}

TEST(MpiWaits, LateReceiverOnlyWhereTheSendBlocks) {
  // Rank 0: Ssend 10..60, Isend at 70; rank 1 posts its receives at 50
  // and 90. The Ssend lost 50 - 10 = 40; the Isend never waits.
  std::vector<Rank> Rs{Rank(0), Rank(1)};
  Rs[0].call(Function::Ssend, 10, 60, {msg(EventKind::MpiSend, 1)}, 3);
  Rs[0].call(Function::Isend, 70, 71, {msg(EventKind::MpiIsend, 1, 4)}, 4);
  Rs[1].call(Function::Recv, 50, 60, {msg(EventKind::MpiRecv, 0)}, 9);
  Rs[1].call(Function::Recv, 90, 91, {msg(EventKind::MpiRecv, 0)}, 10);
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(F, "late_receiver", "t.c:3 MPI_Ssend");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 40u);
  EXPECT_FALSE(find(F, "late_receiver", "t.c:4 MPI_Isend"));
  // Neither receive began before its send.
  EXPECT_FALSE(find(F, "late_sender", "t.c:9 MPI_Recv"));
  EXPECT_FALSE(find(F, "late_sender", "t.c:10 MPI_Recv"));
}

TEST(MpiWaits, CollectivesAsScalascaDefinesThem) {
  using Op = mpi::CollectiveOp;
  // Allreduce: ranks arrive at 10, 30, 50, all leave at 55: waits 40 + 20.
  // Bcast from rank 1 (arrives at 120); ranks 0 and 2 at 100 and 130:
  // rank 0 waits 20 (Late Broadcast), rank 2 not.
  // Reduce to rank 2 (arrives at 200); the others at 230 and 260: the root
  // waits for the first of them, 30 (Early Reduce).
  std::vector<Rank> Rs{Rank(0), Rank(1), Rank(2)};
  std::uint64_t AllIn[3] = {10, 30, 50}, BcIn[3] = {100, 120, 130},
                RedIn[3] = {230, 260, 200};
  for (std::uint32_t R = 0; R < 3; ++R) {
    Rs[R].call(Function::Allreduce, AllIn[R], 55,
               {coll(true, Op::Allreduce, 0), coll(false, Op::Allreduce, 0)},
               30);
    Rs[R].call(Function::Bcast, BcIn[R], 140,
               {coll(true, Op::Bcast, 1, 1), coll(false, Op::Bcast, 1, 1)}, 31);
    Rs[R].call(Function::Reduce, RedIn[R], 270,
               {coll(true, Op::Reduce, 2, 2), coll(false, Op::Reduce, 2, 2)},
               32);
  }
  std::vector<Finding> F = run(Rs);
  const Finding *A = find(F, "wait_at_collective", "t.c:30 MPI_Allreduce");
  const Finding *B = find(F, "wait_at_collective", "t.c:31 MPI_Bcast");
  const Finding *C = find(F, "wait_at_collective", "t.c:32 MPI_Reduce");
  ASSERT_TRUE(A && B && C);
  EXPECT_EQ(A->LostNs, 60u);
  EXPECT_NE(A->Evidence.find("Wait at N x N 60 ns"), std::string::npos);
  EXPECT_EQ(B->LostNs, 20u);
  EXPECT_NE(B->Evidence.find("Late Broadcast"), std::string::npos);
  EXPECT_EQ(C->LostNs, 30u);
  EXPECT_NE(C->Evidence.find("Early Reduce"), std::string::npos);
  // Ranked by time lost: the delay cost (every wait's cause, 110) first.
  ASSERT_GE(F.size(), 2u);
  EXPECT_EQ(F[0].Check, "delay_cost");
  EXPECT_EQ(F[0].LostNs, 110u);
  EXPECT_EQ(F[1].LostNs, 60u);
}

TEST(MpiWaits, APatternSpreadOverSitesIsOneFinding) {
  // Rank 1 receives at 10 sites, each 5 late: 5 of a thread time of 1000
  // (1%: 10) at each, 50 in all: one finding at the first site lost most.
  std::vector<Rank> Rs{Rank(0), Rank(1)};
  for (std::uint64_t I = 0; I < 10; ++I) {
    Rs[0].call(Function::Send, 100 * I + 10, 100 * I + 11,
               {msg(EventKind::MpiSend, 1)}, 1);
    Rs[1].call(Function::Recv, 100 * I + 5, 100 * I + 12,
               {msg(EventKind::MpiRecv, 0)}, 10 + I);
  }
  std::vector<Finding> F = run(Rs);
  const Finding *X =
      find(F, "late_sender", "t.c:10 MPI_Recv and 9 other call site(s)");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 50u);
  EXPECT_NE(X->Evidence.find("10 of 10 receive(s)"), std::string::npos);
  EXPECT_NE(X->Evidence.find("by call site: t.c:10 MPI_Recv 5 ns (1 calls)"),
            std::string::npos);
  EXPECT_NE(X->Evidence.find(", 5 more 25 ns"), std::string::npos);
  ASSERT_EQ(X->Ranks.size(), 1u);
  EXPECT_EQ(X->Ranks[0], std::make_pair(1u, std::uint64_t(50)));
}

TEST(MpiWaits, ASendrecvWaitsOnce) {
  // Both ranks exchange with MPI_Sendrecv; rank 0 enters at 100, rank 1 at
  // 10: rank 1's call waited 90 for rank 0's send and 90 for its receive's
  // post: one wait of 90, as late sender.
  std::vector<Rank> Rs{Rank(0), Rank(1)};
  Rs[0].call(Function::Sendrecv, 100, 110,
             {msg(EventKind::MpiSend, 1), msg(EventKind::MpiRecv, 1)}, 1);
  Rs[1].call(Function::Sendrecv, 10, 110,
             {msg(EventKind::MpiSend, 0), msg(EventKind::MpiRecv, 0)}, 2);
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(F, "late_sender", "t.c:2 MPI_Sendrecv");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 90u);
  for (const Finding &Y : F)
    EXPECT_NE(Y.Check, "late_receiver") << Y.Where;
}

TEST(MpiWaits, AWaitCompletingAnIsendWaitsForItsReceive) {
  // Rank 0: Isend at 0, Waitall 5..80; rank 1 posts its receive at 60:
  // the Waitall lost 60 - 5 = 55 as a late receiver.
  std::vector<Rank> Rs{Rank(0), Rank(1)};
  NodeId S = Rs[0].call(Function::Isend, 0, 1,
                        {msg(EventKind::MpiIsend, 1, 3)}, 1);
  Rs[0].call(Function::Waitall, 5, 80,
             {msg(EventKind::MpiIsendComplete, 1, 3, S)}, 2);
  Rs[1].call(Function::Recv, 60, 80, {msg(EventKind::MpiRecv, 0)}, 3);
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(F, "late_receiver", "t.c:2 MPI_Waitall");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 55u);
}

TEST(MpiWaits, DelayCostsChargeTheLateRanksWork) {
  // Three ranks meet at a barrier (site 5) after an Allreduce (site 4)
  // that all leave at 10; rank 2 arrives at the barrier at 300, the others
  // at 100: they lose 200 each, caused by rank 2's work from its Allreduce
  // to the barrier (290 long).
  using Op = mpi::CollectiveOp;
  std::vector<Rank> Rs{Rank(0), Rank(1), Rank(2)};
  std::uint64_t In[3] = {100, 100, 300};
  for (std::uint32_t R = 0; R < 3; ++R) {
    Rs[R].call(Function::Allreduce, 0, 10,
               {coll(true, Op::Allreduce, 0), coll(false, Op::Allreduce, 0)},
               4);
    Rs[R].call(Function::Barrier, In[R], 310,
               {coll(true, Op::Barrier, 1), coll(false, Op::Barrier, 1)}, 5);
  }
  std::vector<Finding> F = run(Rs);
  const Finding *X = find(
      F, "delay_cost",
      "rank 2's work from t.c:4 MPI_Allreduce to t.c:5 MPI_Barrier");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 400u);
  EXPECT_NE(X->Evidence.find("caused 400 ns (2 waits; that work took 290 ns "
                             "a time)"),
            std::string::npos)
      << X->Evidence;
  ASSERT_EQ(X->Ranks.size(), 1u);
  EXPECT_EQ(X->Ranks[0].first, 2u);
}

TEST(MpiWaits, ClocksAndThreshold) {
  // Rank 1's clock is 100 ahead: its receive at local 110..200 began at
  // 10 on rank 0's clock, before the send at 50: 40 lost. Over a thread
  // time of 10,000 (1%: 100) it is not reported.
  std::vector<Rank> Rs{Rank(0), Rank(1)};
  Rs[0].call(Function::Send, 50, 51, {msg(EventKind::MpiSend, 1)}, 1);
  Rs[1].call(Function::Recv, 110, 200, {msg(EventKind::MpiRecv, 0)}, 2);
  JobTimeFn Time = [](std::uint32_t R, std::uint64_t T) {
    return R == 1 ? T - 100 : T;
  };
  std::vector<Finding> F = run(Rs, 1000, Time);
  const Finding *X = find(F, "late_sender", "t.c:2 MPI_Recv");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->LostNs, 40u);
  EXPECT_TRUE(run(Rs, 10000, Time).empty());
}

} // namespace
