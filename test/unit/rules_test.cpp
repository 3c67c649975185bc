//===- rules_test.cpp - The graph rules the builder and analyses share ---===//
//
// graph/rules.h on its own: the stream form, the id table, the dependence
// rules, libomp's reporting order. The readers that use them are tested on
// whole streams in builder_test.cpp and analysis_*_test.cpp.
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "graph/rules.h"
#include "graph/writers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <vector>

using namespace otter;
using namespace otter::rules;

namespace {

/// E (from its kind's constructor) as its task's Seq-th event, its wait
/// folded in if Folded (as the adapter records a sync region's).
Event at(std::uint32_t Seq, Event E, bool Folded = false) {
  E.Time = Seq + 1;
  E.Seq = Seq;
  if (Folded)
    E.foldWait();
  return E;
}

std::vector<Event> unfoldAll(const std::vector<Event> &In) {
  std::vector<Event> Out;
  forEachEvent(In.data(), In.size(), [&](const Event &E) { Out.push_back(E); });
  return Out;
}

} // namespace

TEST(Rules, StreamFormUnfoldsFoldedSyncEventsOnly) {
  auto TW = SyncKind::Taskwait;
  std::vector<Event> Folded = {
      at(1, Event::syncBegin(0, 7, 0, TW, 0x10), true),
      at(2, Event::syncEnd(0, 7, 0, TW, 0x10), true),
      // The flag means nothing on another kind.
      at(3, Event::workBegin(0, 7, WorkKind::Loop, 0, 0x20), true)};
  std::vector<Event> Out = unfoldAll(Folded);
  ASSERT_EQ(Out.size(), 5u);
  EXPECT_EQ(Out[0].Kind, EventKind::SyncBegin);
  EXPECT_EQ(Out[1].Kind, EventKind::SyncWaitBegin);
  EXPECT_EQ(Out[2].Kind, EventKind::SyncWaitEnd);
  EXPECT_EQ(Out[3].Kind, EventKind::SyncEnd);
  EXPECT_EQ(Out[4].Kind, EventKind::WorkBegin);
  for (int I = 0; I < 4; ++I)
    EXPECT_FALSE(Out[I].waitFolded()) << I;
  // Unfolded input is left as it is: both feeds read alike.
  std::vector<Event> Again = unfoldAll(Out);
  ASSERT_EQ(Again.size(), Out.size());
  for (std::size_t I = 0; I < Out.size(); ++I)
    EXPECT_EQ(Again[I].Kind, Out[I].Kind);
}

// A taskwait's begin with its end folded in (otter/events.h) is read as the
// events unfoldEvent gives, byte for byte: the four, or three when only the
// wait's end was folded.
TEST(Rules, StreamFormUnfoldsAFoldedSyncEndAsUnfoldEventDoes) {
  Event B = at(4, Event::syncBegin(0, 7, 3, SyncKind::Taskwait, 0x10));
  B.Extra =
      9 << SyncEndShift | SyncEndFolded | SyncWaitEndFolded | SyncWaitFolded;
  Event WaitOnly = B;
  WaitOnly.Extra &= ~SyncEndFolded;
  std::vector<Event> Out = unfoldAll({B, WaitOnly});
  ASSERT_EQ(Out.size(), 7u);
  Event Want[2 * MaxUnfolded];
  unsigned N = unfoldEvent(B, Want);
  N += unfoldEvent(WaitOnly, Want + N);
  ASSERT_EQ(N, 7u);
  for (unsigned I = 0; I < N; ++I)
    EXPECT_EQ(0, std::memcmp(&Want[I], &Out[I], sizeof(Event))) << I;
  EXPECT_EQ(Out[3].Kind, EventKind::SyncEnd);
  EXPECT_EQ(Out[3].Time, B.Time + 9);
}

// The live runtime feeds the builder folded sync events, the trace reader
// unfolded ones: the graph must be the same.
TEST(Rules, BuilderReadsFoldedAndUnfoldedStreamsAlike) {
  auto TW = SyncKind::Taskwait;
  auto Bar = SyncKind::BarrierImplicitParallel;
  std::vector<Event> Folded = {
      at(0, Event::implicitTaskBegin(0, 1, 0, 1, 0, TaskInitial)),
      at(1, Event::taskCreate(0, 1, 10, TaskExplicit, 0x100)),
      at(2, Event::syncBegin(0, 1, 0, TW, 0x200), true),
      at(3, Event::syncEnd(0, 1, 0, TW, 0x200), true),
      at(4, Event::syncBegin(0, 1, 0, Bar, 0x300), true),
      at(5, Event::syncEnd(0, 1, 0, Bar, 0x300), true)};
  auto graphOf = [](const std::vector<Event> &Events) {
    GraphBuilder B([](std::uint64_t Code) {
      SourceLabel L;
      L.Location = "c+" + std::to_string(Code);
      return L;
    });
    B.addEvents(0, Events.data(), Events.size());
    std::ostringstream OS;
    writeCanonical(B.build(), OS);
    return OS.str();
  };
  std::string FromFolded = graphOf(Folded);
  EXPECT_EQ(FromFolded, graphOf(unfoldAll(Folded)));
  EXPECT_NE(FromFolded.find("taskwait"), std::string::npos);
}

