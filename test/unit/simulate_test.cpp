//===- simulate_test.cpp - otter simulate: the replay on P cores ----------===//
//
// Hand-made traces whose greedy schedules are worked out in the comments
// (times in ns), and properties on random programs (random_programs.h):
// the recorded program's compute is the analysis' work; without overheads
// the replay on one core takes the work, on unlimited cores the span, and
// in between max(work/P, span) <= time <= work; with the overheads the
// replay on one core takes the work plus the overheads it reports, and
// never less than the bounds; the prediction never rises with more cores.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "random_programs.h"
#include "sim_program.h"
#include "simulate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace otter;
using namespace otter::sim;

namespace {

constexpr TaskId Init = 1, Par = 2, I0 = 3, I1 = 4;

struct Stream {
  std::vector<std::pair<std::uint32_t, Event>> Ev;
  bool CheckWork = true;
  Event &e(std::uint32_t Th, std::uint64_t T, EventKind K, TaskId Task,
           std::uint64_t A = 0, std::uint16_t Sub = 0, std::uint64_t Code = 0) {
    Event E{};
    E.Time = T;
    E.Kind = K;
    E.Task = Task;
    E.A = A;
    E.Sub = Sub;
    E.Code = Code;
    Ev.push_back({Th, E});
    return Ev.back().second;
  }
  void create(std::uint32_t Th, std::uint64_t T, TaskId Creator, TaskId Child,
              std::uint32_t Flags = TaskExplicit) {
    e(Th, T, EventKind::TaskCreate, Creator, Child, 0, 0x100).Aux = Flags;
  }
  /// Thread Th runs Task from From to To, resuming Resume.
  void run(std::uint32_t Th, std::uint64_t From, std::uint64_t To, TaskId Task,
           TaskId Resume) {
    e(Th, From, EventKind::TaskSchedule, Resume, Task,
      std::uint16_t(ScheduleStatus::Switch));
    e(Th, To, EventKind::TaskSchedule, Task, Resume,
      std::uint16_t(ScheduleStatus::Complete));
  }
  void sync(std::uint32_t Th, std::uint64_t B, std::uint64_t E, TaskId Task,
            SyncKind K, bool Begin) {
    (void)E;
    if (Begin) {
      e(Th, B, EventKind::SyncBegin, Task, Par, std::uint16_t(K));
      e(Th, B, EventKind::SyncWaitBegin, Task, Par, std::uint16_t(K));
    } else {
      e(Th, B, EventKind::SyncWaitEnd, Task, Par, std::uint16_t(K));
      e(Th, B, EventKind::SyncEnd, Task, Par, std::uint16_t(K));
    }
  }
  void program(Program &G, analysis::Result *R = nullptr) {
    std::stable_sort(Ev.begin(), Ev.end(), [](const auto &A, const auto &B) {
      return A.second.Time < B.second.Time;
    });
    Recorder Rec;
    analysis::Analyzer A;
    for (auto &[Th, E] : Ev) {
      Rec.add(Th, &E, 1);
      A.add(Th, E);
    }
    std::string Error;
    ASSERT_TRUE(Rec.finish(G, Error)) << Error;
    analysis::Result X = A.finish();
    if (CheckWork) { // (the analyses charge a target region to its task)
      EXPECT_EQ(G.ComputeNs, X.WorkNs);
    }
    if (R)
      *R = X;
  }
};

Options ideal() {
  Options O;
  O.Overheads = false;
  return O;
}

/// The initial task creates four tasks of 10, 20, 30 and 40 ns at 0 and
/// waits for them; 10 ns more after the taskwait. (Traced on one thread:
/// 40, 30, 20, 10 in turn.)
void fourTasks(Stream &S) {
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  for (TaskId T = 11; T <= 14; ++T)
    S.create(0, 0, Init, T);
  S.sync(0, 0, 0, Init, SyncKind::Taskwait, true);
  S.run(0, 0, 40, 14, Init);
  S.run(0, 40, 70, 13, Init);
  S.run(0, 70, 90, 12, Init);
  S.run(0, 90, 100, 11, Init);
  S.sync(0, 100, 100, Init, SyncKind::Taskwait, false);
  S.e(0, 110, EventKind::ImplicitTaskEnd, Init);
}

} // namespace

