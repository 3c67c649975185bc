//===- filter_test.cpp - The filter stage on synthetic events -------------===//
//
// core/filter.h alone: what admit() lets through for group, kind and
// sub-kind, code-address rules and pausing; that engaging the stage closes
// the recorder's fast path and disengaging reopens it; that a code rule is
// asked once per address, from any number of threads; and a synthetic
// stream through the stage and the recorder to a sink, as an adapter's
// general path sends it.
//
//===----------------------------------------------------------------------===//
#include "core/filter.h"
#include "core/recorder.h"
#include "otter/event_info.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace otter;

namespace {

/// Installs rules for one test and removes them after.
struct FilterTest : ::testing::Test {
  void TearDown() override {
    filter::install(filter::Rules{});
    filter::setPaused(false);
  }
};

std::uint32_t subBit(auto Sub) { return 1u << unsigned(Sub); }

class Collector final : public EventSink {
public:
  void consume(const ThreadInfo &, const Event *E, std::size_t N) override {
    std::lock_guard<std::mutex> L(M);
    // Not the recorder's own events (a full buffer's flush, the thread's
    // CPU use after it): no filter stage decides those.
    for (std::size_t I = 0; I < N; ++I)
      if (E[I].Kind != EventKind::ToolBegin && E[I].Kind != EventKind::ToolEnd &&
          E[I].Kind != EventKind::ThreadCpu)
        Events.push_back(E[I]);
  }
  std::mutex M;
  std::vector<Event> Events;
};

} // namespace

TEST_F(FilterTest, EveryKindHasAGroup) {
  EXPECT_EQ(eventGroupOf(EventKind::TaskCreate), EventGroup::Tasks);
  EXPECT_EQ(eventGroupOf(EventKind::TaskDependencePair),
            EventGroup::Dependences);
  EXPECT_EQ(eventGroupOf(EventKind::SyncWaitEnd), EventGroup::Sync);
  EXPECT_EQ(eventGroupOf(EventKind::NestLockEnd), EventGroup::Mutex);
  EXPECT_EQ(eventGroupOf(EventKind::ImplicitTaskBegin), EventGroup::Parallel);
  EXPECT_EQ(eventGroupOf(EventKind::MpiCollectiveEnd), EventGroup::Mpi);
  EXPECT_EQ(eventGroupOf(EventKind::MpiClockOffset), EventGroup::Mpi);
  EXPECT_EQ(eventGroupOf(EventKind::ToolControl), EventGroup::Control);
  EXPECT_EQ(
      groupSetText(groupBit(EventGroup::Tasks) | groupBit(EventGroup::Mutex)),
      "tasks, mutex");
  EXPECT_EQ(groupSetText(0), "");
  for (unsigned G = 0; G < unsigned(EventGroup::Count); ++G)
    EXPECT_STRNE(eventGroupName(EventGroup(G)), "?");
  // Every kind of the table has the group of the callback (or source) that
  // makes it; "other" is for a kind whose record says nothing.
  for (std::size_t K = 1; K < EventKindCount; ++K)
    if (kindInfo(EventKind(K)).Kind != EventKind::None) {
      EXPECT_NE(eventGroupOf(EventKind(K)), EventGroup::Other)
          << eventKindName(EventKind(K));
    }
}

TEST_F(FilterTest, NothingFilteredLeavesTheFastPathOpen) {
  filter::install(filter::Rules{});
  EXPECT_FALSE(filter::engaged());
  EXPECT_FALSE(recorder::Gate.load() & recorder::GateFiltering);
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 0x1234));
}

