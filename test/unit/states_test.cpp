//===- states_test.cpp - The per-thread state timeline -------------------===//
//
// The state timeline (utils/otter/states.h) on synthetic event streams:
//  - by hand: a task waiting in its own taskwait is waiting (not running)
//    while no child runs on its thread, running a child there is the
//    child's, a worker in the implicit barrier is waiting, a lock
//    acquisition is waiting for the lock, time with no task is idle;
//  - the property, on random programs with random schedules
//    (random_programs.h): per thread the intervals are adjacent and cover
//    its first to last event, running + waiting + scheduling + idle + tool
//    = that wall time (some with a recording cost taken out as tool), the totals are the analysis' own per thread (busy,
//    wait, idle), running over all threads is the work, and the waiting
//    per construct kind is what `otter summary` reports per construct
//    (ConstructStats::WaitNs summed by kind);
//  - OTTER's own time (flushes, the recording cost) is tool, in no task's
//    execution or construct's waiting;
//  - the report's timeline (report_timeline.h) sums the same intervals;
//  - the Perfetto export has them on a state track per thread.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "otter/mpi.h"
#include "export.h"
#include "random_programs.h"
#include "report.h"
#include "report_timeline.h"
#include "state_timeline.h"
#include "test_streams.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

using namespace otter;
using namespace otter::analysis;