TEST(Simulate, FourTasksByHand) {
  Stream S;
  fourTasks(S);
  Program G;
  analysis::Result R;
  S.program(G, &R);
  ASSERT_EQ(G.ExplicitTasks, 4u);
  EXPECT_EQ(R.WorkNs, 110u);
  EXPECT_EQ(R.SpanNs, 50u);
  // One core: every task at once, in creation order: the work.
  EXPECT_EQ(simulate(G, 1, ideal()).MakespanNs, 110u);
  // Two cores. Core 0 creates T1..T4 at 0 and waits; it runs its newest,
  // T4 (0-40). Core 1, woken by the first push, steals the oldest: T1
  // (0-10), T2 (10-30), T3 (30-60). The taskwait ends at 60, then 10 ns.
  sim::Run R2 = simulate(G, 2, ideal());
  EXPECT_EQ(R2.MakespanNs, 70u);
  EXPECT_EQ(R2.Steals, 3u);
  // Four cores: T4 on core 0, T1..T3 stolen at 0: all done at 40, then 10
  // ns: the span.
  EXPECT_EQ(simulate(G, 4, ideal()).MakespanNs, 50u);
  EXPECT_EQ(simulate(G, 64, ideal()).MakespanNs, 50u);
  // Two cores, 5 ns to start a task from a deque: core 0 runs T4 5-45;
  // core 1 T1 5-15, T2 20-40, T3 45-75 (core 0 is still in T4 at 40); the
  // taskwait ends at 75, then 10 ns: 85.
  Options O = ideal();
  O.ScheduleNs = 5;
  sim::Run R5 = simulate(G, 2, O);
  EXPECT_EQ(R5.MakespanNs, 85u);
  EXPECT_EQ(R5.OverheadNs, 20u);
  EXPECT_EQ(R5.Dispatched, 4u);
  // On one core the team of one is serialized: no scheduling cost.
  EXPECT_EQ(simulate(G, 1, O).MakespanNs, 110u);
}

/// Calibration (sim::calibrate): the four tasks traced on two threads in a
/// run that took longer than the replay places: the rest is charged per task
/// dispatched, so the calibrated replay takes the run's time; nothing is
/// charged for one thread, for a run the replay places, or on one core.
TEST(Simulate, CalibratedToTheRun) {
  Stream S;
  fourTasks(S);
  Program G;
  analysis::Result R;
  S.program(G, &R);
  Options O = ideal();
  O.Overheads = true;
  std::uint64_t Replay = simulate(G, 2, O).MakespanNs;
  R.Threads = 2;
  R.FirstTime = 0;
  R.LastTime = 1000; // the run: 1000 ns, of which OTTER's own 2 x 100
  R.ToolNs = 200;
  Options C = O;
  Calibration Cal = calibrate(G, R, C);
  ASSERT_TRUE(Cal.Applied);
  EXPECT_EQ(Cal.RunNs, 900u);
  EXPECT_EQ(Cal.ReplayNs, Replay);
  EXPECT_GT(C.ContentionNs, 0.0);
  EXPECT_EQ(Cal.ContentionNs, C.ContentionNs);
  std::uint64_t Got = simulate(G, 2, C).MakespanNs;
  EXPECT_EQ(Got, Cal.CalibratedNs);
  EXPECT_NEAR(double(Got), 900.0, 0.02 * 900 + 1);
  EXPECT_NE(calibrationText(Cal).find("per task dispatched"),
            std::string::npos);
  // One core runs every task at once: no dispatch, nothing charged.
  EXPECT_EQ(simulate(G, 1, C).MakespanNs, simulate(G, 1, O).MakespanNs);
  // A run the replay places (within 5 %): unchanged.
  R.LastTime = Replay;
  R.ToolNs = 0;
  Options U = O;
  EXPECT_FALSE(calibrate(G, R, U).Applied);
  EXPECT_EQ(U.ContentionNs, 0.0);
  // One thread: nothing to calibrate against.
  R.Threads = 1;
  R.LastTime = 100000;
  EXPECT_FALSE(calibrate(G, R, U).Applied);
  EXPECT_EQ(U.ContentionNs, 0.0);
}