TEST_F(FilterTest, GroupsKindsAndSubKinds) {
  filter::Rules R;
  R.Groups = groupBit(EventGroup::Mutex);
  // taskwait only, not the barriers.
  for (EventKind K : {EventKind::SyncBegin, EventKind::SyncEnd,
                      EventKind::SyncWaitBegin, EventKind::SyncWaitEnd})
    R.Subs[std::size_t(K)] = subBit(SyncKind::Taskwait);
  R.Subs[std::size_t(EventKind::Cancel)] = ~0u;
  filter::install(R);
  ASSERT_TRUE(filter::engaged());
  EXPECT_TRUE(recorder::Gate.load() & recorder::GateFiltering);
  EXPECT_FALSE(filter::admit(EventKind::MutexAcquire, 5, 0));
  EXPECT_FALSE(filter::admit(EventKind::NestLockBegin, 3, 0));
  EXPECT_FALSE(filter::admit(EventKind::SyncBegin,
                             std::uint16_t(SyncKind::Taskwait), 0x10));
  EXPECT_FALSE(filter::admit(EventKind::SyncWaitEnd,
                             std::uint16_t(SyncKind::Taskwait), 0x10));
  EXPECT_TRUE(filter::admit(EventKind::SyncBegin,
                            std::uint16_t(SyncKind::BarrierExplicit), 0x10));
  EXPECT_FALSE(filter::admit(EventKind::Cancel, 0, 0));
  EXPECT_FALSE(filter::admit(EventKind::Cancel, 999, 0)); // sub >= 31
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 0x10));
  filter::install(filter::Rules{});
  EXPECT_FALSE(filter::engaged());
  EXPECT_FALSE(recorder::Gate.load() & recorder::GateFiltering);
}

TEST_F(FilterTest, CodeRulesAreAskedOncePerAddressFromAnyThread) {
  std::atomic<int> Asked{0};
  filter::Rules R;
  R.DropCode = [&](std::uint64_t Code) {
    ++Asked;
    return Code % 3 == 0;
  };
  filter::install(R);
  // More distinct addresses than the table holds: the rest behind it.
  constexpr std::uint64_t Codes = 6000;
  std::vector<std::thread> Pool;
  std::atomic<int> Wrong{0};
  for (int T = 0; T < 4; ++T)
    Pool.emplace_back([&] {
      for (int Round = 0; Round < 3; ++Round)
        for (std::uint64_t C = 1; C <= Codes; ++C)
          if (filter::admit(EventKind::TaskCreate, 0, C * 64) != (C % 3 != 0))
            ++Wrong;
    });
  for (std::thread &T : Pool)
    T.join();
  EXPECT_EQ(Wrong.load(), 0);
  EXPECT_EQ(Asked.load(), int(Codes));
  // No code address: nothing to ask.
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 0));
  EXPECT_EQ(Asked.load(), int(Codes));
}

TEST_F(FilterTest, ARuleThatFailsKeepsTheEvent) {
  filter::Rules R;
  R.DropCode = [](std::uint64_t) -> bool { throw std::bad_alloc(); };
  filter::install(R);
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 0x40));
}

TEST_F(FilterTest, RegionIdsOfThePlugin) {
  filter::Rules R;
  R.DropCode = filter::dropRegions(
      [](std::uint64_t Code) {
        SourceLabel L;
        L.RegionId = Code / 16; // two addresses per region
        return L;
      },
      {7, 9});
  filter::install(R);
  EXPECT_FALSE(filter::admit(EventKind::TaskCreate, 0, 7 * 16));
  EXPECT_FALSE(filter::admit(EventKind::TaskCreate, 0, 7 * 16 + 8));
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 8 * 16));
  EXPECT_FALSE(filter::admit(EventKind::WorkBegin, 1, 9 * 16));
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 15)); // region 0
}

TEST_F(FilterTest, PausingKeepsOnlyThreads) {
  EXPECT_FALSE(filter::engaged());
  filter::setPaused(true);
  EXPECT_TRUE(filter::paused());
  EXPECT_TRUE(filter::engaged());
  EXPECT_TRUE(recorder::Gate.load() & recorder::GateFiltering);
  EXPECT_FALSE(filter::admit(EventKind::TaskCreate, 0, 0));
  EXPECT_FALSE(filter::admit(EventKind::MpiSend, 0, 0));
  EXPECT_TRUE(filter::admit(EventKind::ThreadBegin, 2, 0));
  filter::setPaused(false);
  EXPECT_FALSE(filter::engaged());
  EXPECT_TRUE(filter::admit(EventKind::TaskCreate, 0, 0));
}

