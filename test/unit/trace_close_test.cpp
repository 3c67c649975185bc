//===- trace_close_test.cpp - Regions the writer closes, the size limit ---===//
//
// The trace writer's rare paths (trace/writer_close.cpp, writer_disk.cpp):
// a failed omp_test_lock's wait closed at the thread's next event (also
// when the attempt ends a buffer), regions still open at close, and the
// size limit. The Leaves the writer adds stand for no event: the reader
// gives back exactly the events written.
//
//===----------------------------------------------------------------------===//
#include "trace/codec.h"
#include "trace/reader.h"
#include "trace/writer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace otter;

namespace {

std::string tempDir() {
  char T[] = "/tmp/otter-trace-close-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

SourceLabel labelFor(std::uint64_t Code) {
  SourceLabel L;
  L.File = "lock.c";
  L.Line = std::uint32_t(Code & 0xff);
  L.Directive = "lock";
  L.Quality = LabelQuality::Exact;
  return L;
}

Event at(std::uint64_t Time, std::uint32_t Seq, Event E) {
  E.Time = Time;
  E.Seq = Seq;
  return E;
}

/// One thread: Tries failed test-lock attempts, one that succeeds, and --
/// unless Ends -- no implicit task or thread end (as a thread libomp never
/// ends).
std::vector<Event> lockStream(unsigned Tries, bool Ends) {
  const TaskId Init = makeId(0, 1);
  const std::uint64_t Lock = 0x7000, Code = 0x401010;
  std::vector<Event> V;
  std::uint64_t T = 100;
  std::uint32_t Seq = 0;
  V.push_back(at(T++, 0, Event::threadBegin(0, ThreadType::Initial)));
  V.push_back(
      at(T++, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial)));
  for (unsigned I = 0; I <= Tries; ++I)
    V.push_back(at(T += 10, ++Seq,
                   Event::mutexAcquire(0, Init, MutexKind::TestLock, Lock,
                                       Code)));
  V.push_back(at(T += 10, ++Seq,
                 Event::mutexAcquired(0, Init, MutexKind::TestLock, Lock,
                                      Code)));
  V.push_back(at(T += 10, ++Seq,
                 Event::mutexReleased(0, Init, MutexKind::TestLock, Lock,
                                      Code + 16)));
  if (Ends) {
    V.push_back(at(T += 10, 0, Event::implicitTaskEnd(0, Init)));
    V.push_back(at(T += 10, 0, Event::threadEnd(0)));
  }
  return V;
}

/// Writes V in buffers of Buf events, closes; the events read back.
std::vector<Event> roundTrip(const std::vector<Event> &V, std::size_t Buf,
                             const std::string &Dir,
                             std::uint64_t MaxBytes = 0) {
  trace::WriterOptions O;
  O.Dir = Dir;
  O.MaxBytes = MaxBytes;
  trace::TraceWriter W(O, labelFor);
  std::string Error;
  EXPECT_TRUE(W.open(Error)) << Error;
  for (std::size_t I = 0; I < V.size(); I += Buf)
    W.write(0, 1, V.data() + I, std::min(Buf, V.size() - I));
  EXPECT_TRUE(W.close(Error)) << Error;
  trace::TraceReader R;
  std::vector<Event> Out;
  EXPECT_TRUE(R.open(Dir, Error)) << Error;
  EXPECT_TRUE(R.readEvents(
      [&](std::uint32_t, const Event *E, std::size_t N) {
        Out.insert(Out.end(), E, E + N);
      },
      Error))
      << Error;
  return Out;
}

void expectSame(const std::vector<Event> &Want, const std::vector<Event> &Got) {
  ASSERT_EQ(Want.size(), Got.size());
  for (std::size_t I = 0; I < Want.size(); ++I)
    EXPECT_EQ(0, std::memcmp(&Want[I], &Got[I], sizeof(Event)))
        << "event " << I << " kind " << int(Want[I].Kind);
}

} // namespace

// The failed attempts' closing Leaves are not read back as mutex_acquired,
// whether the outcome is in the same buffer or the next one's first event.
TEST(TraceClose, FailedTestLockLeavesReadBackNothing) {
  const std::vector<Event> V = lockStream(5, true);
  for (std::size_t Buf : {std::size_t(1), std::size_t(2), std::size_t(3),
                          V.size()}) {
    std::string Dir = tempDir();
    expectSame(V, roundTrip(V, Buf, Dir));
    std::system(("rm -rf '" + Dir + "'").c_str());
  }
}

// A thread never ended (its thread and implicit task regions open) and an
// attempt as the very last event: closed at close, still read back as
// written.
TEST(TraceClose, RegionsOpenAtCloseReadBackNothing) {
  std::vector<Event> V = lockStream(3, false);
  V.push_back(at(V.back().Time + 10, 9,
                 Event::mutexAcquire(0, makeId(0, 1), MutexKind::TestLock,
                                     0x7000, 0x401010)));
  std::string Dir = tempDir();
  expectSame(V, roundTrip(V, 4, Dir));
  std::system(("rm -rf '" + Dir + "'").c_str());
}

// Past the size limit the writer takes no more buffers, calls OnFull once,
// and marks the archive; what it took reads back whole.
namespace {
unsigned FullCalls = 0;
void onFull(std::uint64_t) { ++FullCalls; }
} // namespace
TEST(TraceClose, SizeLimitStopsAndMarksTheArchive) {
  std::vector<Event> V = lockStream(20000, true);
  std::string Dir = tempDir();
  trace::WriterOptions O;
  O.Dir = Dir;
  O.MaxBytes = 4096;
  O.OnFull = onFull;
  FullCalls = 0;
  trace::TraceWriter W(O, labelFor);
  std::string Error;
  ASSERT_TRUE(W.open(Error)) << Error;
  const std::size_t Buf = 1024;
  for (std::size_t I = 0; I < V.size(); I += Buf)
    W.write(0, 1, V.data() + I, std::min(Buf, V.size() - I));
  ASSERT_TRUE(W.close(Error)) << Error;
  EXPECT_EQ(FullCalls, 1u);
  EXPECT_TRUE(W.stats().Cut);
  EXPECT_LT(W.stats().Events, V.size());
  trace::TraceReader R;
  ASSERT_TRUE(R.open(Dir, Error)) << Error;
  EXPECT_EQ(R.cutAtLimit(), 4096u);
  std::vector<Event> Out;
  ASSERT_TRUE(R.readEvents(
      [&](std::uint32_t, const Event *E, std::size_t N) {
        Out.insert(Out.end(), E, E + N);
      },
      Error))
      << Error;
  ASSERT_EQ(Out.size(), W.stats().Events);
  expectSame(std::vector<Event>(V.begin(), V.begin() + Out.size()), Out);
  std::system(("rm -rf '" + Dir + "'").c_str());
}