TEST(Rules, TaskIndexRuntimeAndOtherIds) {
  TaskIndex X;
  TaskId Runtime = makeId(2, 123456), Other = 42, Huge = ~TaskId(0) - 5;
  EXPECT_EQ(X.find(Runtime), TaskIndex::NoIndex);
  X.cell(Runtime) = 1;
  X.cell(Other) = 2;
  X.cell(Huge) = 3;
  EXPECT_EQ(X.find(Runtime), 1u);
  EXPECT_EQ(X.find(Other), 2u);
  EXPECT_EQ(X.find(Huge), 3u);
  EXPECT_EQ(X.find(Runtime + 1), TaskIndex::NoIndex);
  EXPECT_EQ(X.find(makeId(8, 5)), TaskIndex::NoIndex);
  X.erase(Runtime);
  X.erase(Huge);
  EXPECT_EQ(X.find(Runtime), TaskIndex::NoIndex);
  EXPECT_EQ(X.find(Huge), TaskIndex::NoIndex);
  EXPECT_EQ(X.find(Other), 2u);
  X.clear();
  EXPECT_EQ(X.find(Other), TaskIndex::NoIndex);
}

namespace {
/// Feeds one child's dependences and returns its resolved predecessors.
std::vector<std::uint32_t>
deps(DependenceRules &R, std::uint32_t Child,
     std::vector<std::pair<std::uint64_t, DependenceType>> D,
     std::vector<std::uint32_t> Waited = {}) {
  std::vector<std::uint32_t> P;
  for (auto [Addr, T] : D)
    R.add(Addr, T, Child, P);
  resolvePredecessors(P, Child, [&](std::uint32_t X) {
    return std::find(Waited.begin(), Waited.end(), X) != Waited.end();
  });
  return P;
}
using V = std::vector<std::uint32_t>;
constexpr auto In = DependenceType::In, Out = DependenceType::Out,
               InOut = DependenceType::InOut,
               Mutex = DependenceType::MutexInOutSet,
               Set = DependenceType::InOutSet;
} // namespace

TEST(Rules, DependencesReadersAndWriters) {
  DependenceRules R;
  EXPECT_EQ(deps(R, 1, {{0xa, Out}}), V{});
  EXPECT_EQ(deps(R, 2, {{0xa, In}}), V{1});
  EXPECT_EQ(deps(R, 3, {{0xa, In}}), V{1});
  // A writer follows the readers, not the writer they follow (transitive).
  EXPECT_EQ(deps(R, 4, {{0xa, InOut}}), (V{2, 3}));
  EXPECT_EQ(deps(R, 5, {{0xa, Out}}), V{4});
  // Two addresses, one predecessor: listed once.
  EXPECT_EQ(deps(R, 6, {{0xa, In}, {0xb, Out}}), V{5});
  EXPECT_EQ(deps(R, 7, {{0xa, In}, {0xb, In}}), (V{5, 6}));
  // Sources and sinks (doacross) are no task dependences.
  EXPECT_EQ(deps(R, 8, {{0xa, DependenceType::Sink}}), V{});
}

TEST(Rules, DependenceSetsFormGroups) {
  DependenceRules R;
  deps(R, 1, {{0xa, Out}});
  // Consecutive mutexinoutset tasks: one group, same predecessors, no edge
  // between them.
  EXPECT_EQ(deps(R, 2, {{0xa, Mutex}}), V{1});
  EXPECT_EQ(deps(R, 3, {{0xa, Mutex}}), V{1});
  // An inoutset after them starts a new group, after the whole first one.
  EXPECT_EQ(deps(R, 4, {{0xa, Set}}), (V{2, 3}));
  EXPECT_EQ(deps(R, 5, {{0xa, Set}}), (V{2, 3}));
  // A reader follows the last group; a group after a reader follows it.
  EXPECT_EQ(deps(R, 6, {{0xa, In}}), (V{4, 5}));
  EXPECT_EQ(deps(R, 7, {{0xa, Set}}), V{6});
  EXPECT_EQ(deps(R, 8, {{0xa, Out}}), V{7});
}

