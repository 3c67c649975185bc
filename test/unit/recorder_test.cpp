//===- recorder_test.cpp - The per-thread event buffers -------------------===//
//
// The recorder on its own: events appended by a thread reach the sinks in
// full buffers, in order, none lost, with times in ns; threads fill and
// flush their buffers at once without mixing them; the periodic flush
// (OTTER_FLUSH_INTERVAL); the fast-path gate and the task-record free list.
//
//===----------------------------------------------------------------------===//
#include "core/recorder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace otter;

namespace {

/// The recorder's own events: a full buffer's flush as OTTER's time and
/// the thread's CPU use after it (recorder::flushFull).
bool recordersOwn(EventKind K) {
  return K == EventKind::ToolBegin || K == EventKind::ToolEnd ||
         K == EventKind::ThreadCpu;
}

/// Keeps what it is handed, per thread index (the recorder's own events
/// apart), and the size of each batch.
class CollectingSink final : public EventSink {
public:
  void consume(const ThreadInfo &T, const Event *Events,
               std::size_t N) override {
    std::lock_guard<std::mutex> G(M);
    for (std::size_t I = 0; I < N; ++I)
      (recordersOwn(Events[I].Kind) ? Own : ByThread)[T.Index].push_back(
          Events[I]);
    Batches[T.Index].push_back(N);
  }
  void persist(const ThreadInfo &T) override {
    std::lock_guard<std::mutex> G(M);
    Persisted[T.Index].push_back(ByThread[T.Index].size());
  }
  std::mutex M;
  std::map<std::uint32_t, std::vector<Event>> ByThread, Own;
  std::map<std::uint32_t, std::vector<std::size_t>> Batches;
  /// Per thread, at each persist(): how many of its events came before.
  std::map<std::uint32_t, std::vector<std::size_t>> Persisted;
};

/// Runs Fn on a new thread: the recorder registers a thread once, with the
/// buffer size set at that time.
template <class F> void onNewThread(F Fn) {
  std::thread Th(Fn);
  Th.join();
}

/// Appends N events numbered in Seq (Task = Tag), then flushes the rest.
ThreadState *record(std::uint64_t Tag, std::uint32_t N) {
  ThreadState *T = recorder::registerThread(std::uint32_t(ThreadType::Other));
  if (!T)
    return nullptr;
  for (std::uint32_t I = 0; I < N; ++I) {
    Event &E = recorder::append(T);
    E = Event::taskCreate(E.Time, Tag, 0, 0, 0);
    E.Seq = I;
  }
  recorder::flush(T);
  return T;
}

struct RecorderTest : ::testing::Test {
  CollectingSink Sink;
  void SetUp() override {
    EventSink *S[] = {&Sink};
    recorder::setSinks(S, 1);
    recorder::setBufferEvents(1024);
    recorder::Active.store(true);
  }
  void TearDown() override {
    recorder::setFlushInterval(0);
    recorder::setSinks(nullptr, 0);
    recorder::Active.store(false);
  }
};

} // namespace

TEST_F(RecorderTest, FullBuffersReachTheSinkInOrder) {
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T = record(7, 3000);
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    EXPECT_EQ(T->Count, 0u);
    EXPECT_EQ(T->EventsRecorded, 3000u + 2 * 3);
  });
  const std::vector<Event> &Got = Sink.ByThread[Index];
  ASSERT_EQ(Got.size(), 3000u);
  // Two full buffers, then the rest at the explicit flush; each full one's
  // flush starts the next buffer with the flush's time as OTTER's
  // (tool_begin, tool_end) and the thread's CPU use after it.
  EXPECT_EQ(Sink.Batches[Index], (std::vector<std::size_t>{1024, 1024, 958}));
  const std::vector<Event> &Own = Sink.Own[Index];
  ASSERT_EQ(Own.size(), 6u);
  for (std::size_t F = 0; F < 2; ++F) {
    EXPECT_EQ(Own[3 * F].Kind, EventKind::ToolBegin);
    EXPECT_EQ(Own[3 * F].toolWork(), ToolWork::Flush);
    EXPECT_EQ(Own[3 * F + 1].Kind, EventKind::ToolEnd);
    EXPECT_LE(Own[3 * F].Time, Own[3 * F + 1].Time);
    EXPECT_EQ(Own[3 * F + 2].Kind, EventKind::ThreadCpu);
    EXPECT_GT(Own[3 * F + 2].cpuNs(), 0u);
  }
  // The flush began after the event that filled the buffer.
  EXPECT_LE(Got[1023].Time, Own[0].Time);
  for (std::uint32_t I = 0; I < Got.size(); ++I) {
    ASSERT_EQ(Got[I].Seq, I);
    ASSERT_EQ(Got[I].Task, 7u);
    if (I) {
      ASSERT_LE(Got[I - 1].Time, Got[I].Time) << "event " << I;
    }
  }
}