namespace {

constexpr TaskId Init = 1, Par = 2, I0 = 3, I1 = 4;

struct Stream {
  std::vector<std::pair<std::uint32_t, Event>> Ev;
  void at(std::uint32_t Th, std::uint64_t T, Event E) {
    E.Time = T;
    Ev.push_back({Th, E});
  }
  void sync(std::uint32_t Th, std::uint64_t B, std::uint64_t WB,
            std::uint64_t WE, std::uint64_t End, TaskId Task, SyncKind K,
            std::uint64_t Code) {
    at(Th, B, Event::syncBegin(0, Task, Par, K, Code));
    at(Th, WB, Event::syncWaitBegin(0, Task, Par, K, Code));
    at(Th, WE, Event::syncWaitEnd(0, Task, Par, K, Code));
    at(Th, End, Event::syncEnd(0, Task, Par, K, Code));
  }
  void sched(std::uint32_t Th, std::uint64_t T, TaskId Prior, TaskId Next,
             bool Complete) {
    at(Th, T,
       Event::taskSchedule(
           0, Prior,
           Complete ? ScheduleStatus::Complete : ScheduleStatus::Switch, Next));
  }
  Result run(Observer &O, std::uint64_t RecordingCostNs = 0) {
    std::stable_sort(Ev.begin(), Ev.end(), [](const auto &A, const auto &B) {
      return A.second.Time < B.second.Time;
    });
    Analyzer A;
    A.setObserver(&O);
    A.setRecordingCost(RecordingCostNs);
    for (auto &[Th, E] : Ev)
      A.add(Th, E);
    return A.finish();
  }
};

/// A team of two: thread 0 creates tasks 11 and 12 and waits for them in a
/// taskwait (running 12 there from 40 to 140, waiting otherwise); thread 1
/// runs 11 in the implicit barrier, where 11 waits 40 ns to enter a
/// critical section.
Stream quicksortLike() {
  Stream S;
  S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  S.at(0, 10, Event::parallelBegin(0, Init, Par, 2, 0, 0x500));
  S.at(0, 20, Event::implicitTaskBegin(0, I0, Par, 2, 0, TaskImplicit));
  S.at(1, 22, Event::implicitTaskBegin(0, I1, Par, 2, 1, TaskImplicit));
  S.at(0, 30, Event::taskCreate(0, I0, 11, TaskExplicit, 0x100));
  S.at(0, 31, Event::taskCreate(0, I0, 12, TaskExplicit, 0x100));
  S.at(0, 32, Event::syncBegin(0, I0, Par, SyncKind::Taskwait, 0x200));
  S.at(0, 32, Event::syncWaitBegin(0, I0, Par, SyncKind::Taskwait, 0x200));
  S.sched(0, 40, I0, 12, false);
  S.sched(0, 140, 12, I0, true);
  S.at(0, 150, Event::syncWaitEnd(0, I0, Par, SyncKind::Taskwait, 0x200));
  S.at(0, 151, Event::syncEnd(0, I0, Par, SyncKind::Taskwait, 0x200));
  S.at(0, 152, Event::mutexAcquire(0, I0, MutexKind::Critical, 7, 0x600));
  S.at(0, 153, Event::mutexAcquired(0, I0, MutexKind::Critical, 7, 0x600));
  S.at(0, 170, Event::mutexReleased(0, I0, MutexKind::Critical, 7, 0x600));
  S.sync(0, 171, 171, 180, 181, I0, SyncKind::BarrierImplicitParallel, 0x500);
  S.at(0, 182, Event::implicitTaskEnd(0, I0));
  S.sync(1, 25, 25, 180, 181, I1, SyncKind::BarrierImplicitParallel, 0x500);
  S.sched(1, 50, I1, 11, false);
  S.at(1, 60, Event::mutexAcquire(0, 11, MutexKind::Critical, 7, 0x600));
  S.at(1, 100, Event::mutexAcquired(0, 11, MutexKind::Critical, 7, 0x600));
  S.at(1, 110, Event::mutexReleased(0, 11, MutexKind::Critical, 7, 0x600));
  S.sched(1, 150, 11, I1, true);
  S.at(1, 182, Event::implicitTaskEnd(0, I1));
  S.at(0, 190, Event::parallelEnd(0, Init, Par, 0x500));
  S.at(0, 200, Event::implicitTaskEnd(0, Init));
  return S;
}

std::string row(const StateInterval &I) {
  std::string S = std::to_string(I.Start) + "-" + std::to_string(I.End) + " " +
                  stateName(I.State);
  if (I.State == ThreadState::Waiting)
    S += std::string(" ") + kindName(I.Construct);
  if (I.Task)
    S += " task " + std::to_string(I.Task);
  return S;
}

std::vector<std::string> rows(const std::vector<StateInterval> &V) {
  std::vector<std::string> Out;
  for (const StateInterval &I : V)
    Out.push_back(row(I));
  return Out;
}

/// The property for one analysis and its timeline.
void checkTimeline(const Result &R, const StateTimeline &T) {
  std::map<Kind, std::uint64_t> Summary, Timeline;
  for (const ConstructStats &C : R.Constructs)
    if (C.WaitNs)
      Summary[C.K] += C.WaitNs;
  std::uint64_t Running = 0;
  ASSERT_LE(T.threads().size(), R.PerThread.size());
  for (std::size_t Th = 0; Th < R.PerThread.size(); ++Th) {
    SCOPED_TRACE("thread " + std::to_string(Th));
    const ThreadTime &P = R.PerThread[Th];
    if (!P.Seen)
      continue;
    const std::vector<StateInterval> &V = Th < T.threads().size()
                                              ? T.threads()[Th]
                                              : std::vector<StateInterval>{};
    // Adjacent, non-empty, from the thread's first event to its last.
    for (std::size_t I = 0; I < V.size(); ++I) {
      EXPECT_LT(V[I].Start, V[I].End);
      if (I) {
        EXPECT_EQ(V[I - 1].End, V[I].Start);
      }
    }
    StateTotals S = sumStates(V);
    if (!V.empty()) {
      EXPECT_EQ(S.First, P.First);
      EXPECT_EQ(S.Last, P.Last);
    }
    EXPECT_EQ(S.sumNs(), P.Last - P.First);
    EXPECT_EQ(S.ns(ThreadState::Running), P.BusyNs);
    EXPECT_EQ(S.ns(ThreadState::Waiting), P.WaitNs);
    EXPECT_EQ(S.ns(ThreadState::Idle), P.IdleNs);
    EXPECT_EQ(S.ns(ThreadState::Tool), P.ToolNs);
    Running += S.ns(ThreadState::Running);
    for (const auto &[K, Ns] : S.WaitingBy)
      Timeline[K] += Ns;
  }
  EXPECT_EQ(Running, R.WorkNs);
  EXPECT_EQ(Timeline, Summary);
}

} // namespace