/// A team of two: member 0 computes 30 ns, barrier, 10 ns; member 1 10 ns,
/// barrier, 30 ns. The fork takes 5 ns (the primary begins at 5), the
/// join 3 ns (the primary ends at 70, the region at 73). The barrier's
/// release time: member 1 leaves it when member 0 arrives (0 ns; member 0
/// leaves 2 ns later, its own execution); the implicit barrier's is 5 ns
/// (the last arrives at 65, both leave at 70).
TEST(Simulate, TeamWithBarrierByHand) {
  Stream S;
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  S.e(0, 0, EventKind::ParallelBegin, Init, Par, 0, 0x500).Aux = 2;
  for (unsigned M = 0; M < 2; ++M) {
    Event &X = S.e(M, 5, EventKind::ImplicitTaskBegin, M ? I1 : I0, Par,
                   std::uint16_t(M));
    X.Aux = 2;
    X.Extra = TaskImplicit;
  }
  auto Bar = SyncKind::BarrierExplicit;
  S.sync(0, 35, 35, I0, Bar, true);
  S.sync(0, 37, 37, I0, Bar, false);
  S.sync(1, 15, 15, I1, Bar, true);
  S.sync(1, 35, 35, I1, Bar, false);
  auto Imp = SyncKind::BarrierImplicitParallel;
  S.sync(0, 47, 47, I0, Imp, true);
  S.sync(1, 65, 65, I1, Imp, true);
  S.sync(0, 70, 70, I0, Imp, false);
  S.sync(1, 70, 70, I1, Imp, false);
  S.e(0, 70, EventKind::ImplicitTaskEnd, I0);
  S.e(1, 70, EventKind::ImplicitTaskEnd, I1);
  S.e(0, 73, EventKind::ParallelEnd, Init, Par, 0, 0x500);
  S.e(0, 80, EventKind::ImplicitTaskEnd, Init);
  Program G;
  analysis::Result R;
  S.program(G, &R);
  ASSERT_EQ(G.Teams.size(), 2u); // the initial task's and the region
  EXPECT_EQ(G.Teams[1].ForkNs, 5u);
  EXPECT_EQ(G.Teams[1].JoinNs, 3u);
  // Work: fork 5 + members 40 and 40 + 7.
  EXPECT_EQ(R.WorkNs, 5u + 40 + 40 + 7);
  // Span: the members from the fork (its 5 ns beside them): barrier at 30,
  // member 1 ends at 60, then 7.
  EXPECT_EQ(R.SpanNs, 67u);
  // Without overheads, two cores: the fork time on core 0 (0-5) beside
  // the members; core 1 takes member 0 at 0 (barrier at 30), core 0 member
  // 1 at 5 (10 ns, barrier at 15); member 0 goes on at 30 (ends at 40),
  // member 1 resumes at 30 on core 0 and ends at 60: join, 7 ns: the span.
  EXPECT_EQ(simulate(G, 2, ideal()).MakespanNs, 67u);
  EXPECT_EQ(simulate(G, 8, ideal()).MakespanNs, R.SpanNs);
  // One core: the work.
  EXPECT_EQ(simulate(G, 1, ideal()).MakespanNs, R.WorkNs);
  // With the overheads, two cores: the fork on core 0 (0-5), then member 0
  // there 5-35, member 1 on core 1 5-15; the barrier releases at 35 + 0:
  // member 0 35-47 (its 2 ns at the barrier's end are execution), member 1
  // 35-65; the implicit barrier releases at 65 + 5: both end at 70; the
  // join 3 ns (70-73); then 7: 80. Overheads: each member pays the
  // release (5 + 5), the join 3.
  sim::Run O2 = simulate(G, 2, Options());
  EXPECT_EQ(O2.MakespanNs, 80u);
  EXPECT_EQ(O2.OverheadNs, 5u + 5 + 3);
  EXPECT_EQ(O2.BusyNs, R.WorkNs + O2.OverheadNs);
}

