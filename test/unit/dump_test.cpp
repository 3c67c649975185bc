//===- dump_test.cpp - `otter dump`'s lines ------------------------------===//
//
// The kinds the lit tests cannot record on one machine deterministically
// (MPI) or at all (a value that is no kind), and the formats' edge cases.
//
//===----------------------------------------------------------------------===//
#include "dump.h"
#include "otter/mpi.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace otter;

namespace {
std::string lines(const std::vector<Event> &Events, dump::Options O = {}) {
  std::ostringstream OS;
  dump::Printer P(
      OS,
      [](std::uint64_t Code) {
        SourceLabel L;
        if (Code == 0x40) {
          L.File = "a.c";
          L.Line = 3;
          L.Col = 9;
        }
        return L;
      },
      O);
  P.thread(2);
  for (const Event &E : Events)
    P.event(E);
  return OS.str();
}
} // namespace

TEST(Dump, LinesNameEveryField) {
  mpi::Message M;
  M.Comm = 1;
  M.Bytes = 8;
  M.Request = 5;
  M.PeerWorld = 3;
  M.PeerInComm = mpi::NoRank;
  M.Tag = mpi::AnyTag;
  Event Recv = mpi::message(EventKind::MpiIrecv, M);
  Recv.Task = 7;
  Recv.Time = 99;
  Event Create = Event::taskCreate(100, 7, 8, TaskExplicit | 0x400, 0x40);
  Event Weird{};
  Weird.Kind = EventKind(63);
  dump::Options NoTime;
  NoTime.Time = false;
  EXPECT_EQ(lines({Recv, Create, Weird}, NoTime),
            "thread 2\n"
            "mpi_irecv task=7 comm=1 peer=none peer_world=3 tag=any bytes=8 "
            "request=5\n"
            "task_create creator=7 child=8 flags=explicit|0x400 code=a.c:3:9\n"
            "unknown value=63 task=0 a=0 code=0x0 aux=0 sub=0 extra=0\n");
  EXPECT_EQ(lines({Create}),
            "thread 2\n100 task_create creator=7 child=8 flags=explicit|0x400 "
            "code=a.c:3:9\n");
}

TEST(Dump, KindFilterAndJson) {
  dump::Options O;
  std::string Error;
  EXPECT_FALSE(dump::parseKinds("task_create,nope", O, Error));
  EXPECT_NE(Error.find("'nope'"), std::string::npos);
  ASSERT_TRUE(dump::parseKinds("flush", O, Error)) << Error;
  O.Json = true;
  EXPECT_EQ(lines({Event::taskCreate(1, 7, 8, TaskExplicit, 0),
                   Event::flush(2, 7, 0x40)},
                  O),
            "{\"thread\":2,\"time\":2,\"kind\":\"flush\",\"task\":7,"
            "\"code\":\"a.c:3:9\"}\n");
}