TEST(States, TaskWaitingInItsTaskwaitIsWaiting) {
  Stream S = quicksortLike();
  StateTimeline T;
  Result R = S.run(T);
  ASSERT_EQ(T.threads().size(), 2u);
  EXPECT_EQ(rows(T.threads()[0]), (std::vector<std::string>{
                                      "0-20 running task 1",
                                      "20-32 running task 3",
                                      "32-40 waiting taskwait task 3",
                                      "40-140 running task 12",
                                      "140-150 waiting taskwait task 3",
                                      "150-152 running task 3",
                                      "152-153 waiting critical task 3",
                                      "153-171 running task 3",
                                      "171-180 waiting barrier_implicit task 3",
                                      "180-182 running task 3",
                                      "182-190 idle",
                                      "190-200 running task 1",
                                  }));
  EXPECT_EQ(rows(T.threads()[1]), (std::vector<std::string>{
                                      "22-25 running task 4",
                                      "25-50 waiting barrier_implicit task 4",
                                      "50-60 running task 11",
                                      "60-100 waiting critical task 11",
                                      "100-150 running task 11",
                                      "150-180 waiting barrier_implicit task 4",
                                      "180-182 running task 4",
                                  }));
  checkTimeline(R, T);
}

// OTTER's own time (docs/utils.md, "OTTER's own time"): a flush inside a
// task (tool_begin..tool_end) is tool, all of it; with a recording cost of
// 2 ns, each interval of at most 40 ns (the cost at least 5 % of it) starts
// with 2 ns of tool; longer ones keep all their time. No task's execution
// and no construct's waiting includes either.
TEST(States, OttersOwnTimeIsTool) {
  Stream S = quicksortLike();
  S.at(1, 120, Event::toolBegin(0, ToolWork::Flush));
  S.at(1, 130, Event::toolEnd(0, ToolWork::Flush));
  StateTimeline T;
  Result R = S.run(T, /*RecordingCostNs=*/2);
  EXPECT_EQ(rows(T.threads()[1]), (std::vector<std::string>{
                                      "22-24 tool",
                                      "24-25 running task 4",
                                      "25-27 tool",
                                      "27-50 waiting barrier_implicit task 4",
                                      "50-52 tool",
                                      "52-60 running task 11",
                                      "60-62 tool",
                                      "62-100 waiting critical task 11",
                                      "100-102 tool",
                                      "102-110 running task 11",
                                      "110-112 tool",
                                      "112-120 running task 11",
                                      "120-132 tool",
                                      "132-150 running task 11",
                                      "150-152 tool",
                                      "152-180 waiting barrier_implicit task 4",
                                      "180-182 tool",
                                  }));
  checkTimeline(R, T);
  EXPECT_EQ(R.ToolFlushNs, 10u);
  EXPECT_EQ(R.RecordingCostNs, 2u);
  EXPECT_EQ(R.ToolNs, R.ToolFlushNs + R.RecordingNs);
  std::uint64_t Tool = 0;
  for (const ThreadTime &P : R.PerThread)
    Tool += P.ToolNs;
  EXPECT_EQ(Tool, R.ToolNs);
  // Task 11 ran 8 + 8 + 8 + 18 ns of its own; task 12 (same construct)
  // 100 ns, an interval too long for the cost to be taken out.
  for (const ConstructStats &C : R.Constructs)
    if (C.K == Kind::Task) {
      EXPECT_EQ(C.TotalNs, 8u + 8 + 8 + 18 + 100);
    }
}

// Waiting or descheduled (docs/utils.md): thread 1 is sampled at 22, 100
// and 182. In 22..100 it used 30 ns of CPU: 48 ns off it, of which its
// waiting (25..50 in the barrier, 60..100 for the critical section) explains
// 65: nothing taken away. In 100..182 it used 10 ns: 72 off, waiting
// 150..180 explains 30, so at least 42 ns of running time went to the OS.
TEST(States, DescheduledIsRunningTimeOffTheCpuBeyondWaits) {
  Stream S = quicksortLike();
  S.at(1, 22, Event::threadCpu(0, 1000, 3, 0, 4));
  S.at(1, 100, Event::threadCpu(0, 1030, 5, 1, 4));
  S.at(1, 182, Event::threadCpu(0, 1040, 9, 1, 2));
  StateTimeline T;
  Result R = S.run(T);
  checkTimeline(R, T);
  EXPECT_EQ(R.CpuWindowNs, 160u);
  EXPECT_EQ(R.CpuUsedNs, 40u);
  EXPECT_EQ(R.DescheduledNs, 42u);
  EXPECT_EQ(R.InvoluntarySwitches, 6u);
  EXPECT_EQ(R.Cpus, 2u);
  // 42 ns of 229 ns running (both threads): over 5 %, flagged.
  std::vector<Finding> F;
  EXPECT_TRUE(addDescheduled(R, F));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check, "descheduled");
  EXPECT_EQ(F[0].LostNs, 42u);
  // Under 5 % of the running time: not flagged.
  R.DescheduledNs = R.BusyNs / 25;
  F.clear();
  EXPECT_FALSE(addDescheduled(R, F));
}