TEST(Simulate, DependencesAndUndeferred) {
  // A (20 ns) -> B (20 ns) by depend(out/in), C (30 ns) independent, D
  // undeferred (10 ns: its creator runs it at once and waits), then a
  // taskwait.
  Stream S;
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  S.create(0, 0, Init, 21, TaskExplicit | TaskHasDependences);
  S.e(0, 0, EventKind::TaskDependence, 21, 0xa0,
      std::uint16_t(DependenceType::Out));
  S.create(0, 0, Init, 22, TaskExplicit | TaskHasDependences);
  S.e(0, 0, EventKind::TaskDependence, 22, 0xa0,
      std::uint16_t(DependenceType::In));
  S.create(0, 0, Init, 23);
  S.create(0, 0, Init, 24, TaskExplicit | TaskUndeferred);
  S.run(0, 0, 10, 24, Init);
  S.sync(0, 10, 10, Init, SyncKind::Taskwait, true);
  S.run(0, 10, 30, 21, Init);
  S.run(0, 30, 50, 22, Init);
  S.run(0, 50, 80, 23, Init);
  S.sync(0, 80, 80, Init, SyncKind::Taskwait, false);
  S.e(0, 80, EventKind::ImplicitTaskEnd, Init);
  Program G;
  analysis::Result R;
  S.program(G, &R);
  EXPECT_EQ(R.WorkNs, 80u);
  // Two cores: core 0 creates A (core 1 wakes), B (waits for A), C, runs
  // D at once (0-10), waits, pops C (10-40). Core 1 steals A (0-20), which
  // releases B onto core 1's deque: B 20-40. Done at 40.
  sim::Run R2 = simulate(G, 2, ideal());
  EXPECT_EQ(R2.MakespanNs, 40u);
  EXPECT_EQ(R2.Immediate, 1u);
  // Unlimited: A and C from 0, D on core 0 at 0: A 0-20, B 20-40, C 0-30.
  EXPECT_EQ(simulate(G, 16, ideal()).MakespanNs, 40u);
}

/// A parallel region traced on one thread (requested 1, a team of 1): the
/// primary creates four undeferred tasks of 10 ns, each run at once, with
/// the flags of Flags[i] and code 0x100 + i; a taskwait; the region ends.
void teamOfOne(Stream &S, const std::uint32_t (&Flags)[4],
               std::uint32_t Requested = 1) {
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  S.e(0, 0, EventKind::ParallelBegin, Init, Par, 0, 0x500).Aux = Requested;
  Event &X = S.e(0, 0, EventKind::ImplicitTaskBegin, I0, Par, 0);
  X.Aux = 1; // the team's size
  X.Extra = TaskImplicit;
  for (unsigned I = 0; I < 4; ++I) {
    TaskId T = 31 + I;
    S.create(0, 10 * I, I0, T, Flags[I]);
    S.Ev.back().second.Code = 0x100 + I;
    S.run(0, 10 * I, 10 * I + 10, T, I0);
  }
  S.sync(0, 40, 40, I0, SyncKind::Taskwait, true);
  S.sync(0, 40, 40, I0, SyncKind::Taskwait, false);
  S.e(0, 40, EventKind::ImplicitTaskEnd, I0);
  S.e(0, 40, EventKind::ParallelEnd, Init, Par, 0, 0x500);
  S.e(0, 40, EventKind::ImplicitTaskEnd, Init);
}

