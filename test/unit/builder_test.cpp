// Unit tests for the graph builder on synthetic event streams: each test
// feeds GraphBuilder the events the OMPT adapter (runtime/ompt/tool.cpp)
// would record for a small program and checks the canonical graph text.
#include "graph/builder.h"
#include "graph/writers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace otter;

namespace {

/// Records events per thread, numbering each task's own events (Seq) the
/// way the adapter does. Codes are small integers; the resolver labels them
/// "~c+<code>".
struct Stream {
  std::map<std::uint32_t, std::vector<Event>> PerThread;
  std::map<TaskId, std::uint32_t> Seq;
  std::uint64_t Time = 0;
  /// The plugin's directive of a code (none: no directive).
  std::map<std::uint64_t, std::string> Directives;

  /// Appends E (from its kind's constructor) on thread Th, at the next
  /// time, numbered in its task's sequence (E.Task).
  Event &add(std::uint32_t Th, Event E) {
    E.Time = ++Time;
    E.Seq = E.Task ? Seq[E.Task]++ : 0;
    PerThread[Th].push_back(E);
    return PerThread[Th].back();
  }
  void initial(std::uint32_t Th, TaskId T) {
    add(Th, Event::implicitTaskBegin(0, T, 0, 1, 0, TaskInitial));
  }
  void parallel(std::uint32_t Th, TaskId Enc, ParallelId P, std::uint32_t N,
                std::uint64_t Code) {
    add(Th, Event::parallelBegin(0, Enc, P, N, 0, Code));
  }
  void parallelEnd(std::uint32_t Th, TaskId Enc, ParallelId P,
                   std::uint64_t Code) {
    add(Th, Event::parallelEnd(0, Enc, P, Code));
  }
  void implicit(std::uint32_t Th, TaskId T, ParallelId P,
                std::uint16_t Index, std::uint32_t N) {
    add(Th, Event::implicitTaskBegin(0, T, P, N, Index, TaskImplicit));
  }
  void create(std::uint32_t Th, TaskId Creator, TaskId Child,
              std::uint64_t Code, std::uint32_t Flags = TaskExplicit) {
    add(Th, Event::taskCreate(0, Creator, Child, Flags, Code));
  }
  void dep(std::uint32_t Th, TaskId T, std::uint64_t Addr, DependenceType D) {
    add(Th, Event::taskDependence(0, T, Addr, D));
  }
  /// Runs task T on thread Th: schedule in, then (caller adds the body).
  void run(std::uint32_t Th, TaskId T) {
    add(Th, Event::taskSchedule(0, 0, ScheduleStatus::Switch, T));
  }
  void sync(std::uint32_t Th, TaskId T, SyncKind K, std::uint64_t Code,
            ParallelId P = 0) {
    add(Th, Event::syncBegin(0, T, P, K, Code));
    add(Th, Event::syncEnd(0, T, P, K, Code));
  }
  void syncBegin(std::uint32_t Th, TaskId T, SyncKind K, std::uint64_t Code) {
    add(Th, Event::syncBegin(0, T, 0, K, Code));
  }
  void syncEnd(std::uint32_t Th, TaskId T, SyncKind K, std::uint64_t Code) {
    add(Th, Event::syncEnd(0, T, 0, K, Code));
  }
  void work(std::uint32_t Th, TaskId T, bool Begin, WorkKind K,
            std::uint64_t Code) {
    add(Th, Begin ? Event::workBegin(0, T, K, 0, Code)
                  : Event::workEnd(0, T, K, 0, Code));
  }
  void mutex(std::uint32_t Th, TaskId T, bool Acquired, MutexKind K,
             std::uint64_t Wait, std::uint64_t Code) {
    add(Th, Acquired ? Event::mutexAcquired(0, T, K, Wait, Code)
                     : Event::mutexReleased(0, T, K, Wait, Code));
  }