/// Region Par (code 0x500) on threads 0 and 1, 10-100: its worker waits
/// in the implicit barrier from 60 until the next region's fork releases
/// it at 300 (libomp's hot team).
static void firstOfTwoRegions(Stream &S) {
  S.at(0, 10, Event::parallelBegin(0, Init, Par, 2, 0, 0x500));
  S.at(0, 20, Event::implicitTaskBegin(0, I0, Par, 2, 0, TaskImplicit));
  S.at(1, 22, Event::implicitTaskBegin(0, I1, Par, 2, 1, TaskImplicit));
  S.sync(1, 60, 60, 300, 301, I1, SyncKind::BarrierImplicitParallel, 0x500);
  S.sync(0, 80, 80, 90, 91, I0, SyncKind::BarrierImplicitParallel, 0x500);
  S.at(0, 95, Event::implicitTaskEnd(0, I0));
  S.at(0, 100, Event::parallelEnd(0, Init, Par, 0x500));
}

/// The next region, Par2 (0x800), forked at 290, ended at 340.
static void secondOfTwoRegions(Stream &S) {
  constexpr TaskId Par2 = 5, I2 = 6, I3 = 7;
  S.at(0, 290, Event::parallelBegin(0, Init, Par2, 2, 0, 0x800));
  S.at(1, 302, Event::implicitTaskEnd(0, I1));
  S.at(0, 305, Event::implicitTaskBegin(0, I2, Par2, 2, 0, TaskImplicit));
  S.at(1, 306, Event::implicitTaskBegin(0, I3, Par2, 2, 1, TaskImplicit));
  S.sync(0, 320, 320, 330, 331, I2, SyncKind::BarrierImplicitParallel, 0x800);
  S.sync(1, 320, 320, 330, 331, I3, SyncKind::BarrierImplicitParallel, 0x800);
  S.at(0, 332, Event::implicitTaskEnd(0, I2));
  S.at(1, 332, Event::implicitTaskEnd(0, I3));
  S.at(0, 340, Event::parallelEnd(0, Init, Par2, 0x800));
}

/// Scalasca's OpenMP idle threads: region Par (code 0x500) ends at 100
/// while its worker stays in the implicit barrier (libomp's hot team) until
/// the next region's fork at 290 releases it at 300. Meanwhile the primary
/// thread runs serial code (100-150, 250-290) and an MPI_Allreduce at 0x700
/// (150-250). The worker's barrier wait is waiting only until the region's
/// end (60-100), idle after it (100-300), and so is its time between its
/// implicit tasks (302-306), all blamed on what the primary did: from the
/// fork at 290 on, starting the next region.
TEST(States, IdleThreadsAreBlamedOnThePrimaryThread) {
  Stream S;
  S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  firstOfTwoRegions(S);
  S.at(0, 150,
       Event::mpiCallBegin(0, Init, mpi::Function::Allreduce, 0x700));
  S.at(0, 250, Event::mpiCallEnd(0, Init, mpi::Function::Allreduce, 0x700, 0));
  secondOfTwoRegions(S);
  S.at(0, 350, Event::implicitTaskEnd(0, Init));
  StateTimeline T;
  Result R = S.run(T);
  checkTimeline(R, T);
  EXPECT_EQ(R.IdleThreadsNs, 204u);
  // The barrier's waiting: the worker's 40 ns before the end, the
  // primary's 10 ns, the second region's 20 ns; not the idle 200 ns.
  std::uint64_t BarrierWait = 0;
  for (const ConstructStats &C : R.Constructs)
    if (C.K == Kind::ImplicitBarrier)
      BarrierWait += C.WaitNs;
  EXPECT_EQ(BarrierWait, 70u);
  ASSERT_EQ(R.IdleCauses.size(), 3u);
  EXPECT_EQ(R.IdleCauses[0].State, ThreadState::Waiting);
  EXPECT_EQ(R.IdleCauses[0].K, Kind::Mpi);
  EXPECT_EQ(R.IdleCauses[0].Code, 0x700u);
  EXPECT_EQ(R.IdleCauses[0].After, 0x500u);
  EXPECT_EQ(R.IdleCauses[0].Ns, 100u);
  EXPECT_EQ(R.IdleCauses[1].State, ThreadState::Running);
  EXPECT_EQ(R.IdleCauses[1].K, Kind::Initial);
  EXPECT_EQ(R.IdleCauses[1].Ns, 90u);
  EXPECT_EQ(R.IdleCauses[2].K, Kind::Parallel);
  EXPECT_EQ(R.IdleCauses[2].Code, 0x800u);
  EXPECT_EQ(R.IdleCauses[2].Ns, 14u);
  // The timeline: the worker waits 60-100, is idle 100-300.
  ASSERT_EQ(T.threads().size(), 2u);
  const std::vector<std::string> Worker = rows(T.threads()[1]);
  EXPECT_NE(std::find(Worker.begin(), Worker.end(),
                      "60-100 waiting barrier_implicit task 4"),
            Worker.end());
  EXPECT_NE(std::find(Worker.begin(), Worker.end(), "100-300 idle"),
            Worker.end());
  // The finding names the MPI call and says what to change.
  std::vector<Finding> F;
  EXPECT_TRUE(addIdleThreads(R, testutil::labelOf, F));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check, "idle_threads");
  EXPECT_EQ(F[0].LostNs, 204u);
  EXPECT_NE(F[0].Evidence.find("in MPI_Allreduce at"), std::string::npos)
      << F[0].Evidence;
  EXPECT_NE(F[0].Evidence.find("Overlap the MPI call"), std::string::npos);
}