TEST(Simulate, SerializedTeamOfOne) {
  constexpr std::uint32_t U = TaskExplicit | TaskUndeferred | TaskIncluded;
  Stream S;
  teamOfOne(S, {U, U, U, U});
  Program G;
  analysis::Result R;
  S.program(G, &R);
  EXPECT_EQ(R.WorkNs, 40u);
  EXPECT_EQ(G.SerializedTasks, 4u);
  for (std::size_t T = 0; T < G.tasks(); ++T) {
    if (!(G.Flags[T] & (FInitial | FImplicit))) {
      EXPECT_EQ(G.Flags[T] & (FImmediate | FSerialized),
                FImmediate | FSerialized);
    }
  }
  // One core: at once, as traced: the work.
  EXPECT_EQ(simulate(G, 1, ideal()).MakespanNs, 40u);
  // Two cores: deferred. Core 0 creates all four at 0 and waits at the
  // taskwait, running its newest; core 1 steals the oldest: 20 ns.
  sim::Run R2 = simulate(G, 2, ideal());
  EXPECT_EQ(R2.MakespanNs, 20u);
  EXPECT_EQ(R2.Immediate, 0u);
  EXPECT_EQ(simulate(G, 4, ideal()).MakespanNs, 10u);
  // Each deferred task pays the dispatch cost: 2 per core, 5 ns each.
  Options O = ideal();
  O.ScheduleNs = 5;
  EXPECT_EQ(simulate(G, 2, O).MakespanNs, 30u);
  // Kept serialized: as traced, on any number of cores.
  Options Keep = ideal();
  Keep.Deserialize = false;
  EXPECT_EQ(simulate(G, 2, Keep).MakespanNs, 40u);
  EXPECT_EQ(simulate(G, 2, Keep).Immediate, 4u);
}

TEST(Simulate, SerializedOnlyWhenDeferrable) {
  constexpr std::uint32_t U = TaskExplicit | TaskUndeferred | TaskIncluded;
  // A final task and a task of a construct with an if clause (code 0x102)
  // stay undeferred; the others are serialized.
  {
    Stream S;
    teamOfOne(S, {U, U | TaskFinal, U, U});
    std::stable_sort(S.Ev.begin(), S.Ev.end(),
                     [](const auto &A, const auto &B) {
                       return A.second.Time < B.second.Time;
                     });
    Recorder Rec;
    Rec.setIfClause([](std::uint64_t Code) { return Code == 0x102; });
    for (auto &[Th, E] : S.Ev)
      Rec.add(Th, &E, 1);
    Program G;
    std::string Error;
    ASSERT_TRUE(Rec.finish(G, Error)) << Error;
    EXPECT_EQ(G.SerializedTasks, 2u);
    // Two cores: the final task and the if(0) one run at once on core 0
    // (10 + 10), the other two are deferred beside them.
    EXPECT_EQ(simulate(G, 2, ideal()).Immediate, 2u);
  }
  // A team of one that asked for two threads (a nested region while
  // nesting is inactive): serialized on any machine.
  {
    Stream S;
    teamOfOne(S, {U, U, U, U}, 2);
    Program G;
    S.program(G);
    EXPECT_EQ(G.SerializedTasks, 0u);
    EXPECT_EQ(simulate(G, 2, ideal()).MakespanNs, 40u);
  }
  // Deferred tasks (a team of one does not report them so, but a trace
  // may hold them) are never serialized.
  {
    Stream S;
    teamOfOne(S, {TaskExplicit, TaskExplicit, TaskExplicit, TaskExplicit});
    Program G;
    S.program(G);
    EXPECT_EQ(G.SerializedTasks, 0u);
  }
}

/// Task's target region on device 0 from B to E (docs/offload.md).
void target(Stream &S, std::uint32_t Th, std::uint64_t B, std::uint64_t E,
            TaskId Task, TargetKind K = TargetKind::Target) {
  S.e(Th, B, EventKind::TargetBegin, Task, 1, std::uint16_t(K)).Aux = 0;
  S.e(Th, E, EventKind::TargetEnd, Task, 1, std::uint16_t(K)).Aux = 0;
}