TEST(Rules, DependenceOnWaitedTaskIsImplied) {
  DependenceRules R;
  deps(R, 1, {{0xa, Out}});
  deps(R, 2, {{0xa, In}});
  EXPECT_EQ(deps(R, 3, {{0xa, Out}}, {2}), V{});
  // Clearing after a taskwait gives what the waited filter gives.
  DependenceRules Cleared;
  deps(Cleared, 1, {{0xa, Mutex}});
  deps(Cleared, 2, {{0xa, Mutex}});
  Cleared.clear();
  DependenceRules Kept;
  deps(Kept, 1, {{0xa, Mutex}});
  deps(Kept, 2, {{0xa, Mutex}});
  EXPECT_EQ(deps(Cleared, 3, {{0xa, Mutex}}), V{});
  EXPECT_EQ(deps(Kept, 3, {{0xa, Mutex}}, {1, 2}), V{});
  EXPECT_EQ(deps(Cleared, 4, {{0xa, In}}), V{3});
  EXPECT_EQ(deps(Kept, 4, {{0xa, In}}, {1, 2}), V{3});
}

TEST(Rules, LibompOrderPutsBarriersAndTaskgroupsInside) {
  auto W = [](EventKind K, WorkKind S) { return KindSub{K, std::uint16_t(S)}; };
  auto S = [](EventKind K, SyncKind X) { return KindSub{K, std::uint16_t(X)}; };
  std::vector<KindSub> Events = {
      W(EventKind::WorkBegin, WorkKind::LoopStatic),
      W(EventKind::WorkEnd, WorkKind::LoopStatic),
      S(EventKind::SyncBegin, SyncKind::BarrierImplicitWorkshare),
      S(EventKind::SyncBegin, SyncKind::Taskgroup),
      W(EventKind::WorkBegin, WorkKind::Taskloop),
      W(EventKind::WorkEnd, WorkKind::Taskloop),
      S(EventKind::SyncEnd, SyncKind::Taskgroup),
      W(EventKind::WorkEnd, WorkKind::SingleExecutor),
      S(EventKind::SyncBegin, SyncKind::BarrierImplicitParallel)};
  std::vector<std::size_t> Order;
  for (std::size_t I = 0; I < Events.size(); ++I)
    Order.push_back(I);
  adjustLibompOrder(Order, [&](std::size_t I) { return Events[I]; });
  // The parallel region's own barrier stays after the single's end.
  EXPECT_EQ(Order, (std::vector<std::size_t>{0, 2, 1, 4, 3, 6, 5, 7, 8}));
  EXPECT_TRUE(barrierClosesWork(Events[1], Events[2]));
  EXPECT_FALSE(barrierClosesWork(Events[7], Events[8]));
  EXPECT_FALSE(barrierClosesWork(Events[5], Events[2])); // a taskloop's end
}

// Readers skip adjusting a strand none of whose events starts a rewritten
// pattern (the builder, per explicit task): every order of events that
// adjustLibompOrder changes has such an event.
TEST(Rules, LibompOrderChangesOnlyStrandsWithAPatternStart) {
  auto W = [](EventKind K, WorkKind S) { return KindSub{K, std::uint16_t(S)}; };
  auto S = [](EventKind K, SyncKind X) { return KindSub{K, std::uint16_t(X)}; };
  const std::vector<KindSub> Palette = {
      W(EventKind::WorkBegin, WorkKind::LoopStatic),
      W(EventKind::WorkEnd, WorkKind::LoopStatic),
      W(EventKind::WorkEnd, WorkKind::SingleExecutor),
      W(EventKind::WorkBegin, WorkKind::Taskloop),
      W(EventKind::WorkEnd, WorkKind::Taskloop),
      S(EventKind::SyncBegin, SyncKind::BarrierImplicitWorkshare),
      S(EventKind::SyncBegin, SyncKind::BarrierImplicitParallel),
      S(EventKind::SyncBegin, SyncKind::Taskgroup),
      S(EventKind::SyncEnd, SyncKind::Taskgroup),
      S(EventKind::SyncBegin, SyncKind::Taskwait),
      KindSub{EventKind::TaskCreate, 0}};
  EXPECT_TRUE(startsLibompReorder(Palette[1]));  // a loop's end
  EXPECT_TRUE(startsLibompReorder(Palette[7]));  // a taskgroup's begin
  EXPECT_FALSE(startsLibompReorder(Palette[4])); // a taskloop's end
  EXPECT_FALSE(startsLibompReorder(Palette[9]));
  // Every sequence of 4 events of the palette.
  const std::size_t P = Palette.size();
  std::size_t Changed = 0;
  for (std::size_t Code = 0; Code < P * P * P * P; ++Code) {
    std::vector<KindSub> Events;
    for (std::size_t C = Code, I = 0; I < 4; ++I, C /= P)
      Events.push_back(Palette[C % P]);
    std::vector<std::size_t> Order = {0, 1, 2, 3};
    adjustLibompOrder(Order, [&](std::size_t I) { return Events[I]; });
    if (Order == std::vector<std::size_t>{0, 1, 2, 3})
      continue;
    ++Changed;
    EXPECT_TRUE(std::any_of(Events.begin(), Events.end(), startsLibompReorder))
        << "sequence " << Code;
  }
  EXPECT_GT(Changed, 0u);
}