/// The same two regions as a kernel's teams (host offload: the host plugin
/// runs a target region's kernel as parallel regions, on the thread in the
/// target construct): the worker's wait between them is the device's, no
/// OpenMP idle threads of the program, and the regions and their barriers
/// are device work, which diagnose leaves alone (with a GPU these threads
/// do not exist). The same regions outside the target construct are idle.
TEST(States, KernelTeamsAreDeviceWorkNotIdleThreads) {
  for (bool InTarget : {true, false}) {
    SCOPED_TRACE(InTarget ? "in a target construct" : "host regions");
    Stream S;
    S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
    if (InTarget)
      S.at(0, 5,
           Event::targetBegin(0, Init, TargetKind::Target, 1, 0, 0x900));
    firstOfTwoRegions(S);
    secondOfTwoRegions(S);
    if (InTarget)
      S.at(0, 345, Event::targetEnd(0, Init, TargetKind::Target, 1, 0, 0x900));
    S.at(0, 350, Event::implicitTaskEnd(0, Init));
    StateTimeline T;
    Result R = S.run(T);
    checkTimeline(R, T);
    EXPECT_EQ(R.IdleThreadsNs, InTarget ? 0u : 204u);
    EXPECT_EQ(R.IdleCauses.empty(), InTarget);
    std::size_t Device = 0, Kernel = 0;
    for (const ConstructStats &C : R.Constructs) {
      if (C.Code == 0x500 || C.Code == 0x800) {
        ++Kernel;
        Device += C.Device;
      } else {
        EXPECT_FALSE(C.Device) << kindName(C.K) << " " << C.Code;
      }
    }
    EXPECT_GE(Kernel, 4u); // each region, its barrier, its implicit tasks
    EXPECT_EQ(Device, InTarget ? Kernel : 0u);
    for (const Finding &F : diagnose(R, testutil::labelOf, {}))
      EXPECT_TRUE(!InTarget || F.Check == "target_wait" ||
                  F.Check == "descheduled")
          << F.Check << " " << F.Where;
  }
}