TEST_F(RecorderTest, TimesAreNanosecondsWithTheCounterClock) {
  recorder::initClock(); // the TSC where it is invariant
  std::uint64_t Before = recorder::monotonicNs();
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T = record(1, 100);
    ASSERT_NE(T, nullptr);
    Index = T->Index;
  });
  std::uint64_t After = recorder::monotonicNs();
  const std::vector<Event> &Got = Sink.ByThread[Index];
  ASSERT_EQ(Got.size(), 100u);
  // Converted to CLOCK_MONOTONIC ns: within the run, give or take the
  // calibration's error (well under a millisecond).
  EXPECT_GE(Got.front().Time + 1000000, Before);
  EXPECT_LE(Got.back().Time, After + 1000000);
}

// A creation with the switch to the new task folded in carries the switch's
// time as a difference in the clock's units (otter/events.h): converted to
// ns with the event's own time, it gives the switch the time its own event
// would have had.
TEST_F(RecorderTest, AFoldedSwitchsTimeIsConvertedWithItsCreation) {
  recorder::initClock();
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T = recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    for (std::uint32_t I = 0; I < 3000; ++I) {
      Event &C = recorder::append(T);
      C = Event::taskCreate(C.Time, 1, makeId(0, I + 1), TaskExplicit, 0);
      C.Seq = I;
      const std::uint64_t SwitchTime = recorder::now() + I * 1000;
      C.Extra = std::uint32_t(SwitchTime - C.Time) << 1 | CreateSwitchFolded;
      Event &S = recorder::append(T); // the same time, not folded
      S = Event::taskSchedule(SwitchTime, 1, ScheduleStatus::Switch,
                              makeId(0, I + 1));
    }
    recorder::flush(T);
  });
  const std::vector<Event> &Got = Sink.ByThread[Index];
  ASSERT_EQ(Got.size(), 6000u);
  for (std::size_t I = 0; I < Got.size(); I += 2) {
    ASSERT_TRUE(Got[I].Extra & CreateSwitchFolded);
    ASSERT_EQ(foldedSwitch(Got[I]).Time, Got[I + 1].Time) << "event " << I;
  }
}

// A taskwait's begin with its end folded in carries the end's time as a
// difference in the clock's units (otter/events.h): converted to ns with the
// begin's time, it gives the end the time its own event would have had; the
// flags stay.
TEST_F(RecorderTest, AFoldedSyncEndsTimeIsConvertedWithItsBegin) {
  recorder::initClock();
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T = recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    for (std::uint32_t I = 0; I < 3000; ++I) {
      Event &B = recorder::append(T);
      B = Event::syncBegin(B.Time, 1, 0, SyncKind::Taskwait, 0x401000);
      B.Seq = 2 * I;
      const std::uint64_t EndTime = recorder::now() + I * 1000;
      const std::uint32_t Flags =
          SyncWaitEndFolded | SyncWaitFolded | (I % 2 ? SyncEndFolded : 0);
      B.Extra = std::uint32_t(EndTime - B.Time) << SyncEndShift | Flags;
      Event &E = recorder::append(T); // the same time, not folded
      E = Event::syncEnd(EndTime, 1, 0, SyncKind::Taskwait, 0x401000);
    }
    recorder::flush(T);
  });
  const std::vector<Event> &Got = Sink.ByThread[Index];
  ASSERT_EQ(Got.size(), 6000u);
  for (std::size_t I = 0; I < Got.size(); I += 2) {
    ASSERT_EQ(Got[I].Extra & 7,
              SyncWaitEndFolded | SyncWaitFolded | (I % 4 ? SyncEndFolded : 0))
        << "event " << I;
    ASSERT_EQ(foldedSyncEnd(Got[I]).Time, Got[I + 1].Time) << "event " << I;
  }
}

TEST_F(RecorderTest, ThreadsFlushAtOnceWithoutMixingTheirEvents) {
  constexpr int Threads = 4;
  constexpr std::uint32_t PerThread = 20000; // ~20 flushes each
  std::vector<std::thread> Pool;
  std::vector<std::uint32_t> Index(Threads, ~0u);
  for (int I = 0; I < Threads; ++I)
    Pool.emplace_back([&, I] {
      ThreadState *T = record(100 + I, PerThread);
      if (T)
        Index[I] = T->Index;
    });
  for (std::thread &Th : Pool)
    Th.join();
  std::set<std::uint32_t> Distinct(Index.begin(), Index.end());
  EXPECT_EQ(Distinct.size(), std::size_t(Threads));
  for (int I = 0; I < Threads; ++I) {
    const std::vector<Event> &Got = Sink.ByThread[Index[I]];
    ASSERT_EQ(Got.size(), PerThread) << "thread " << I;
    for (std::uint32_t J = 0; J < PerThread; ++J) {
      ASSERT_EQ(Got[J].Task, std::uint64_t(100 + I));
      ASSERT_EQ(Got[J].Seq, J);
    }
  }
}