  /// Builds the graph, feeding threads in the given order (default: by id).
  std::string graph(std::vector<std::uint32_t> ThreadOrder = {},
                    std::vector<std::string> Names = {}) const {
    GraphBuilder B([this](std::uint64_t Code) {
      SourceLabel L;
      L.Location = "c+" + std::to_string(Code);
      L.RegionId = Code;
      if (auto It = Directives.find(Code); It != Directives.end())
        L.Directive = It->second;
      return L;
    });
    if (ThreadOrder.empty())
      for (const auto &[Th, Evs] : PerThread)
        ThreadOrder.push_back(Th);
    for (std::uint32_t Th : ThreadOrder) {
      const std::vector<Event> &Evs = PerThread.at(Th);
      B.addEvents(Th, Evs.data(), Evs.size());
    }
    Graph G = B.build();
    G.Names = std::move(Names);
    std::ostringstream OS;
    writeCanonical(G, OS);
    for (const std::string &W : G.Warnings)
      OS << "warning: " << W << '\n';
    return OS.str();
  }
};

/// Team of N members of parallel region P (code PC) encountered by initial
/// task 1 on thread 0; member i is task 100+i on thread i.
void beginTeam(Stream &S, ParallelId P, std::uint32_t N, std::uint64_t PC) {
  S.parallel(0, 1, P, N, PC);
  for (std::uint32_t I = 0; I < N; ++I)
    S.implicit(I, 100 + I, P, std::uint16_t(I), N);
}
void endTeam(Stream &S, ParallelId P, std::uint32_t N, std::uint64_t PC) {
  for (std::uint32_t I = 0; I < N; ++I)
    S.sync(I, 100 + I, SyncKind::BarrierImplicitParallel, I == 0 ? PC : 0, P);
  S.parallelEnd(0, 1, P, PC);
}

TEST(Builder, TaskwaitSyncsChildrenNotGrandchildren) {
  Stream S;
  S.initial(0, 1);
  S.create(0, 1, 10, 5);
  S.run(0, 10);
  S.create(0, 10, 11, 6); // grandchild: not waited for by 1's taskwait
  S.create(0, 1, 12, 7);
  S.sync(0, 1, SyncKind::Taskwait, 8);
  S.create(0, 1, 13, 9); // after the taskwait: never waited for
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 6 nodes, 7 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 create\n"
                       "  -> n3 create\n"
                       "  -> n4 scope\n"
                       "n1 task parent=n0 at=~c+5\n"
                       "  -> n2 create\n"
                       "  -> n4 sync\n"
                       "n2 task parent=n1 at=~c+6\n"
                       "n3 task parent=n0 at=~c+7\n"
                       "  -> n4 sync\n"
                       "n4 taskwait parent=n0 at=~c+8\n"
                       "  -> n5 create\n"
                       "n5 task parent=n0 at=~c+9\n");
}

// An untied task that moved from thread 1 to thread 0: its later events
// arrive first (the threads' stores are merged in thread order), and the
// walk still follows the task's own order (Seq), as if one thread had
// recorded it all (Walker::index sorts only such tasks).
TEST(Builder, TaskRecordedByTwoThreadsFollowsItsOwnOrder) {
  auto program = [](std::uint32_t Before, std::uint32_t After) {
    Stream S;
    S.initial(0, 1);
    S.create(0, 1, 10, 5, TaskExplicit | TaskUntied);
    S.run(Before, 10);
    S.create(Before, 10, 11, 6);
    S.sync(Before, 10, SyncKind::Taskwait, 7);
    S.run(After, 10);
    S.create(After, 10, 12, 8);
    S.sync(After, 10, SyncKind::Taskwait, 9);
    S.sync(0, 1, SyncKind::Taskwait, 10);
    return S.graph();
  };
  std::string Ref = program(0, 0);
  EXPECT_EQ(Ref, "# otter canonical graph v1: 7 nodes, 9 edges\n"
                 "n0 initial_task parent=- at=?\n"
                 "  -> n1 create\n"
                 "  -> n6 scope\n"
                 "n1 task parent=n0 at=~c+5 flags=untied\n"
                 "  -> n2 create\n"
                 "  -> n3 scope\n"
                 "n2 task parent=n1 at=~c+6\n"
                 "  -> n3 sync\n"
                 "n3 taskwait parent=n1 at=~c+7\n"
                 "  -> n4 create\n"
                 "  -> n5 scope\n"
                 "n4 task parent=n1 at=~c+8\n"
                 "  -> n5 sync\n"
                 "n5 taskwait parent=n1 at=~c+9\n"
                 "  -> n6 sync\n"
                 "n6 taskwait parent=n0 at=~c+10\n");
  EXPECT_EQ(program(1, 0), Ref);
}