TEST(Rules, Constructs) {
  Construct C;
  EXPECT_TRUE(constructOfSync(SyncKind::BarrierExplicit, C));
  EXPECT_EQ(C, Construct::Barrier);
  EXPECT_TRUE(constructOfSync(SyncKind::BarrierImplicitWorkshare, C));
  EXPECT_EQ(C, Construct::ImplicitBarrier);
  EXPECT_FALSE(constructOfSync(SyncKind::Reduction, C));
  EXPECT_EQ(waitScopeOf(SyncKind::Taskwait), WaitScope::Children);
  EXPECT_EQ(waitScopeOf(SyncKind::Taskgroup), WaitScope::Taskgroup);
  EXPECT_EQ(waitScopeOf(SyncKind::BarrierTeams), WaitScope::Team);
  EXPECT_EQ(waitScopeOf(SyncKind::Reduction), WaitScope::None);
  EXPECT_EQ(constructOfWork(WorkKind::LoopGuided), Construct::Loop);
  EXPECT_EQ(constructOfWork(WorkKind::Scope), Construct::Workshare);
  EXPECT_EQ(constructOfMutex(MutexKind::TestNestLock), Construct::NestLock);
  EXPECT_EQ(constructOfMutex(MutexKind(99)), Construct::Count);
  int G1 = 1, G2 = 2;
  EXPECT_EQ(taskgroupOfChild(&G1, &G2), &G1);
  EXPECT_EQ(taskgroupOfChild<int>(nullptr, &G2), &G2);
  EXPECT_EQ(inheritCode(0x10ull, 0x20ull), std::make_pair(0x10ull, false));
  EXPECT_EQ(inheritCode(0ull, 0x20ull), std::make_pair(0x20ull, true));
}

// Rule 8: a target or target data region is a node pair (a target data
// region only when its label says so: at its entry's begin and its exit's
// begin), the data constructs one node at their begin, nowait forms alike;
// only transfers move bytes, async forms included.
TEST(Rules, TargetNodes) {
  using TN = TargetNode;
  for (TargetKind K : {TargetKind::Target, TargetKind::TargetNowait})
    for (bool Data : {false, true}) {
      EXPECT_EQ(targetNodeOf(K, true, Data), TN::RegionBegin);
      EXPECT_EQ(targetNodeOf(K, false, Data), TN::RegionEnd);
    }
  for (TargetKind K : {TargetKind::EnterData, TargetKind::EnterDataNowait}) {
    EXPECT_EQ(targetNodeOf(K, true, true), TN::RegionBegin);
    EXPECT_EQ(targetNodeOf(K, true, false), TN::EnterData);
    EXPECT_EQ(targetNodeOf(K, false, true), TN::None);
    EXPECT_EQ(targetNodeOf(K, false, false), TN::None);
  }
  for (TargetKind K : {TargetKind::ExitData, TargetKind::ExitDataNowait}) {
    EXPECT_EQ(targetNodeOf(K, true, true), TN::RegionEnd);
    EXPECT_EQ(targetNodeOf(K, true, false), TN::ExitData);
    EXPECT_EQ(targetNodeOf(K, false, true), TN::None);
  }
  EXPECT_EQ(targetNodeOf(TargetKind::UpdateNowait, true, false), TN::Update);
  EXPECT_EQ(targetNodeOf(TargetKind::Update, false, false), TN::None);
  EXPECT_EQ(targetNodeOf(TargetKind(7), true, false), TN::None);
  EXPECT_EQ(transferOf(DataOpKind::TransferToDevice), 1);
  EXPECT_EQ(transferOf(DataOpKind::TransferToDeviceAsync), 1);
  EXPECT_EQ(transferOf(DataOpKind::TransferFromDevice), -1);
  EXPECT_EQ(transferOf(DataOpKind::TransferFromDeviceAsync), -1);
  for (DataOpKind K : {DataOpKind::Alloc, DataOpKind::Delete,
                       DataOpKind::Associate, DataOpKind::AllocAsync})
    EXPECT_EQ(transferOf(K), 0);
}