TEST(Simulate, SynchronousTargetKeepsItsDuration) {
  // The initial task computes 10 ns, then a target region of 100 ns whose
  // kernel the host plugin ran as a league of two teams (threads 0 and 1,
  // 12-100) and a parallel region inside team 1; then 10 ns more. The
  // region is a Device step: no core count shortens it, the kernel's
  // threads are not host work.
  Stream S;
  S.CheckWork = false;
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  target(S, 0, 10, 110, Init);
  S.e(0, 11, EventKind::ParallelBegin, Init, 50, 1, 0x600).Aux = 2;
  for (std::uint32_t Th = 0; Th < 2; ++Th) {
    Event &X = S.e(Th, 12, EventKind::ImplicitTaskBegin, 60 + Th, 0);
    X.Aux = 2;
    X.Extra = TaskInitial;
  }
  S.e(1, 20, EventKind::ParallelBegin, 61, 51, 0, 0x700).Aux = 2;
  for (std::uint32_t Th = 1; Th < 3; ++Th) {
    Event &X = S.e(Th, 21, EventKind::ImplicitTaskBegin, 70 + Th, 51, Th - 1);
    X.Aux = 2;
    X.Extra = TaskImplicit;
    S.e(Th, 90, EventKind::ImplicitTaskEnd, 70 + Th, 51);
  }
  S.e(1, 95, EventKind::ParallelEnd, 61, 51, 0, 0x700);
  S.e(0, 100, EventKind::ImplicitTaskEnd, 60);
  S.e(1, 100, EventKind::ImplicitTaskEnd, 61);
  S.e(0, 105, EventKind::ParallelEnd, Init, 50, 1, 0x600);
  S.e(0, 120, EventKind::ImplicitTaskEnd, Init);
  Program G;
  S.program(G);
  EXPECT_EQ(G.ComputeNs, 20u); // the host's: before and after the region
  EXPECT_EQ(G.Roots.size(), 1u);
  for (unsigned P : {1u, 2u, 4u}) {
    EXPECT_EQ(simulate(G, P, ideal()).MakespanNs, 120u) << P;
    EXPECT_EQ(simulate(G, P, Options()).MakespanNs, 120u) << P;
  }
}

TEST(Simulate, NowaitTargetRunsOnItsDevice) {
  // The initial task creates a nowait target task K (depend out: x), then
  // host task A (80 ns), then B (20 ns, depend in: x), and waits. K's
  // region ran 0-100 on a helper thread. On one core A runs at once while
  // K runs on device 0; B follows K: 100-120. Two sync regions of 50 ns
  // on one device take turns.
  Stream S;
  S.CheckWork = false;
  S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  S.create(0, 0, Init, 80, TaskExplicit | TaskTarget | TaskHasDependences);
  S.e(0, 0, EventKind::TaskDependence, 80, 0xa0,
      std::uint16_t(DependenceType::Out));
  S.create(0, 0, Init, 81);
  S.create(0, 0, Init, 82, TaskExplicit | TaskHasDependences);
  S.e(0, 0, EventKind::TaskDependence, 82, 0xa0,
      std::uint16_t(DependenceType::In));
  S.sync(0, 0, 0, Init, SyncKind::Taskwait, true);
  S.e(1, 0, EventKind::TaskSchedule, 90, 80,
      std::uint16_t(ScheduleStatus::Switch));
  target(S, 1, 0, 100, 80, TargetKind::TargetNowait);
  S.e(1, 100, EventKind::TaskSchedule, 80, 90,
      std::uint16_t(ScheduleStatus::Complete));
  S.run(0, 0, 80, 81, Init);
  S.run(0, 100, 120, 82, Init);
  S.sync(0, 120, 120, Init, SyncKind::Taskwait, false);
  S.e(0, 120, EventKind::ImplicitTaskEnd, Init);
  Program G;
  S.program(G);
  EXPECT_EQ(G.ComputeNs, 100u);
  for (unsigned P : {1u, 2u, 4u})
    EXPECT_EQ(simulate(G, P, ideal()).MakespanNs, 120u) << P;

  Stream T;
  T.CheckWork = false;
  T.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
  T.e(0, 0, EventKind::ParallelBegin, Init, Par, 0, 0x500).Aux = 2;
  for (std::uint32_t Th = 0; Th < 2; ++Th) {
    Event &X = T.e(Th, 0, EventKind::ImplicitTaskBegin, Th ? I1 : I0, Par, Th);
    X.Aux = 2;
    X.Extra = TaskImplicit;
    target(T, Th, 0, 50, Th ? I1 : I0);
    T.e(Th, 50, EventKind::ImplicitTaskEnd, Th ? I1 : I0);
  }
  T.e(0, 50, EventKind::ParallelEnd, Init, Par, 0, 0x500);
  T.e(0, 50, EventKind::ImplicitTaskEnd, Init);
  Program H;
  T.program(H);
  EXPECT_EQ(simulate(H, 2, ideal()).MakespanNs, 100u);
}