// One thread's records of a task arrive in the task's order, so a store
// of one thread is not sorted by Seq (Walker::index); a stream that breaks
// this (a corrupt trace) is said to, not silently misread.
TEST(Builder, OneThreadsEventsOutOfTheirTasksOrderAreSaid) {
  Stream S;
  S.initial(0, 1);
  S.create(0, 1, 10, 5);
  S.add(0, Event::taskCreate(0, 1, 11, TaskExplicit, 6)).Seq =
      5; // after the taskwait's begin (3)
  S.sync(0, 1, SyncKind::Taskwait, 7);
  std::string G = S.graph();
  EXPECT_NE(G.find("warning: 1 event(s) arrived out of their task's order"),
            std::string::npos)
      << G;
}

TEST(Builder, TaskgroupWaitsForGrandchildren) {
  Stream S;
  S.initial(0, 1);
  S.syncBegin(0, 1, SyncKind::Taskgroup, 4);
  S.create(0, 1, 10, 5);
  S.run(1, 10);
  S.create(1, 10, 11, 6);
  S.run(0, 11);
  S.create(0, 11, 12, 7); // great-grandchild, created on another thread
  S.syncEnd(0, 1, SyncKind::Taskgroup, 8);
  S.create(0, 1, 13, 9);
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 7 nodes, 9 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 taskgroup_begin parent=n0 at=~c+4\n"
                       "  -> n2 create\n"
                       "  -> n5 scope\n"
                       "n2 task parent=n0 at=~c+5\n"
                       "  -> n3 create\n"
                       "  -> n5 sync\n"
                       "n3 task parent=n2 at=~c+6\n"
                       "  -> n4 create\n"
                       "  -> n5 sync\n"
                       "n4 task parent=n3 at=~c+7\n"
                       "  -> n5 sync\n"
                       "n5 taskgroup_end parent=n0 at=~c+8\n"
                       "  -> n6 create\n"
                       "n6 task parent=n0 at=~c+9\n");
}

TEST(Builder, BarrierIsOneTeamNodeAndSyncsTeamTasks) {
  Stream S;
  S.initial(0, 1);
  beginTeam(S, 50, 2, 3);
  S.create(1, 101, 10, 5); // task of member 1
  S.run(0, 10);
  S.create(0, 10, 11, 6); // its child: also bound to the team
  S.sync(0, 100, SyncKind::BarrierExplicit, 7, 50);
  S.sync(1, 101, SyncKind::BarrierExplicit, 7, 50);
  endTeam(S, 50, 2, 3);
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 9 nodes, 11 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 parallel_begin parent=n0 at=~c+3\n"
                       "  -> n2 scope\n"
                       "  -> n3 scope\n"
                       "n2 implicit_task parent=n1 at=~c+3\n"
                       "  -> n6 scope\n"
                       "n3 implicit_task parent=n1 at=~c+3\n"
                       "  -> n4 create\n"
                       "  -> n6 scope\n"
                       "n4 task parent=n3 at=~c+5\n"
                       "  -> n5 create\n"
                       "  -> n6 sync\n"
                       "n5 task parent=n4 at=~c+6\n"
                       "  -> n6 sync\n"
                       "n6 barrier parent=n1 at=~c+7\n"
                       "  -> n7 scope\n"
                       "n7 barrier_implicit parent=n1 at=~c+3\n"
                       "  -> n8 scope\n"
                       "n8 parallel_end parent=n0 at=~c+3\n");
}

/// Dependence edges of the tasks created by initial task 1, as "a->b" over
/// creation indices (0-based).
std::string depEdges(const std::string &Graph) {
  // Node n<k+1> is the k-th task when the initial task creates only tasks.
  std::string Out, Line;
  std::istringstream IS(Graph);
  int Node = -1;
  while (std::getline(IS, Line)) {
    if (Line.rfind("n", 0) == 0)
      Node = std::stoi(Line.substr(1));
    else if (Line.find(" dependence") != std::string::npos) {
      int Target = std::stoi(Line.substr(Line.find("-> n") + 4));
      Out += std::to_string(Node - 1) + "->" + std::to_string(Target - 1) + " ";
    }
  }
  return Out;
}