TEST_F(RecorderTest, FastPathGate) {
  onNewThread([] {
    ThreadState *T =
        recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    bool Tsc = recorder::UseTsc;
    recorder::Active.store(false);
    EXPECT_EQ(recorder::fastThread(), nullptr); // not recording
    recorder::Active.store(true);
    if (Tsc) {
      EXPECT_EQ(recorder::fastThread(), T);
      T->Count = T->Capacity;
      EXPECT_EQ(recorder::fastThread(), nullptr); // full: general path
      T->Count = 0;
    } else {
      EXPECT_EQ(recorder::fastThread(), nullptr); // no TSC: general path
    }
  });
}

// OTTER_FLUSH_INTERVAL: the first event past the deadline marks the
// periodic flush due; the next one (fast path or not) flushes the buffer as
// a full one's, and the sinks persist what they hold. Until the next
// deadline, events only fill the buffer.
TEST_F(RecorderTest, PeriodicFlushAtTheFirstEventsPastTheDeadline) {
  recorder::initClock();
  recorder::setFlushInterval(500000000); // 0.5 s: never reached early
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T =
        recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    auto add = [&](std::uint32_t Seq) {
      Event &E = recorder::append(T);
      E = Event::taskCreate(E.Time, 3, 0, 0, 0);
      E.Seq = Seq;
    };
    for (std::uint32_t I = 0; I < 10; ++I)
      add(I);
    EXPECT_EQ(T->Limit, T->Capacity); // well before the deadline
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    add(10); // past it: due at the next event
    EXPECT_EQ(T->Limit, T->Count);
    if (recorder::UseTsc) { // the fast path leaves it to the general one
      EXPECT_EQ(recorder::fastThread(), nullptr);
    }
    add(11); // flushes events 0..10 first, then records
    EXPECT_EQ(T->Limit, T->Capacity);
    for (std::uint32_t I = 12; I < 20; ++I)
      add(I);
    recorder::flush(T); // the end: no persist
  });
  std::lock_guard<std::mutex> G(Sink.M);
  EXPECT_EQ(Sink.Batches[Index],
            (std::vector<std::size_t>{11, 3 + 9})); // own events, then 9
  EXPECT_EQ(Sink.Persisted[Index], std::vector<std::size_t>{11});
  const std::vector<Event> &Own = Sink.Own[Index];
  ASSERT_EQ(Own.size(), 3u); // recorded as OTTER's time, as a full buffer's
  EXPECT_EQ(Own[0].Kind, EventKind::ToolBegin);
  EXPECT_EQ(Own[0].toolWork(), ToolWork::Flush);
  EXPECT_EQ(Own[1].Kind, EventKind::ToolEnd);
  const std::vector<Event> &Got = Sink.ByThread[Index];
  ASSERT_EQ(Got.size(), 20u);
  for (std::uint32_t I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I].Seq, I);
  EXPECT_LE(Got[10].Time, Own[0].Time);
  EXPECT_LE(Own[1].Time, Got[11].Time);
}

TEST_F(RecorderTest, NoPeriodicFlushWhenTheIntervalIsOff) {
  recorder::setFlushInterval(0);
  std::uint32_t Index = ~0u;
  onNewThread([&] {
    ThreadState *T =
        recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    Index = T->Index;
    EXPECT_EQ(T->FlushDue, ~std::uint64_t(0));
    for (int I = 0; I < 5; ++I) {
      Event &E = recorder::append(T);
      E = Event::taskCreate(E.Time, 4, 0, 0, 0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Event &E = recorder::append(T);
    E = Event::taskCreate(E.Time, 4, 0, 0, 0);
    EXPECT_EQ(T->Limit, T->Capacity);
    recorder::flush(T);
  });
  std::lock_guard<std::mutex> G(Sink.M);
  EXPECT_EQ(Sink.Batches[Index], std::vector<std::size_t>{6});
  EXPECT_TRUE(Sink.Persisted[Index].empty());
}

TEST_F(RecorderTest, TaskRecordsComeFromAPerThreadFreeList) {
  onNewThread([] {
    ThreadState *T =
        recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    std::set<TaskState *> Live;
    for (int I = 0; I < 3000; ++I) // more than one refill batch
      ASSERT_TRUE(Live.insert(recorder::allocTask(T)).second);
    EXPECT_EQ(Live.count(nullptr), 0u);
    TaskState *Freed = *Live.begin();
    recorder::freeTask(T, Freed);
    EXPECT_EQ(recorder::allocTask(T), Freed); // reused first
  });
}

TEST_F(RecorderTest, NewIdsAreUniqueAndCarryTheThread) {
  std::vector<std::uint64_t> Ids[2];
  std::uint32_t Index[2];
  for (int I = 0; I < 2; ++I)
    onNewThread([&, I] {
      ThreadState *T =
          recorder::registerThread(std::uint32_t(ThreadType::Other));
      ASSERT_NE(T, nullptr);
      Index[I] = T->Index;
      for (int J = 0; J < 1000; ++J)
        Ids[I].push_back(recorder::newId(T));
    });
  std::set<std::uint64_t> All;
  for (int I = 0; I < 2; ++I)
    for (std::uint64_t Id : Ids[I]) {
      EXPECT_TRUE(madeBy(Id, Index[I]));
      EXPECT_TRUE(All.insert(Id).second);
    }
}