TEST(States, CsvRowsAndLabels) {
  Stream S = quicksortLike();
  S.at(1, 55, Event::taskLabel(0, 11, 0));
  StateTimeline T;
  S.run(T);
  std::ostringstream OS;
  T.writeCsv(OS, testutil::labelOf, {"left"});
  std::string Csv = OS.str();
  EXPECT_EQ(Csv.substr(0, Csv.find('\n')),
            "thread,start_ns,end_ns,state,construct,region_id,task,label");
  EXPECT_NE(Csv.find("\n0,32,40,waiting,taskwait,512,3,~c+1280\n"),
            std::string::npos)
      << Csv;
  EXPECT_NE(Csv.find("\n0,182,190,idle,,,,\n"), std::string::npos) << Csv;
  EXPECT_NE(Csv.find("\n1,60,100,waiting,critical,1536,11,~c+256 [left]\n"),
            std::string::npos)
      << Csv;
  EXPECT_NE(Csv.find("\n0,0,20,running,initial_task,0,1,(program)\n"),
            std::string::npos)
      << Csv;
}

TEST(States, PropertyOnRandomPrograms) {
  for (std::uint64_t Seed = 1; Seed <= 300; ++Seed) {
    testprog::Generator Gen(Seed);
    testprog::Program P = Gen.make();
    testprog::Simulator Sim(P, Seed * 7919);
    Sim.run();
    StateTimeline T;
    Analyzer A;
    A.setObserver(&T);
    // Every third program with a recording cost taken out (tool time).
    A.setRecordingCost(Seed % 3 ? 0 : Seed % 17 + 1);
    for (auto &[Th, E] : Sim.Events)
      A.add(Th, E);
    Result R = A.finish();
    SCOPED_TRACE("seed " + std::to_string(Seed));
    checkTimeline(R, T);
    EXPECT_EQ(R.ToolNs, R.RecordingNs + R.ToolFlushNs);
  }
}

TEST(States, ReportTimelineSumsTheSameIntervals) {
  Stream S = quicksortLike();
  html::Timeline Bins(0, 208, 16); // bins of 13 ns
  StateTimeline T;
  TeeObserver Both(Bins, T);
  Bins.setOrigin(0);
  Result R = S.run(Both);
  Bins.finish(R.runNs());
  ASSERT_EQ(Bins.totals().size(), 2u);
  for (std::size_t Th = 0; Th < 2; ++Th) {
    StateTotals X = sumStates(T.threads()[Th]);
    EXPECT_EQ(Bins.totals()[Th].Ns, X.Ns);
    EXPECT_EQ(Bins.totals()[Th].WaitingBy, X.WaitingBy);
  }
  std::ostringstream OS;
  html::writeTimelineJson(Bins, OS);
  // Thread 1 waits in the barrier and for the critical section in some
  // bins: drawn as waiting ('w', 'l'), not as its task running.
  std::string J = OS.str();
  EXPECT_NE(J.find("\"waiting_ns\":95"), std::string::npos) << J;
  std::size_t B = J.find("\"bins\":\"", J.find("\"thread\":1"));
  ASSERT_NE(B, std::string::npos);
  std::string Bins1 = J.substr(B + 8, J.find('"', B + 8) - B - 8);
  EXPECT_NE(Bins1.find('w'), std::string::npos) << Bins1;
  EXPECT_NE(Bins1.find('l'), std::string::npos) << Bins1;
}

TEST(States, PerfettoStateTracks) {
  Stream S = quicksortLike();
  std::ostringstream OS;
  {
    PerfettoWriter W(OS, testutil::labelOf);
    Result R = S.run(W);
    W.finish(R.Threads);
  }
  std::string J = OS.str();
  // Thread 0 waits in its taskwait 32..40 (0.032 us, 8 ns) on its state
  // track; thread 1 for the critical section 60..100.
  EXPECT_NE(J.find("{\"name\":\"waiting taskwait\",\"cat\":\"state\","
                   "\"ph\":\"X\",\"ts\":0.032,\"dur\":0.008,\"pid\":1,"
                   "\"tid\":1048576}"),
            std::string::npos)
      << J;
  EXPECT_NE(J.find("{\"name\":\"waiting critical\",\"cat\":\"state\","
                   "\"ph\":\"X\",\"ts\":0.060,\"dur\":0.040,\"pid\":1,"
                   "\"tid\":1048577}"),
            std::string::npos)
      << J;
  EXPECT_NE(J.find("\"name\":\"idle\",\"cat\":\"state\""), std::string::npos);
  EXPECT_EQ(J.find("\"name\":\"running"), std::string::npos);
  EXPECT_NE(J.find("\"tid\":1048577,\"args\":{\"name\":\"OpenMP thread 1 "
                   "state\"}}"),
            std::string::npos)
      << J;
}