std::string depGraph(const std::vector<std::vector<std::pair<std::uint64_t,
                                                            DependenceType>>>
                         &Tasks) {
  Stream S;
  S.initial(0, 1);
  TaskId Id = 10;
  for (const auto &Deps : Tasks) {
    S.create(0, 1, Id, 5, TaskExplicit | TaskHasDependences);
    for (const auto &[Addr, Type] : Deps)
      S.dep(0, Id, Addr, Type);
    ++Id;
  }
  return depEdges(S.graph());
}

using DT = DependenceType;

TEST(Builder, DependenceChain) {
  // out x; inout x; in x; in x; out x: direct edges only.
  EXPECT_EQ(depGraph({{{1, DT::Out}},
                      {{1, DT::InOut}},
                      {{1, DT::In}},
                      {{1, DT::In}},
                      {{1, DT::Out}}}),
            "0->1 1->2 1->3 2->4 3->4 ");
}

TEST(Builder, DependenceDiamond) {
  // out a; in a, out b; in a, out c; in b, in c.
  EXPECT_EQ(depGraph({{{1, DT::Out}},
                      {{1, DT::In}, {2, DT::Out}},
                      {{1, DT::In}, {3, DT::Out}},
                      {{2, DT::In}, {3, DT::In}}}),
            "0->1 0->2 1->3 2->3 ");
}

TEST(Builder, MutexinoutsetGroupSharesPredecessors) {
  // out; mutexinoutset x2 (no edge between them); in (after both).
  EXPECT_EQ(depGraph({{{1, DT::Out}},
                      {{1, DT::MutexInOutSet}},
                      {{1, DT::MutexInOutSet}},
                      {{1, DT::In}}}),
            "0->1 0->2 1->3 2->3 ");
  // in; in; mutexinoutset x2: the group waits for both readers; then a
  // new group after an inoutset; then out after that group.
  EXPECT_EQ(depGraph({{{1, DT::In}},
                      {{1, DT::In}},
                      {{1, DT::MutexInOutSet}},
                      {{1, DT::MutexInOutSet}},
                      {{1, DT::InOutSet}},
                      {{1, DT::InOutSet}},
                      {{1, DT::Out}}}),
            "0->2 0->3 1->2 1->3 2->4 2->5 3->4 3->5 4->6 5->6 ");
  // A reader between two groups of the same type splits them.
  EXPECT_EQ(depGraph({{{1, DT::InOutSet}},
                      {{1, DT::In}},
                      {{1, DT::InOutSet}}}),
            "0->1 1->2 ");
}

TEST(Builder, DependenceOnTaskwaitedTaskIsImplied) {
  Stream S;
  S.initial(0, 1);
  S.create(0, 1, 10, 5, TaskExplicit | TaskHasDependences);
  S.dep(0, 10, 1, DT::Out);
  S.sync(0, 1, SyncKind::Taskwait, 6);
  S.create(0, 1, 11, 7, TaskExplicit | TaskHasDependences);
  S.dep(0, 11, 1, DT::In);
  EXPECT_EQ(S.graph().find(" dependence\n"), std::string::npos);
}

// An explicit task's strand is read in place unless libomp's order needs
// adjusting (Walker::strandOf): task 10's does (a taskloop in its implicit
// taskgroup), task 31's does not but holds its dependence; tasks 20, 21,
// 30 and 32 have no strand at all. The shape is the one the initial task's
// strand gets (TaskloopTaskgroupNestsInsideTaskloop, dependences).
TEST(Builder, ExplicitTaskStrandsInPlaceReorderedAndEmpty) {
  Stream S;
  S.initial(0, 1);
  S.create(0, 1, 10, 3);
  S.run(0, 10);
  S.syncBegin(0, 10, SyncKind::Taskgroup, 4);
  S.work(0, 10, true, WorkKind::Taskloop, 5);
  S.create(0, 10, 20, 5);
  S.create(0, 10, 21, 5);
  S.work(0, 10, false, WorkKind::Taskloop, 5);
  S.syncEnd(0, 10, SyncKind::Taskgroup, 4);
  S.create(0, 10, 30, 6, TaskExplicit | TaskHasDependences);
  S.dep(0, 30, 1, DT::Out);
  S.create(0, 10, 31, 7, TaskExplicit | TaskHasDependences);
  S.dep(0, 31, 1, DT::In);
  S.run(1, 31);
  S.create(1, 31, 32, 8);
  S.sync(0, 10, SyncKind::Taskwait, 9);
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 12 nodes, 16 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 create\n"
                       "n1 task parent=n0 at=~c+3\n"
                       "  -> n2 scope\n"
                       "n2 taskloop_begin parent=n1 at=~c+5\n"
                       "  -> n3 scope\n"
                       "n3 taskgroup_begin parent=n1 at=~c+4\n"
                       "  -> n4 create\n"
                       "  -> n5 create\n"
                       "  -> n6 scope\n"
                       "n4 task parent=n1 at=~c+5\n"
                       "  -> n6 sync\n"
                       "n5 task parent=n1 at=~c+5\n"
                       "  -> n6 sync\n"
                       "n6 taskgroup_end parent=n1 at=~c+4\n"
                       "  -> n7 scope\n"
                       "n7 taskloop_end parent=n1 at=~c+5\n"
                       "  -> n8 create\n"
                       "  -> n9 create\n"
                       "  -> n11 scope\n"
                       "n8 task parent=n1 at=~c+6 flags=has_dependences\n"
                       "  -> n9 dependence\n"
                       "  -> n11 sync\n"
                       "n9 task parent=n1 at=~c+7 flags=has_dependences\n"
                       "  -> n10 create\n"
                       "  -> n11 sync\n"
                       "n10 task parent=n9 at=~c+8\n"
                       "n11 taskwait parent=n1 at=~c+9\n");
}

