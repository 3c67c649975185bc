// Unit tests for the MPI side without MPI: the payload layout of otter/mpi.h
// (every constructor read back by its accessors), the OTF2 round trip of
// every MPI event kind through OTF2's own MPI records, and what the graph
// builder makes of a synthetic MPI stream (graph/mpi_graph.h): nodes in
// their tasks, polling calls that completed nothing dropped, communicator
// keys over reused indices, requests resolved to the node that posted them.
#include "graph/builder.h"
#include "graph/writers.h"
#include "otter/mpi.h"
#include "test_streams.h"
#include "trace/reader.h"
#include "trace/writer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace otter;
using otter::testutil::labelOf;

namespace {

TEST(Mpi, PayloadsReadBackThroughAccessors) {
  mpi::Message M;
  M.Comm = 7;
  M.Bytes = std::uint64_t(1) << 40;
  M.Request = 0x40000123;
  M.PeerWorld = 1023;
  M.PeerInComm = 5;
  M.Tag = 77;
  Event E = mpi::message(EventKind::MpiIsend, M);
  mpi::Message R = mpi::messageOf(E);
  EXPECT_EQ(R.Comm, 7);
  EXPECT_EQ(R.Bytes, M.Bytes);
  EXPECT_EQ(R.Request, M.Request);
  EXPECT_EQ(R.PeerWorld, 1023u);
  EXPECT_EQ(R.PeerInComm, 5u);
  EXPECT_EQ(R.Tag, 77u);
  EXPECT_EQ(mpi::request(E), M.Request);

  Event B = mpi::collectiveBegin(3, mpi::CollectiveOp::Bcast, 41, 2, 9, 17);
  EXPECT_EQ(mpi::collectiveOp(B), mpi::CollectiveOp::Bcast);
  EXPECT_EQ(mpi::collectiveInstance(B), 41u);
  EXPECT_EQ(mpi::rootInComm(B), 2u);
  EXPECT_EQ(mpi::rootWorld(B), 9u);
  EXPECT_EQ(mpi::request(B), 17u);
  Event End = mpi::collectiveEnd(3, mpi::CollectiveOp::Alltoallv, 2,
                                 (std::uint64_t(1) << 50) + 3, 99, 17);
  EXPECT_EQ(mpi::collectiveOp(End), mpi::CollectiveOp::Alltoallv);
  EXPECT_EQ(mpi::bytesSent(End), (std::uint64_t(1) << 50) + 3);
  EXPECT_EQ(mpi::bytesReceived(End), 99u);
  EXPECT_EQ(mpi::rootInComm(End), 2u);
  EXPECT_EQ(mpi::request(End), 17u);

  std::uint32_t Ranks[3] = {4, 8, 15}, First, Out[4];
  Event Mem = mpi::commMembersEvent(3, 12, Ranks, 3);
  ASSERT_EQ(mpi::members(Mem, First, Out), 3u);
  EXPECT_EQ(First, 12u);
  EXPECT_EQ(Out[0], 4u);
  EXPECT_EQ(Out[2], 15u);
  Event Off = mpi::clockOffsetEvent(1, 1000, -250, 80);
  EXPECT_EQ(mpi::clockOffset(Off), -250);
  EXPECT_EQ(mpi::clockOffsetTime(Off), 1000u);
  EXPECT_TRUE(codeIsAddress(EventKind::MpiCallBegin));
  EXPECT_FALSE(codeIsAddress(EventKind::MpiSend));
  EXPECT_TRUE(codeIsAddress(EventKind::TaskCreate));
  EXPECT_STREQ(mpi::functionName(mpi::Function::Sendrecv_replace),
               "MPI_Sendrecv_replace");
}

TEST(Mpi, CommunicatorKeysDependOnCreationOnly) {
  // The same creation on every member gives the same key; a different
  // call number, parent or leader a different one; never a predefined one.
  EXPECT_EQ(mpi::mixKey(mpi::WorldKey, 3, 0), mpi::mixKey(mpi::WorldKey, 3, 0));
  EXPECT_NE(mpi::mixKey(mpi::WorldKey, 3, 0), mpi::mixKey(mpi::WorldKey, 4, 0));
  EXPECT_NE(mpi::mixKey(mpi::WorldKey, 3, 0), mpi::mixKey(mpi::WorldKey, 3, 1));
  EXPECT_NE(mpi::commSelfKey(0), mpi::commSelfKey(1));
  EXPECT_GE(mpi::mixKey(0, 0, 0), 16u);
}

/// A stream of MPI events for one task, with times and sequence numbers.
struct MpiStream {
  std::vector<Event> Events;
  std::uint64_t Time = 0;
  std::uint32_t Seq = 0;
  TaskId Task = makeId(0, 1);
  void add(Event E, TaskId T = ~0ull) {
    E.Time = Time += 10;
    E.Task = T == ~0ull ? Task : T;
    E.Seq = E.Task ? Seq++ : 0;
    Events.push_back(E);
  }
  void call(mpi::Function F, std::uint64_t Site,
            std::vector<Event> Inside = {}) {
    add(mpi::callBegin(F, Site));
    for (const Event &E : Inside)
      add(E);
    add(mpi::callEnd(F, Site, 0));
  }
};

mpi::Message msg(std::uint16_t Comm, std::uint32_t Peer, std::uint32_t Tag,
                 std::uint32_t Request = 0) {
  mpi::Message M;
  M.Comm = Comm;
  M.PeerWorld = M.PeerInComm = Peer;
  M.Tag = Tag;
  M.Bytes = 8;
  M.Request = Request;
  return M;
}

std::string tempDir() {
  char T[] = "/tmp/otter-mpi-test-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

TEST(Mpi, EveryKindRoundTripsThroughOtf2MpiRecords) {
  MpiStream S;
  S.add(mpi::initEvent(1, 4, 3, 0x1234));
  S.add(mpi::commCreateEvent(1, mpi::WorldKey, 0, 4, 1));
  std::uint32_t Members[1] = {1};
  S.add(mpi::commCreateEvent(2, mpi::commSelfKey(1), 0, 1, 0));
  S.add(mpi::commMembersEvent(2, 0, Members, 1));
  S.call(mpi::Function::Send, 0x401000,
         {mpi::message(EventKind::MpiSend, msg(1, 2, 5))});
  S.call(mpi::Function::Isend, 0x401010,
         {mpi::message(EventKind::MpiIsend, msg(1, 3, 6, 0x400001))});
  S.call(mpi::Function::Irecv, 0x401020,
         {mpi::message(EventKind::MpiIrecvRequest,
                       msg(1, mpi::NoRank, mpi::AnyTag, 0x400002))});
  S.call(mpi::Function::Testall, 0x401030,
         {mpi::requestEvent(EventKind::MpiRequestTest, 1, 0x400001)});
  S.call(mpi::Function::Waitall, 0x401040,
         {mpi::message(EventKind::MpiIsendComplete, msg(1, 3, 6, 0x400001)),
          mpi::message(EventKind::MpiIrecv, msg(1, 0, 9, 0x400002))});
  S.call(mpi::Function::Recv, 0x401050,
         {mpi::message(EventKind::MpiRecv, msg(1, 2, 5))});
  S.call(mpi::Function::Allreduce, 0x401060,
         {mpi::collectiveBegin(1, mpi::CollectiveOp::Allreduce, 0, mpi::NoRank,
                               mpi::NoRank, 0),
          mpi::collectiveEnd(1, mpi::CollectiveOp::Allreduce, mpi::NoRank, 8, 8,
                             0)});
  S.call(
      mpi::Function::Ibcast, 0x401070,
      {mpi::collectiveBegin(1, mpi::CollectiveOp::Bcast, 1, 0, 0, 0x400003)});
  S.call(mpi::Function::Wait, 0x401080,
         {mpi::collectiveEnd(1, mpi::CollectiveOp::Bcast, 0, 0, 64, 0x400003)});
  S.call(mpi::Function::Wait, 0x401090,
         {mpi::requestEvent(EventKind::MpiRequestCancelled, 1, 0x400004)});
  S.add(mpi::commFreeEvent(2, mpi::commSelfKey(1)));
  S.add(mpi::clockOffsetEvent(0, 12345, -7, 300));
  S.add(mpi::untracedCallsEvent(mpi::Function::Put, 1ull << 40));

  std::string Dir = tempDir(), Error;
  trace::WriterOptions O;
  O.Dir = Dir;
  trace::TraceWriter W(O, labelOf);
  ASSERT_TRUE(W.open(Error)) << Error;
  W.write(0, 1, S.Events.data(), S.Events.size());
  ASSERT_TRUE(W.close(Error)) << Error;
  trace::TraceReader R;
  ASSERT_TRUE(R.open(Dir, Error)) << Error;
  std::vector<Event> Out;
  ASSERT_TRUE(
      R.readEvents([&](std::uint32_t, const Event *E,
                       std::size_t N) { Out.insert(Out.end(), E, E + N); },
                   Error))
      << Error;
  ASSERT_EQ(Out.size(), S.Events.size());
  for (std::size_t I = 0; I < Out.size(); ++I)
    EXPECT_EQ(0, std::memcmp(&Out[I], &S.Events[I], sizeof(Event)))
        << "event " << I << " " << eventKindName(S.Events[I].Kind);
}

TEST(Mpi, BuilderMakesOneNodePerCallAndResolvesRequestsAndComms) {
  MpiStream S;
  S.add(Event::implicitTaskBegin(0, 0, 0, 0, 0, TaskInitial));
  S.add(mpi::initEvent(0, 2, 3, 1));
  S.add(mpi::commCreateEvent(1, mpi::WorldKey, 0, 2, 0));
  S.call(mpi::Function::Isend, 10,
         {mpi::message(EventKind::MpiIsend, msg(1, 1, 5, 77))});
  // A test that completes nothing: timing, not program order.
  S.call(mpi::Function::Test, 11,
         {mpi::requestEvent(EventKind::MpiRequestTest, 1, 77)});
  S.call(mpi::Function::Test, 11,
         {mpi::message(EventKind::MpiIsendComplete, msg(1, 1, 5, 77))});
  // Index 3 names one communicator, is freed, then names another.
  S.add(mpi::commCreateEvent(3, 0xaaaa, mpi::WorldKey, 2, 0));
  S.call(mpi::Function::Send, 12,
         {mpi::message(EventKind::MpiSend, msg(3, 1, 1))});
  S.add(mpi::commFreeEvent(3, 0xaaaa));
  S.add(mpi::commCreateEvent(3, 0xbbbb, mpi::WorldKey, 2, 0));
  // The second is named (MPI_Comm_set_name): name id 1 of the graph's table.
  S.add(mpi::commNameEvent(3, 0xbbbb, 1));
  S.call(mpi::Function::Recv, 13,
         {mpi::message(EventKind::MpiRecv, msg(3, 1, 2))});
  // Counted calls make no node; the graph keeps them by function.
  S.add(mpi::untracedCallsEvent(mpi::Function::Win_fence, 4));
  S.add(mpi::untracedCallsEvent(mpi::Function::Put, 3));
  GraphBuilder B(labelOf);
  B.addEvents(0, S.Events.data(), S.Events.size());
  Graph G = B.build();
  std::ostringstream Text, Csv;
  writeCanonical(G, Text);
  EXPECT_EQ(Text.str(), "# otter canonical graph v1: 5 nodes, 4 edges\n"
                        "n0 initial_task parent=- at=?\n"
                        "  -> n1 scope\n"
                        "n1 mpi parent=n0 at=~c+10 flags=MPI_Isend\n"
                        "  -> n2 scope\n"
                        "n2 mpi parent=n0 at=~c+11 flags=MPI_Test\n"
                        "  -> n3 scope\n"
                        "n3 mpi parent=n0 at=~c+12 flags=MPI_Send\n"
                        "  -> n4 scope\n"
                        "n4 mpi parent=n0 at=~c+13 flags=MPI_Recv\n");
  EXPECT_EQ(G.Mpi.Rank, 0);
  EXPECT_EQ(G.Mpi.WorldSize, 2u);
  ASSERT_EQ(G.Mpi.Untraced.size(), 2u);
  EXPECT_EQ(G.Mpi.Untraced[0].first, mpi::Function::Win_fence);
  EXPECT_EQ(G.Mpi.Untraced[0].second, 4u);
  EXPECT_EQ(G.Mpi.Untraced[1].first, mpi::Function::Put);
  EXPECT_EQ(G.Mpi.Untraced[1].second, 3u);
  EXPECT_STREQ(mpi::functionName(mpi::Function::Put), "MPI_Put");
  G.Names = {"", "rows, even"};
  EXPECT_EQ(G.Mpi.commName(0xbbbb, G.Names), "rows, even");
  EXPECT_EQ(G.Mpi.commName(0xaaaa, G.Names), "");
  writeMpiCsv(G.Mpi, G.Names, Csv);
  EXPECT_EQ(Csv.str(), "node,function,event,comm,peer,peer_in_comm,tag,bytes,"
                       "received,collective,instance,request_node\n"
                       "1,MPI_Isend,isend,world,1,1,5,8,,,,1\n"
                       "2,MPI_Test,isend_complete,world,1,1,5,8,,,,1\n"
                       "3,MPI_Send,send,world/1,1,1,1,8,,,,\n"
                       "4,MPI_Recv,recv,\"rows, even\",1,1,2,8,,,,\n");
}

// Unnamed communicators are shown by their origin (MpiGraph::commText):
// parent, '/', the how-manieth made from it, '@' and the lowest world rank
// when smaller than the parent; a nested one through its parent's text.
TEST(Mpi, UnnamedCommunicatorsShownByTheirOrigin) {
  MpiStream S;
  S.add(Event::implicitTaskBegin(0, 0, 0, 0, 0, TaskInitial));
  S.add(mpi::initEvent(1, 4, 3, 1));
  S.add(mpi::commCreateEvent(1, mpi::WorldKey, 0, 4, 1));
  // The odd half of a split of world: ranks 1 and 3.
  const std::uint32_t Odd[] = {1, 3}, Three[] = {3};
  S.add(mpi::commCreateEvent(2, 0x10, mpi::WorldKey, 2, 0));
  S.add(mpi::commMembersEvent(2, 0, Odd, 2));
  // A dup of world: as large as it, no '@'.
  S.add(mpi::commCreateEvent(3, 0x20, mpi::WorldKey, 4, 1));
  // A split of the odd half keeping rank 3 alone.
  S.add(mpi::commCreateEvent(4, 0x30, 0x10, 1, 0));
  S.add(mpi::commMembersEvent(4, 0, Three, 1));
  S.call(mpi::Function::Send, 12,
         {mpi::message(EventKind::MpiSend, msg(2, 0, 1))});
  GraphBuilder B(labelOf);
  B.addEvents(0, S.Events.data(), S.Events.size());
  const Graph G = B.build();
  EXPECT_EQ(G.Mpi.commText(mpi::WorldKey, G.Names), "world");
  EXPECT_EQ(G.Mpi.commText(0x10, G.Names), "world/1@1");
  EXPECT_EQ(G.Mpi.commText(0x20, G.Names), "world/2");
  EXPECT_EQ(G.Mpi.commText(0x30, G.Names), "world/1@1/1@3");
  EXPECT_EQ(G.Mpi.commText(0x99, G.Names), "0000000000000099");
  EXPECT_EQ(G.Mpi.commText(0, G.Names), "?");
}

} // namespace
