//===- unit/crash_test.cpp - Termination signals during the run's end -----===//
//
// trace/crash.h: a termination signal that arrives while the process's own
// end is writing (an MPI launcher's SIGTERM to every rank when one rank
// ended badly, as the others close) is held until the writing is done, then
// ends the process as it would have; it is not served by a forked copy
// that would wait forever for the writer's locks. Each case runs in a
// process of its own (death tests, re-executed: the handlers install once
// per process).
//
//===----------------------------------------------------------------------===//
#include "trace/crash.h"

#include <csignal>
#include <cstdio>
#include <gtest/gtest.h>
#include <unistd.h>

namespace {

// What End would do, in the forked copy: not wanted during the end.
void endInCopy() {
  std::fputs("copy writes\n", stderr);
  _exit(0);
}

void termDuringEnd() {
  otter::trace::installTerminationHandlers(endInCopy, 5);
  otter::trace::setEndWriting(true);
  raise(SIGTERM); // held
  std::fputs("the end writes on\n", stderr);
  otter::trace::setEndWriting(false); // delivered: the process ends by it
  std::fputs("not ended\n", stderr);
  _exit(0);
}

void secondTermDuringEnd() {
  otter::trace::installTerminationHandlers(endInCopy, 5);
  otter::trace::setEndWriting(true);
  raise(SIGTERM); // held
  std::fputs("held once\n", stderr);
  raise(SIGTERM); // a second one: at once
  std::fputs("not ended\n", stderr);
  _exit(0);
}

void termAfterEnd() {
  otter::trace::installTerminationHandlers(endInCopy, 5);
  otter::trace::setEndWriting(true);
  otter::trace::setEndWriting(false);
  std::fputs("the end is written\n", stderr);
  raise(SIGTERM); // at once, no copy writing again
  std::fputs("not ended\n", stderr);
  _exit(0);
}

TEST(CrashHandlersDeathTest, TerminationDuringTheEndIsHeldUntilItIsWritten) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(termDuringEnd(), testing::KilledBySignal(SIGTERM),
              "^the end writes on\n$");
}

TEST(CrashHandlersDeathTest, ASecondTerminationDuringTheEndEndsAtOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(secondTermDuringEnd(), testing::KilledBySignal(SIGTERM),
              "^held once\n$");
}

TEST(CrashHandlersDeathTest, TerminationAfterTheEndEndsWithoutACopy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(termAfterEnd(), testing::KilledBySignal(SIGTERM),
              "^the end is written\n$");
}

} // namespace