/// A team of 3: a single (executed by member `Executor`) creating a task,
/// a dynamic loop, the region's barrier. The graph must not depend on who
/// executed the single, on task ids, or on the order threads are fed.
Stream singleTeam(std::uint32_t Executor, TaskId IdBase) {
  Stream S;
  S.initial(0, 1);
  beginTeam(S, 50, 3, 3);
  for (std::uint32_t I = 0; I < 3; ++I) {
    TaskId T = 100 + I;
    bool Exec = I == Executor;
    auto K = Exec ? WorkKind::SingleExecutor : WorkKind::SingleOther;
    S.work(I, T, true, K, 4);
    if (Exec) {
      S.create(I, T, IdBase, 5);
      S.run((I + 1) % 3, IdBase);
      S.mutex((I + 1) % 3, IdBase, true, MutexKind::Critical, 77, 6);
      // libomp: null release address off thread 0.
      S.mutex((I + 1) % 3, IdBase, false, MutexKind::Critical, 77,
              (I + 1) % 3 == 0 ? 9 : 0);
    }
    S.work(I, T, false, K, Exec ? 7 : 4);
    S.sync(I, T, SyncKind::BarrierImplicitWorkshare, 8, 50);
  }
  endTeam(S, 50, 3, 3);
  return S;
}

TEST(Builder, ImplicitTaskOrderDoesNotDependOnSchedule) {
  std::string Ref = singleTeam(0, 10).graph();
  EXPECT_EQ(Ref.find("warning"), std::string::npos) << Ref;
  // The critical_end takes its critical_begin's code, whichever thread ran
  // the task.
  EXPECT_NE(Ref.find("critical_begin parent=n6 at=~c+6"), std::string::npos)
      << Ref;
  EXPECT_NE(Ref.find("critical_end parent=n6 at=~c+6"), std::string::npos)
      << Ref;
  for (std::uint32_t Exec = 0; Exec < 3; ++Exec) {
    Stream S = singleTeam(Exec, 1000 + Exec);
    EXPECT_EQ(S.graph(), Ref) << "executor " << Exec;
    EXPECT_EQ(S.graph({2, 1, 0}), Ref) << "executor " << Exec;
    EXPECT_EQ(S.graph({1, 0, 2}), Ref) << "executor " << Exec;
  }
}