TEST(Simulate, IfClauseText) {
  EXPECT_TRUE(hasIfClause("if(0)"));
  EXPECT_TRUE(hasIfClause("depend(in: a) if(task: n > 4)"));
  EXPECT_TRUE(hasIfClause("if (c)"));
  EXPECT_FALSE(hasIfClause(""));
  EXPECT_FALSE(hasIfClause("final(d > 3)"));
  EXPECT_FALSE(hasIfClause("firstprivate(diff) shared(x)"));
  EXPECT_FALSE(hasIfClause("priority(gif)"));
}

TEST(Simulate, CoreLists) {
  std::vector<unsigned> C;
  std::string E;
  ASSERT_TRUE(parseCores("1-256", C, E));
  EXPECT_EQ(C, (std::vector<unsigned>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
  ASSERT_TRUE(parseCores("8,2,2,3", C, E));
  EXPECT_EQ(C, (std::vector<unsigned>{2, 3, 8}));
  EXPECT_FALSE(parseCores("0", C, E));
  EXPECT_FALSE(parseCores("4-2", C, E));
  EXPECT_FALSE(parseCores("x", C, E));
  EXPECT_FALSE(parseCores("", C, E));
}

TEST(SimulateProperty, BoundsOnRandomPrograms) {
  unsigned Checked = 0;
  for (std::uint64_t Seed = 1; Seed <= 300; ++Seed) {
    testprog::Generator Gen(Seed);
    testprog::Program P = Gen.make();
    testprog::Simulator Sim(P, Seed * 7919);
    Sim.run();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    Program G;
    analysis::Result R;
    {
      Recorder Rec;
      analysis::Analyzer A;
      for (auto &[Th, E] : Sim.Events) {
        Rec.add(Th, &E, 1);
        A.add(Th, E);
      }
      std::string Error;
      ASSERT_TRUE(Rec.finish(G, Error));
      R = A.finish();
    }
    ASSERT_EQ(G.ComputeNs, R.WorkNs);
    unsigned Big = unsigned(G.tasks()) + 2;
    // Without overheads: the work on one core, the span on unlimited cores.
    EXPECT_EQ(simulate(G, 1, ideal()).MakespanNs, R.WorkNs);
    EXPECT_EQ(simulate(G, Big, ideal()).MakespanNs, R.SpanNs);
    for (unsigned C : {2u, 3u, 4u, 8u}) {
      std::uint64_t T = simulate(G, C, ideal()).MakespanNs;
      EXPECT_GE(double(T), std::max(double(R.WorkNs) / C, double(R.SpanNs)));
      EXPECT_LE(T, R.WorkNs);
    }
    // With the overheads measured: one core takes the work plus the
    // overheads the replay reports (fork time is work; joins and barrier
    // releases are not); never below the bounds; never below the burdened
    // span on unlimited cores when each task pays the burden.
    Options O;
    O.ScheduleNs = R.ScheduleCostNs;
    sim::Run One = simulate(G, 1, O);
    EXPECT_EQ(One.MakespanNs, R.WorkNs + One.OverheadNs);
    for (unsigned C : {2u, 4u, Big}) {
      sim::Run X = simulate(G, C, O);
      EXPECT_GE(double(X.MakespanNs),
                std::max(double(R.WorkNs) / C, double(R.SpanNs)));
      EXPECT_EQ(X.BusyNs, R.WorkNs + X.OverheadNs);
    }
    {
      analysis::Analyzer A;
      A.setBurden(double(std::llround(O.ScheduleNs)));
      for (auto &[Th, E] : Sim.Events)
        A.add(Th, E);
      analysis::Result RB = A.finish();
      EXPECT_GE(double(simulate(G, Big, O).MakespanNs), RB.burdenedSpanNs());
    }
    // The prediction: never rising with more cores, speed-up from 1.
    Prediction Pr = predict(G, R, {1, 2, 3, 4, 8, 16}, O);
    for (std::size_t I = 1; I < Pr.Points.size(); ++I)
      EXPECT_LE(Pr.Points[I].PredictedNs, Pr.Points[I - 1].PredictedNs);
    EXPECT_EQ(Pr.Points[0].Speedup, 1.0);
    ++Checked;
    if (HasFailure())
      break;
  }
  EXPECT_EQ(Checked, 300u);
}

// A team of one traced with N independent serialized tasks of random
// lengths, each run at once by the primary: on one core (or kept
// serialized) the replay takes the work; deferred on P cores without
// overheads it is a greedy list schedule of independent tasks, so within
// Graham's bound: max(work / P, longest) <= time <= work / P + longest.
TEST(SimulateProperty, SerializedTasksSpreadOnRandomTeams) {
  std::mt19937_64 Rng(1313);
  for (int Case = 0; Case < 200; ++Case) {
    unsigned N = 1 + Rng() % 40;
    Stream S;
    S.e(0, 0, EventKind::ImplicitTaskBegin, Init).Extra = TaskInitial;
    S.e(0, 0, EventKind::ParallelBegin, Init, Par, 0, 0x500).Aux = 1;
    Event &X = S.e(0, 0, EventKind::ImplicitTaskBegin, I0, Par, 0);
    X.Aux = 1;
    X.Extra = TaskImplicit;
    std::uint64_t T = 0, Longest = 0;
    for (unsigned I = 0; I < N; ++I) {
      std::uint64_t Len = 1 + Rng() % 1000;
      Longest = std::max(Longest, Len);
      S.create(0, T, I0, 100 + I, TaskExplicit | TaskUndeferred | TaskIncluded);
      S.run(0, T, T + Len, 100 + I, I0);
      T += Len;
    }
    S.sync(0, T, T, I0, SyncKind::Taskwait, true);
    S.sync(0, T, T, I0, SyncKind::Taskwait, false);
    S.e(0, T, EventKind::ImplicitTaskEnd, I0);
    S.e(0, T, EventKind::ParallelEnd, Init, Par, 0, 0x500);
    S.e(0, T, EventKind::ImplicitTaskEnd, Init);
    Program G;
    analysis::Result R;
    S.program(G, &R);
    ASSERT_EQ(G.SerializedTasks, N);
    ASSERT_EQ(R.WorkNs, T);
    EXPECT_EQ(simulate(G, 1, ideal()).MakespanNs, T);
    Options Keep = ideal();
    Keep.Deserialize = false;
    for (unsigned P : {2u, 3u, 8u}) {
      EXPECT_EQ(simulate(G, P, Keep).MakespanNs, T);
      std::uint64_t M = simulate(G, P, ideal()).MakespanNs;
      EXPECT_GE(double(M), std::max(double(T) / P, double(Longest)));
      EXPECT_LE(double(M), double(T) / P + double(Longest));
    }
  }
}
