//===- event_table_test.cpp - otter/event_kinds.def as code ---------------===//
//
// The table's constructors and accessors store each field in its slot and
// give it back; the ids' layout; the table's names and OTF2 columns as the
// trace codec and `otter dump` read them.
//
//===----------------------------------------------------------------------===//
#include "otter/event_info.h"
#include "otter/mpi.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace otter;

TEST(EventTable, IdsCarryTheirThreadAndCounter) {
  TaskId Id = makeId(5, 123456789);
  EXPECT_TRUE(isThreadId(Id));
  EXPECT_EQ(threadOf(Id), 5u);
  EXPECT_EQ(counterOf(Id), 123456789u);
  EXPECT_TRUE(madeBy(Id, 5));
  EXPECT_FALSE(madeBy(Id, 4));
  EXPECT_FALSE(isThreadId(42)); // a synthetic id
  EXPECT_EQ(makeId(0, 1), (TaskId(1) << IdCounterBits) | 1);
}

TEST(EventTable, ConstructorsAndAccessorsAgree) {
  Event C = Event::taskCreate(7, 11, 12, TaskExplicit | TaskUntied, 0x400);
  EXPECT_EQ(C.Kind, EventKind::TaskCreate);
  EXPECT_EQ(C.Time, 7u);
  EXPECT_EQ(C.creator(), 11u);
  EXPECT_EQ(C.Task, 11u); // the creator is the task the event belongs to
  EXPECT_EQ(C.child(), 12u);
  EXPECT_EQ(C.flags(), TaskExplicit | TaskUntied);
  EXPECT_EQ(C.code(), 0x400u);
  EXPECT_EQ(C.Seq, 0u); // set where it is recorded

  Event I = Event::implicitTaskBegin(1, 20, 30, 4, 3, TaskImplicit);
  EXPECT_EQ(I.task(), 20u);
  EXPECT_EQ(I.parallel(), 30u);
  EXPECT_EQ(I.teamSize(), 4u);
  EXPECT_EQ(I.index(), 3u);
  EXPECT_EQ(I.implicitFlags(), std::uint32_t(TaskImplicit));

  Event S = Event::taskSchedule(1, 5, ScheduleStatus::Complete, 6);
  EXPECT_EQ(S.prior(), 5u);
  EXPECT_EQ(S.next(), 6u);
  EXPECT_EQ(S.status(), ScheduleStatus::Complete);

  // A 64-bit field over two 32-bit slots.
  Event D =
      Event::dispatch(1, 9, DispatchKind::WsLoopChunk, 100, 0x123456789ull, 0);
  EXPECT_EQ(D.dispatchKind(), DispatchKind::WsLoopChunk);
  EXPECT_EQ(D.start(), 100u);
  EXPECT_EQ(D.iterations(), 0x123456789ull);

  // Fields sharing a slot keep each other's bits.
  Event E = mpi::collectiveEnd(3, mpi::CollectiveOp::Allreduce, 2,
                               (std::uint64_t(1) << 55) + 5, 77, 9);
  EXPECT_EQ(E.endOp(), mpi::CollectiveOp::Allreduce);
  EXPECT_EQ(E.bytesSent(), (std::uint64_t(1) << 55) + 5);
  EXPECT_EQ(E.bytesReceived(), 77u);
  EXPECT_EQ(mpi::request(E), 9u);
  std::uint32_t Ranks[4] = {1, 0xfffffffe, 3, 4}, First, Out[4];
  Event M = mpi::commMembersEvent(2, 8, Ranks, 4);
  EXPECT_EQ(mpi::members(M, First, Out), 4u);
  EXPECT_EQ(First, 8u);
  for (int K = 0; K < 4; ++K)
    EXPECT_EQ(Out[K], Ranks[K]);
  Event R = mpi::callEnd(mpi::Function::Send, 0x10, -3);
  EXPECT_EQ(R.returnCode(), -3);
  EXPECT_EQ(R.function(), mpi::Function::Send);
}

TEST(EventTable, NamesAndRecordsAreOnePerKind) {
  std::set<std::string> Names;
  unsigned Kinds = 0;
  for (unsigned V = 1; V <= unsigned(EventKind::LastKind); ++V) {
    const KindInfo &I = kindInfo(EventKind(V));
    if (I.Kind == EventKind::None)
      continue; // not a kind
    ++Kinds;
    EXPECT_TRUE(Names.insert(I.Name).second) << I.Name;
    EXPECT_STREQ(eventKindName(EventKind(V)), I.Name);
    std::set<std::string> Labels;
    for (const FieldInfo *const *F = I.Fields; *F; ++F)
      EXPECT_TRUE(Labels.insert((*F)->Label).second)
          << I.Name << " " << (*F)->Label;
    // The reader finds the kind back from its record.
    if (I.Record == Otf2Record::Enter || I.Record == Otf2Record::Leave) {
      EXPECT_EQ(regionKind(I.Class, I.Record == Otf2Record::Enter), I.Kind)
          << I.Name;
    }
    if (I.Record == Otf2Record::Param) {
      EXPECT_EQ(paramKind(I.Param), I.Kind) << I.Name;
    }
    EXPECT_EQ(codeIsAddress(I.Kind), I.Record != Otf2Record::Mpi);
  }
  EXPECT_EQ(Kinds, unsigned(EventKind::LastKind)); // no gap
  EXPECT_STREQ(eventKindName(EventKind::TaskCreate), "task_create");
  EXPECT_STREQ(eventKindName(EventKind::None), "none");
  EXPECT_STREQ(eventKindName(EventKind(63)), "unknown");
  EXPECT_EQ(regionKind(trace::RegionClass::Parallel, true), EventKind::None);
  EXPECT_EQ(paramKind(trace::ParamEvent), EventKind::None);
}

TEST(EventTable, FieldsReadTheirValues) {
  Event C = Event::taskCreate(0, 11, 12, TaskExplicit, 0x400);
  const FieldInfo *const *F = kindInfo(EventKind::TaskCreate).Fields;
  ASSERT_TRUE(F[0] && F[1] && F[2] && F[3]);
  EXPECT_STREQ(F[0]->Label, "creator");
  EXPECT_EQ(F[0]->Get(C), 11u);
  EXPECT_STREQ(F[1]->Label, "child");
  EXPECT_EQ(F[1]->Get(C), 12u);
  EXPECT_EQ(F[2]->Format, FieldFormat::TaskFlags);
  EXPECT_EQ(F[3]->Format, FieldFormat::Code);
  EXPECT_EQ(F[4], nullptr);
  Event O = mpi::clockOffsetEvent(1, 5, -40, 3);
  const FieldInfo *const *G = kindInfo(EventKind::MpiClockOffset).Fields;
  for (; *G && std::string((*G)->Label) != "offset"; ++G) {
  }
  ASSERT_TRUE(*G);
  EXPECT_EQ(std::int64_t((*G)->Get(O)), -40);
}