TEST(Builder, TaskloopTaskgroupNestsInsideTaskloop) {
  Stream S;
  S.initial(0, 1);
  // libomp: taskgroup begin, taskloop begin, creates, taskloop end,
  // taskgroup end.
  S.syncBegin(0, 1, SyncKind::Taskgroup, 4);
  S.work(0, 1, true, WorkKind::Taskloop, 5);
  S.create(0, 1, 10, 5);
  S.create(0, 1, 11, 5);
  S.work(0, 1, false, WorkKind::Taskloop, 5);
  S.syncEnd(0, 1, SyncKind::Taskgroup, 4);
  // nogroup: no taskgroup; the taskwait syncs the tasks.
  S.work(0, 1, true, WorkKind::Taskloop, 6);
  S.create(0, 1, 12, 6);
  S.work(0, 1, false, WorkKind::Taskloop, 6);
  S.sync(0, 1, SyncKind::Taskwait, 7);
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 11 nodes, 13 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 taskloop_begin parent=n0 at=~c+5\n"
                       "  -> n2 scope\n"
                       "n2 taskgroup_begin parent=n0 at=~c+4\n"
                       "  -> n3 create\n"
                       "  -> n4 create\n"
                       "  -> n5 scope\n"
                       "n3 task parent=n0 at=~c+5\n"
                       "  -> n5 sync\n"
                       "n4 task parent=n0 at=~c+5\n"
                       "  -> n5 sync\n"
                       "n5 taskgroup_end parent=n0 at=~c+4\n"
                       "  -> n6 scope\n"
                       "n6 taskloop_end parent=n0 at=~c+5\n"
                       "  -> n7 scope\n"
                       "n7 taskloop_begin parent=n0 at=~c+6\n"
                       "  -> n8 create\n"
                       "  -> n9 scope\n"
                       "n8 task parent=n0 at=~c+6\n"
                       "  -> n10 sync\n"
                       "n9 taskloop_end parent=n0 at=~c+6\n"
                       "  -> n10 scope\n"
                       "n10 taskwait parent=n0 at=~c+7\n");
}

TEST(Builder, SerializedTeamGetsItsImplicitBarrier) {
  Stream S;
  S.initial(0, 1);
  S.parallel(0, 1, 50, 1, 3);
  S.implicit(0, 100, 50, 0, 1);
  S.create(0, 100, 10, 5, TaskExplicit | TaskUndeferred);
  // libomp 19: no barrier events for a serialized team's end.
  S.parallelEnd(0, 1, 50, 3);
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 6 nodes, 6 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 parallel_begin parent=n0 at=~c+3\n"
                       "  -> n2 scope\n"
                       "n2 implicit_task parent=n1 at=~c+3\n"
                       "  -> n3 create\n"
                       "  -> n4 scope\n"
                       "n3 task parent=n2 at=~c+5 flags=undeferred\n"
                       "  -> n4 sync\n"
                       "n4 barrier_implicit parent=n1 at=~c+3\n"
                       "  -> n5 scope\n"
                       "n5 parallel_end parent=n0 at=~c+3\n");
}

TEST(Builder, OnlyActivatedCancelsMakeNodes) {
  Stream S;
  S.initial(0, 1);
  S.add(0, Event::cancel(0, 1, 0x8 | 0x10, 4)); // taskgroup, activated
  S.add(0, Event::cancel(0, 1, 0x8 | 0x20, 5)); // detected: timing
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 2 nodes, 1 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 cancel parent=n0 at=~c+4 flags=taskgroup\n");
}

// omp_control_tool: a pause and the start after it are nodes in the calling
// task's program order (the gap); flush and end leave the graph as it is.
TEST(Builder, ToolControlPauseAndStartMarkTheGap) {
  Stream S;
  S.initial(0, 1);
  S.add(0, Event::toolControl(0, 1, ControlCommand::Pause, 4));
  S.add(0, Event::toolControl(0, 1, ControlCommand::Start, 5));
  S.create(0, 1, 2, 6);
  S.add(0, Event::toolControl(0, 1, ControlCommand::Flush, 7));
  S.add(0, Event::toolControl(0, 1, ControlCommand::End, 8));
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 4 nodes, 3 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 pause parent=n0 at=~c+4\n"
                       "  -> n2 scope\n"
                       "n2 resume parent=n0 at=~c+5\n"
                       "  -> n3 create\n"
                       "n3 task parent=n0 at=~c+6\n");
}

