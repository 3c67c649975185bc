//===- logical_clock_test.cpp - The controlled logical clock of a job -----===//
//
// job/logical_clock.h on synthetic message sets: a message received before
// it was sent is moved to after its send, the move carries forward to the
// receiving rank's later events (and to what that rank sends next), is
// amortized backward to its previous message event, and messages that
// already satisfy the clock condition move nothing.
//
//===----------------------------------------------------------------------===//
#include "logical_clock.h"

#include <gtest/gtest.h>

using namespace otter::job;

TEST(LogicalClock, ConsistentMessagesMoveNothing) {
  std::vector<ClockMessage> M = {{0, 100, 1, 200}, {1, 300, 0, 400}};
  ClockCondition C = enforceClockCondition(M, 2);
  EXPECT_EQ(C.Corrected, 0u);
  EXPECT_TRUE(C.Shifts[0].empty());
  EXPECT_TRUE(C.Shifts[1].empty());
  EXPECT_TRUE(C.Ranks.empty());
}

TEST(LogicalClock, ViolationMovedForwardAndAmortized) {
  // Rank 1 sends at 1000 (its clock), then receives at 1500 a message rank
  // 0 sent at 2000: rank 1's clock is ~500+ ns behind. Then rank 1 replies
  // at 1600, which rank 0 receives at 2300.
  std::vector<ClockMessage> M = {
      {1, 1000, 0, 1900}, // fine
      {0, 2000, 1, 1500}, // received before sent
      {1, 1600, 0, 2300}, // fine after the move too? 1600+501 = 2101 < 2300
  };
  ClockCondition C = enforceClockCondition(M, 2, 1);
  EXPECT_EQ(C.Corrected, 1u);
  EXPECT_EQ(C.MaxMoveNs, 501u);
  ASSERT_EQ(C.Ranks.size(), 1u);
  EXPECT_EQ(C.Ranks[0], 1u);
  EXPECT_TRUE(C.Shifts[0].empty());
  const ClockShift &S = C.Shifts[1];
  // The receive: one ns after the send.
  EXPECT_EQ(S.apply(1500), 2001u);
  // Forward: later events keep their distance to the receive.
  EXPECT_EQ(S.apply(1600), 2101u);
  // Backward: the previous message event (the send at 1000) stays, the
  // time between grows linearly.
  EXPECT_EQ(S.apply(1000), 1000u);
  EXPECT_EQ(S.apply(999), 999u);
  EXPECT_EQ(S.apply(1250), 1250u + 250u);
  // Monotone: order on the rank is kept.
  for (std::uint64_t T = 990; T < 1700; ++T)
    EXPECT_LE(S.apply(T), S.apply(T + 1));
}

TEST(LogicalClock, MoveCarriesToLaterSends) {
  // Rank 1 receives too early from 0 and then sends to 2, which received
  // it in time by its own clock but not after rank 1's send is moved.
  std::vector<ClockMessage> M = {
      {0, 5000, 1, 4000}, // 1001 early
      {1, 4100, 2, 4500}, // after the move, sent at 5101
  };
  ClockCondition C = enforceClockCondition(M, 3, 1);
  EXPECT_EQ(C.Corrected, 2u);
  EXPECT_EQ(C.Shifts[1].apply(4000), 5001u);
  EXPECT_EQ(C.Shifts[1].apply(4100), 5101u);
  EXPECT_EQ(C.Shifts[2].apply(4500), 5102u);
  EXPECT_EQ((std::vector<std::uint32_t>{1, 2}), C.Ranks);
}

TEST(LogicalClock, HappenedBeforeOrderAcrossRanks) {
  // The receive that waits for a send comes after rank 0 processed it,
  // even though rank 1's events are listed first and are earlier in time.
  std::vector<ClockMessage> M = {
      {0, 10000, 1, 100}, // rank 1's clock far behind
      {1, 200, 0, 10500}, // rank 1's reply: after the move, 10101 < 10500
  };
  ClockCondition C = enforceClockCondition(M, 2, 1);
  EXPECT_EQ(C.Corrected, 1u);
  EXPECT_EQ(C.Shifts[1].apply(100), 10001u);
  EXPECT_EQ(C.Shifts[1].apply(200), 10101u);
  EXPECT_TRUE(C.Shifts[0].empty());
}

TEST(LogicalClock, ContradictoryCycleStillEnds) {
  // Each rank receives before it sends, and each receive is of the other's
  // later send: no happened-before order exists (a rank's own times are its
  // program order, so a real trace has none). It still ends: the earliest
  // waiting receive goes first, against its send's time as it stands.
  std::vector<ClockMessage> M = {{0, 500, 1, 100}, {1, 600, 0, 200}};
  ClockCondition C = enforceClockCondition(M, 2, 1);
  EXPECT_EQ(C.Corrected, 2u);
  EXPECT_EQ(C.Shifts[1].apply(100), 501u);
  EXPECT_EQ(C.Shifts[0].apply(200), 1002u);
}
