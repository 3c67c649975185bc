//===- analysis_span_test.cpp - work, span and critical path, synthetic ---===//
//
// Hand-made event streams whose work, span and critical path are computed
// by hand in the comments (all times in ns).
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "export.h"
#include "report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>

using namespace otter;
using namespace otter::analysis;

namespace {

constexpr TaskId Init = 1, Par = 2, I0 = 3, I1 = 4;

struct Stream {
  std::vector<std::pair<std::uint32_t, Event>> Ev;
  /// E (from its kind's constructor) on thread Th at time T.
  void at(std::uint32_t Th, std::uint64_t T, Event E) {
    E.Time = T;
    Ev.push_back({Th, E});
  }
  void initialBegin(std::uint64_t T) {
    at(0, T, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  }
  void parallel(std::uint64_t TBegin, std::uint64_t TMembers, unsigned Size) {
    at(0, TBegin, Event::parallelBegin(0, Init, Par, Size, 0, 0x500));
    for (unsigned I = 0; I < Size; ++I)
      at(I, TMembers,
         Event::implicitTaskBegin(0, I == 0 ? I0 : I1, Par, Size,
                                  std::uint16_t(I), TaskImplicit));
  }
  void parallelEnd(std::uint64_t T) {
    at(0, T, Event::parallelEnd(0, Init, Par, 0x500));
  }
  void implicitEnd(std::uint32_t Th, std::uint64_t T, TaskId Task) {
    at(Th, T, Event::implicitTaskEnd(0, Task));
  }
  void create(std::uint32_t Th, std::uint64_t T, TaskId Creator, TaskId Child,
              std::uint64_t Code) {
    at(Th, T, Event::taskCreate(0, Creator, Child, TaskExplicit, Code));
  }
  void dep(std::uint32_t Th, std::uint64_t T, TaskId Child, std::uint64_t Addr,
           DependenceType D) {
    at(Th, T, Event::taskDependence(0, Child, Addr, D));
  }
  void sched(std::uint32_t Th, std::uint64_t T, TaskId Prior, TaskId Next,
             bool Complete) {
    at(Th, T,
       Event::taskSchedule(
           0, Prior,
           Complete ? ScheduleStatus::Complete : ScheduleStatus::Switch, Next));
  }
  // A sync region's begin and end, its wait's begin and end.
  void syncBegin(std::uint32_t Th, std::uint64_t T, TaskId Task, SyncKind K,
                 std::uint64_t Code = 0, ParallelId P = Par) {
    at(Th, T, Event::syncBegin(0, Task, P, K, Code));
  }
  void syncEnd(std::uint32_t Th, std::uint64_t T, TaskId Task, SyncKind K,
               std::uint64_t Code = 0, ParallelId P = Par) {
    at(Th, T, Event::syncEnd(0, Task, P, K, Code));
  }
  void waitBegin(std::uint32_t Th, std::uint64_t T, TaskId Task, SyncKind K,
                 std::uint64_t Code = 0) {
    at(Th, T, Event::syncWaitBegin(0, Task, Par, K, Code));
  }
  void waitEnd(std::uint32_t Th, std::uint64_t T, TaskId Task, SyncKind K,
               std::uint64_t Code = 0) {
    at(Th, T, Event::syncWaitEnd(0, Task, Par, K, Code));
  }
  void sync(std::uint32_t Th, std::uint64_t B, std::uint64_t WB,
            std::uint64_t WE, std::uint64_t End, TaskId Task, SyncKind K,
            std::uint64_t Code) {
    syncBegin(Th, B, Task, K, Code);
    waitBegin(Th, WB, Task, K, Code);
    waitEnd(Th, WE, Task, K, Code);
    syncEnd(Th, End, Task, K, Code);
  }
  Result run(Observer *O = nullptr) {
    std::stable_sort(Ev.begin(), Ev.end(), [](const auto &A, const auto &B) {
      return A.second.Time < B.second.Time;
    });
    Analyzer A;
    A.setObserver(O);
    for (auto &[Th, E] : Ev)
      A.add(Th, E);
    return A.finish();
  }
};

/// Three independent 100 ns tasks in a team of two.
Stream independent() {
  Stream S;
  S.initialBegin(0);
  S.parallel(10, 20, 2);
  S.create(0, 30, I0, 11, 0x100);
  S.create(0, 31, I0, 12, 0x100);
  S.create(0, 32, I0, 13, 0x100);
  S.syncBegin(0, 33, I0, SyncKind::Taskwait, 0x200);
  S.waitBegin(0, 33, I0, SyncKind::Taskwait, 0x200);
  S.sched(0, 35, I0, 12, false);
  S.sched(0, 135, 12, I0, true);
  S.waitEnd(0, 242, I0, SyncKind::Taskwait, 0x200);
  S.syncEnd(0, 243, I0, SyncKind::Taskwait, 0x200);
  S.sync(0, 244, 244, 250, 251, I0, SyncKind::BarrierImplicitParallel, 0x500);
  S.implicitEnd(0, 252, I0);
  // thread 1: waits in the barrier and runs tasks 11 and 13 there
  S.syncBegin(1, 25, I1, SyncKind::BarrierImplicitParallel);
  S.waitBegin(1, 25, I1, SyncKind::BarrierImplicitParallel);
  S.sched(1, 40, I1, 11, false);
  S.sched(1, 140, 11, I1, true);
  S.sched(1, 141, I1, 13, false);
  S.sched(1, 241, 13, I1, true);
  S.waitEnd(1, 250, I1, SyncKind::BarrierImplicitParallel);
  S.syncEnd(1, 251, I1, SyncKind::BarrierImplicitParallel);
  S.implicitEnd(1, 252, I1);
  S.parallelEnd(253);
  S.implicitEnd(0, 260, Init);
  return S;
}

TEST(AnalysisSpan, IndependentTasks) {
  Result R = independent().run();
  // Work: tasks 3 x 100; initial 0-20 + 253-260 = 27; I0: 20-33 (13) +
  // 242-244 (2) + 250-252 (2) = 17; I1: 20-25 (5) + 250-252 (2) = 7.
  EXPECT_EQ(R.WorkNs, 300u + 27 + 17 + 7);
  // Span: the members start from the fork, the initial task's path at 10
  // (what it runs from 10 to 20, starting the team, is its own execution,
  // in parallel with the members); I0 reaches task 13's creation at 10 + 12
  // = 22; task 13 ends at 122; I0 continues 1 (to the barrier) ... ends at
  // 125, the join; the initial task (at 20 on its own) continues from 125
  // and adds 7: 132.
  EXPECT_EQ(R.SpanNs, 132u);
  EXPECT_EQ(R.ExplicitTasks, 3u);
  EXPECT_EQ(R.Threads, 2u);
  ASSERT_EQ(R.CriticalPath.size(), 5u);
  EXPECT_EQ(R.CriticalPath[0].K, Kind::Initial);
  EXPECT_EQ(R.CriticalPath[0].Ns, 10u);
  EXPECT_EQ(R.CriticalPath[1].K, Kind::Implicit);
  EXPECT_EQ(R.CriticalPath[1].Ns, 12u);
  EXPECT_EQ(R.CriticalPath[2].K, Kind::Task);
  EXPECT_EQ(R.CriticalPath[2].Code, 0x100u);
  EXPECT_EQ(R.CriticalPath[2].Ns, 100u);
  EXPECT_EQ(R.CriticalPath[3].Ns, 3u);
  EXPECT_EQ(R.CriticalPath[4].Ns, 7u);
  EXPECT_EQ(R.PathTasks, 1u);
  // The region: fork at path 10, join at 125; the initial task's 10 ns
  // from the fork to its members' start are the region's fork time.
  auto It = std::find_if(R.Constructs.begin(), R.Constructs.end(),
                         [](const ConstructStats &C) {
                           return C.K == Kind::Parallel;
                         });
  ASSERT_NE(It, R.Constructs.end());
  EXPECT_EQ(It->RegionSpanNs, 115u);
  EXPECT_EQ(It->RegionWorkNs, 300u + 17 + 7);
  EXPECT_EQ(It->RegionForkNs, 10u);
}

/// Diamond of dependences A -> {B, C} -> D; B is the long branch.
TEST(AnalysisSpan, DiamondDependences) {
  Stream S;
  S.initialBegin(0);
  S.parallel(10, 20, 2);
  S.create(0, 30, I0, 11, 0xA);
  S.dep(0, 30, 11, 1, DependenceType::Out);
  S.create(0, 31, I0, 12, 0xB);
  S.dep(0, 31, 12, 1, DependenceType::In);
  S.dep(0, 31, 12, 2, DependenceType::Out);
  S.create(0, 32, I0, 13, 0xC);
  S.dep(0, 32, 13, 1, DependenceType::In);
  S.dep(0, 32, 13, 3, DependenceType::Out);
  S.create(0, 33, I0, 14, 0xD);
  S.dep(0, 33, 14, 2, DependenceType::In);
  S.dep(0, 33, 14, 3, DependenceType::In);
  S.syncBegin(0, 34, I0, SyncKind::Taskwait);
  S.waitBegin(0, 34, I0, SyncKind::Taskwait);
  S.sched(0, 35, I0, 11, false);
  S.sched(0, 45, 11, I0, true);
  S.sched(0, 46, I0, 12, false);
  S.sched(0, 96, 12, I0, true);
  S.sched(0, 97, I0, 14, false);
  S.sched(0, 107, 14, I0, true);
  S.waitEnd(0, 108, I0, SyncKind::Taskwait);
  S.syncEnd(0, 108, I0, SyncKind::Taskwait);
  S.implicitEnd(0, 108, I0);
  S.syncBegin(1, 25, I1, SyncKind::BarrierImplicitParallel);
  S.waitBegin(1, 25, I1, SyncKind::BarrierImplicitParallel);
  S.sched(1, 46, I1, 13, false);
  S.sched(1, 66, 13, I1, true);
  S.waitEnd(1, 108, I1, SyncKind::BarrierImplicitParallel);
  S.syncEnd(1, 108, I1, SyncKind::BarrierImplicitParallel);
  S.implicitEnd(1, 108, I1);
  S.parallelEnd(110);
  S.implicitEnd(0, 110, Init);
  Result R = S.run();
  // Path: members start from the fork at 10; A created at 20 (I0 ran 10
  // ns), ends 30; B ends 80; D ends 90; I0 resumes at 90 (no own time
  // after), the initial task adds nothing.
  EXPECT_EQ(R.SpanNs, 90u);
  std::vector<std::uint64_t> Codes;
  for (const PathStep &P : R.CriticalPath)
    if (P.K == Kind::Task)
      Codes.push_back(P.Code);
  EXPECT_EQ(Codes, (std::vector<std::uint64_t>{0xA, 0xB, 0xD}));
  EXPECT_EQ(R.PathTasks, 3u);
  EXPECT_EQ(R.ExplicitTasks, 4u);
}

/// A chain of tasks linked by inout dependences: span = work of the chain.
TEST(AnalysisSpan, ChainIsSerial) {
  Stream S;
  S.initialBegin(0);
  std::uint64_t T = 10;
  for (TaskId K = 0; K < 50; ++K) {
    S.create(0, T, Init, 100 + K, 0x300);
    S.dep(0, T, 100 + K, 7, DependenceType::InOut);
    T += 1;
  }
  for (TaskId K = 0; K < 50; ++K) {
    S.sched(0, T, Init, 100 + K, false);
    S.sched(0, T + 1000, 100 + K, Init, true);
    T += 1001;
  }
  S.implicitEnd(0, T, Init);
  Result R = S.run();
  EXPECT_EQ(R.ExplicitTasks, 50u);
  EXPECT_GE(R.SpanNs, 50u * 1000);
  EXPECT_LE(R.SpanNs, 50u * 1000 + 100);
  EXPECT_NEAR(R.parallelism(), 1.0, 0.01);
  ASSERT_FALSE(R.CriticalPath.empty());
  std::uint64_t TaskSteps = 0;
  for (const PathStep &P : R.CriticalPath)
    if (P.K == Kind::Task) {
      EXPECT_EQ(P.Code, 0x300u);
      TaskSteps += P.Instances;
    }
  EXPECT_EQ(TaskSteps, 50u);
}

/// Nested tasks (fib-like) on one thread: the span follows the deepest
/// chain of creations; completed tasks release their state.
TEST(AnalysisSpan, RecursiveTreeReleasesState) {
  Stream S;
  S.initialBegin(1);
  std::uint64_t T = 1;
  TaskId Next = 1000;
  // Depth-first binary tree of depth 10, each task: 5 ns, create 2
  // children (if not a leaf), taskwait.
  std::function<void(TaskId, int)> Run = [&](TaskId Me, int Depth) {
    T += 5;
    if (Depth == 0)
      return;
    TaskId A = Next++, B = Next++;
    S.create(0, T, Me, A, 0x10);
    S.create(0, T, Me, B, 0x20);
    S.syncBegin(0, T, Me, SyncKind::Taskwait, 0, 0);
    for (TaskId C : {A, B}) {
      S.sched(0, T, Me, C, false);
      Run(C, Depth - 1);
      S.sched(0, T, C, Me, true);
    }
    S.syncEnd(0, T, Me, SyncKind::Taskwait, 0, 0);
  };
  Run(Init, 10);
  S.implicitEnd(0, T + 1, Init);
  Analyzer A;
  std::stable_sort(S.Ev.begin(), S.Ev.end(), [](const auto &X, const auto &Y) {
    return X.second.Time < Y.second.Time;
  });
  for (auto &[Th, E] : S.Ev)
    A.add(Th, E);
  Result R = A.finish();
  EXPECT_EQ(R.ExplicitTasks, 2046u);
  EXPECT_EQ(R.WorkNs, 2047u * 5 + 1);
  // Longest chain: 11 tasks of 5 ns each (the initial one included).
  EXPECT_EQ(R.SpanNs, 11u * 5 + 1);
  EXPECT_LE(A.peakLiveTasks(), 40u); // live state bounded by the depth
}

TEST(AnalysisSpan, DiagnoseImbalancedSiblings) {
  // 4 sibling tasks: 1000, 100, 100, 100 ns, run one after the other.
  Stream S;
  S.initialBegin(0);
  std::uint64_t T = 10;
  for (TaskId K = 0; K < 4; ++K)
    S.create(0, T++, Init, 50 + K, 0x700);
  S.syncBegin(0, T, Init, SyncKind::Taskwait, 0, 0);
  for (TaskId K = 0; K < 4; ++K) {
    std::uint64_t D = K == 0 ? 1000 : 100;
    S.sched(0, T, Init, 50 + K, false);
    S.sched(0, T + D, 50 + K, Init, true);
    T += D;
  }
  S.syncEnd(0, T, Init, SyncKind::Taskwait, 0, 0);
  S.implicitEnd(0, T + 1, Init);
  Result R = S.run();
  auto It = std::find_if(R.Constructs.begin(), R.Constructs.end(),
                         [](const ConstructStats &C) {
                           return C.K == Kind::Task;
                         });
  ASSERT_NE(It, R.Constructs.end());
  EXPECT_EQ(It->SibGroups, 1u);
  EXPECT_EQ(It->SibLostNs, 1000u - 325u);
  std::vector<Finding> F = diagnose(R, [](std::uint64_t) {
    SourceLabel L;
    L.File = "x.c";
    L.Line = 7;
    return L;
  });
  bool Found = false;
  for (const Finding &X : F)
    if (X.Check == "sibling_imbalance") {
      Found = true;
      EXPECT_EQ(X.Where, "x.c:7");
    }
  EXPECT_TRUE(Found);
}

class Collect final : public Observer {
public:
  std::uint64_t Tasks = 0, Constructs = 0, Flows = 0;
  void task(std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
            std::uint64_t, std::uint64_t) override {
    ++Tasks;
  }
  void construct(std::uint32_t, Kind, std::uint64_t, std::uint64_t,
                 std::uint64_t) override {
    ++Constructs;
  }
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {
    ++Flows;
  }
  void constructEdge(std::uint64_t, Kind, std::uint64_t, Kind,
                     const char *) override {}
};

TEST(AnalysisSpan, ObserverAndPerfetto) {
  Collect C;
  independent().run(&C);
  EXPECT_EQ(C.Tasks, 3u);
  EXPECT_EQ(C.Flows, 3u);
  EXPECT_GE(C.Constructs, 5u); // implicit tasks, taskwait, barriers, parallel
  std::ostringstream OS;
  PerfettoWriter W(OS, [](std::uint64_t) { return SourceLabel{}; });
  Result R = independent().run(&W);
  W.finish(R.Threads);
  std::string J = OS.str();
  EXPECT_EQ(J.rfind("{\"displayTimeUnit\"", 0), 0u);
  EXPECT_NE(J.find("\"ph\":\"f\""), std::string::npos);
  EXPECT_EQ(J.substr(J.size() - 4), "\n]}\n");
}

TEST(AnalysisSpan, EmptyAndGarbageInputDoNotCrash) {
  Analyzer A;
  Result R = A.finish();
  EXPECT_EQ(R.SpanNs, 0u);
  Analyzer B;
  Event E{};
  for (int I = 0; I < 1000; ++I) {
    E.Time = std::uint64_t(I * 7919 % 1000);
    E.Kind = EventKind(I % 27);
    E.Task = std::uint64_t(I % 13);
    E.A = std::uint64_t(I % 11);
    E.Sub = std::uint16_t(I % 9);
    B.add(std::uint32_t(I % 3), E);
  }
  B.finish(); // must not crash
}

} // namespace