// Annotations (otter/otter.h): phases and marks are named nodes in the
// task's program order; a label names the task's own node (the last one
// wins), wherever it comes in the task's events.
TEST(Builder, AnnotationsAreNamedNodes) {
  Stream S;
  S.initial(0, 1);
  S.add(0, Event::phaseBegin(0, 1, 1, 4));
  S.add(0, Event::mark(0, 1, 2, 5));
  S.create(0, 1, 2, 6);
  S.run(0, 2);
  S.add(0, Event::taskLabel(0, 2, 4));
  S.add(0, Event::taskLabel(0, 2, 3));
  S.add(0, Event::phaseEnd(0, 1, 1, 7));
  EXPECT_EQ(S.graph({}, {"", "solve", "ready", "row 7", "first"}),
            "# otter canonical graph v1: 5 nodes, 4 edges\n"
            "n0 initial_task parent=- at=?\n"
            "  -> n1 scope\n"
            "n1 phase_begin parent=n0 at=~c+4 name=\"solve\"\n"
            "  -> n2 scope\n"
            "n2 mark parent=n0 at=~c+5 name=\"ready\"\n"
            "  -> n3 create\n"
            "  -> n4 scope\n"
            "n3 task parent=n0 at=~c+6 name=\"row 7\"\n"
            "n4 phase_end parent=n0 at=~c+7 name=\"solve\"\n");
  // Without the table the ids show.
  EXPECT_NE(S.graph().find("name=\"#1\""), std::string::npos);
}

/// The events of a target data region (code 10 at its entry, 12 at its
/// exit) around a target region (code 11) with one kernel, then a target
/// update (code 13), as libomptarget reports them, in initial task 1.
Stream targetProgram() {
  Stream S;
  S.initial(0, 1);
  auto op = [&](DataOpKind K, std::uint64_t Bytes, std::uint64_t Code) {
    S.add(0, Event::targetDataOpBegin(0, 1, K, Bytes, 4, 0, Code));
    S.add(0, Event::targetDataOpEnd(0, 1, K, Bytes, 4, 0, Code));
  };
  auto construct = [&](TargetKind K, bool Begin, std::uint64_t Id,
                       std::uint64_t Code) {
    S.add(0, (Begin ? &Event::targetBegin : &Event::targetEnd)(0, 1, K, Id, 0,
                                                                Code));
  };
  construct(TargetKind::EnterData, true, 50, 10);
  op(DataOpKind::Alloc, 8000, 10);
  op(DataOpKind::TransferToDevice, 8000, 10);
  construct(TargetKind::EnterData, false, 50, 10);
  construct(TargetKind::Target, true, 51, 11);
  op(DataOpKind::TransferToDeviceAsync, 4, 11);
  S.add(0, Event::targetSubmitBegin(0, 1, 51, 0));
  S.add(0, Event::targetSubmitEnd(0, 1, 51, 0));
  op(DataOpKind::TransferFromDevice, 4, 11);
  construct(TargetKind::Target, false, 51, 11);
  construct(TargetKind::ExitData, true, 52, 12);
  op(DataOpKind::TransferFromDevice, 8000, 12);
  op(DataOpKind::Delete, 8000, 12);
  construct(TargetKind::ExitData, false, 52, 12);
  construct(TargetKind::Update, true, 53, 13);
  op(DataOpKind::TransferToDevice, 16, 13);
  construct(TargetKind::Update, false, 53, 13);
  return S;
}

// A target data region labelled as such is a target_begin/target_end pair
// (the bytes of its entry on the begin, of its exit on the end); a target
// region a pair with its bytes on the begin and its kernel, labelled with
// the region's code, between; an update one node with its bytes.
// Allocations and deletions move nothing.
TEST(Builder, TargetConstructsAreNodesWithTheirBytes) {
  Stream S = targetProgram();
  S.Directives = {{10, "target data"},
                  {11, "target"},
                  {12, "target data"},
                  {13, "target update"}};
  EXPECT_EQ(S.graph(), "# otter canonical graph v1: 7 nodes, 6 edges\n"
                       "n0 initial_task parent=- at=?\n"
                       "  -> n1 scope\n"
                       "n1 target_begin parent=n0 at=~c+10 bytes_to=8000 "
                       "bytes_from=0\n"
                       "  -> n2 scope\n"
                       "n2 target_begin parent=n0 at=~c+11 bytes_to=4 "
                       "bytes_from=4\n"
                       "  -> n3 scope\n"
                       "n3 kernel parent=n0 at=~c+11\n"
                       "  -> n4 scope\n"
                       "n4 target_end parent=n0 at=~c+11\n"
                       "  -> n5 scope\n"
                       "n5 target_end parent=n0 at=~c+12 bytes_to=0 "
                       "bytes_from=8000\n"
                       "  -> n6 scope\n"
                       "n6 target_update parent=n0 at=~c+13 bytes_to=16 "
                       "bytes_from=0\n");
}