// Tasks created while paused (gap tasks) keep the stage engaged after the
// start until the last one completes, on whichever thread.
TEST_F(FilterTest, TheGapStaysEngagedUntilItsLastTaskCompletes) {
  filter::setPaused(true);
  EXPECT_TRUE(recorder::Gate.load() & recorder::GatePaused);
  ASSERT_TRUE(filter::gapTaskCreated());
  filter::gapChildCreated();
  filter::gapTaskDone(); // the child, while paused
  filter::gapChildCreated();
  filter::setPaused(false);
  EXPECT_FALSE(recorder::Gate.load() & recorder::GatePaused);
  EXPECT_TRUE(filter::engaged());
  EXPECT_TRUE(recorder::Gate.load() & recorder::GateFiltering);
  filter::gapTaskDone();
  EXPECT_TRUE(filter::engaged());
  std::thread([] { filter::gapTaskDone(); }).join();
  EXPECT_FALSE(filter::engaged());
  EXPECT_FALSE(recorder::Gate.load() & recorder::GateFiltering);
  // Recording: a task is no gap task, and the stage stays disengaged.
  EXPECT_FALSE(filter::gapTaskCreated());
  EXPECT_FALSE(filter::engaged());
  // A pause with no task in it: the start disengages at once.
  filter::setPaused(true);
  filter::setPaused(false);
  EXPECT_FALSE(filter::engaged());
}

TEST_F(FilterTest, ASyntheticStreamThroughTheStageToASink) {
  Collector Sink;
  EventSink *Sinks[] = {&Sink};
  recorder::setSinks(Sinks, 1);
  recorder::setBufferEvents(1024);
  recorder::Active.store(true);
  filter::Rules R;
  R.Groups = groupBit(EventGroup::Sync);
  R.DropCode = [](std::uint64_t Code) { return Code == 0xbad; };
  filter::install(R);
  std::thread([&] {
    ThreadState *T = recorder::registerThread(std::uint32_t(ThreadType::Other));
    ASSERT_NE(T, nullptr);
    // While engaged, no fast path.
    EXPECT_EQ(recorder::fastThread(), nullptr);
    std::uint32_t Seq = 0;
    // What an adapter's general path does: ask, then append or discard.
    auto emit = [&](EventKind K, std::uint16_t Sub, std::uint64_t Code) {
      bool In = !filter::engaged() || filter::admit(K, Sub, Code);
      Event &E = In ? recorder::append(T) : T->Discard;
      std::memset(&E, 0, sizeof E);
      E.Kind = K;
      E.Sub = Sub;
      E.Code = Code;
      E.Task = 7;
      E.Seq = In ? Seq++ : 0;
    };
    for (int I = 0; I < 3000; ++I) { // over two buffers
      emit(EventKind::TaskCreate, 0, I % 2 ? 0xbad : 0x600d);
      emit(EventKind::SyncBegin, std::uint16_t(SyncKind::Taskwait), 0x600d);
      emit(EventKind::SyncEnd, std::uint16_t(SyncKind::Taskwait), 0x600d);
      emit(EventKind::TaskSchedule, 1, 0);
    }
    recorder::flush(T);
  }).join();
  filter::install(filter::Rules{});
  recorder::Active.store(false);
  recorder::setSinks(nullptr, 0);
  ASSERT_EQ(Sink.Events.size(), 1500u + 3000u);
  for (std::size_t I = 0; I < Sink.Events.size(); ++I) {
    const Event &E = Sink.Events[I];
    EXPECT_EQ(E.Seq, I); // a dense sequence: nothing refused took a number
    EXPECT_NE(eventGroupOf(E.Kind), EventGroup::Sync);
    EXPECT_NE(E.Code, 0xbadu);
  }
}