// Without the plugin's labels a target data region cannot be told from an
// enter data and an exit data construct: it is those two nodes.
TEST(Builder, UnlabelledTargetDataIsEnterAndExitData) {
  std::string G = targetProgram().graph();
  EXPECT_NE(G.find("n1 target_enter_data parent=n0 at=~c+10 bytes_to=8000 "
                   "bytes_from=0\n"),
            std::string::npos)
      << G;
  EXPECT_NE(G.find("n5 target_exit_data parent=n0 at=~c+12 bytes_to=0 "
                   "bytes_from=8000\n"),
            std::string::npos)
      << G;
  EXPECT_NE(G.find("n3 kernel parent=n0 at=~c+11\n"), std::string::npos) << G;
}

} // namespace

// Dispatch, flush and reduction events (trace only: otter/event_kinds.def)
// leave the graph as it is, wherever they fall in a task's events: between
// a loop's end and its barrier too.
TEST(Builder, TraceOnlyKindsDoNotChangeTheGraph) {
  auto program = [](bool WithTraceOnly) {
    Stream S;
    S.initial(0, 1);
    beginTeam(S, 2, 2, 3);
    for (std::uint32_t I = 0; I < 2; ++I) {
      TaskId M = 100 + I;
      S.work(I, M, true, WorkKind::LoopDynamic, 4);
      if (WithTraceOnly) {
        S.add(I, Event::dispatch(0, M, DispatchKind::WsLoopChunk, 5 * I, 5,
                                 0));
        S.add(I, Event::flush(0, M, 6));
      }
      S.create(I, M, 200 + I, 7);
      S.work(I, M, false, WorkKind::LoopDynamic, 4);
      if (WithTraceOnly)
        S.sync(I, M, SyncKind::Reduction, 0, 2);
      S.sync(I, M, SyncKind::BarrierImplicitWorkshare, 8, 2);
    }
    endTeam(S, 2, 2, 3);
    return S.graph();
  };
  std::string Plain = program(false);
  EXPECT_NE(Plain.find("loop_end"), std::string::npos);
  EXPECT_EQ(Plain, program(true));
}

// libomp reports some untied tasks' creation with no code address (BOTS
// concom): the task takes its creator's label, marked inherited; a task
// created by a task that has no label either keeps none.
TEST(Builder, TaskCreatedWithNoCodeTakesItsCreatorsLabel) {
  Stream S;
  S.initial(0, 1);
  S.create(0, 1, 10, 5, TaskExplicit | TaskUntied);
  S.run(0, 10);
  S.create(0, 10, 11, 0, TaskExplicit | TaskUntied); // null codeptr_ra
  S.create(0, 1, 12, 0, TaskExplicit | TaskUntied); // creator: no label
  std::string G = S.graph();
  EXPECT_NE(G.find("n2 task parent=n1 at=~c+5"), std::string::npos) << G;
  EXPECT_NE(G.find("n3 task parent=n0 at=?"), std::string::npos) << G;
}

// Host teams with a league of one team: libomp gives the team's initial
// task no parallel region and reports no teams barrier. The initial task
// that begins right after the league's parallel_begin on the same thread is
// its member: no root of its own, and its inner (serialized) parallel
// region carries the teams construct's label.
TEST(Builder, LeagueOfOneTeamKeepsItsInitialTaskAndLabel) {
  Stream S;
  S.initial(0, 1);
  S.add(0, Event::parallelBegin(0, 1, 50, 1, 1 /* league */, 7));
  S.add(0, Event::implicitTaskBegin(0, 2, 0, 1, 0, TaskInitial));
  S.parallel(0, 2, 60, 1, 0); // the team's region: no code address
  S.implicit(0, 3, 60, 0, 1);
  S.sync(0, 3, SyncKind::BarrierImplicitParallel, 0, 60);
  S.parallelEnd(0, 2, 60, 0);
  S.add(0, Event::implicitTaskEnd(0, 2));
  S.parallelEnd(0, 1, 50, 7);
  std::string G = S.graph();
  EXPECT_EQ(G.find("initial_task parent=- at=?\n"),
            G.rfind("initial_task parent=- at=?\n"))
      << "one root only\n"
      << G;
  EXPECT_EQ(G.find("at=?\n", G.find('\n', G.find("n0 "))), std::string::npos)
      << "every node but the root is labelled\n"
      << G;
}
