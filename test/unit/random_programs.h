//===- random_programs.h - Random OpenMP programs and their traces -*- C++
//-*-===//
//
// For the property tests of the analyses (analysis_property_test.cpp) and
// of the replay (simulate_test.cpp): random small OpenMP programs (a team
// of one or two members with barriers, explicit tasks nested three deep
// with taskwaits, taskgroups and depend clauses, a fork that takes long);
// the oracle, their task graph built from the program's text (each
// computation a node weighted by its time, OpenMP's edges, dependences
// between every conflicting pair of siblings) and beside it the burdened
// graph; and a simple simulator that writes the events the OMPT adapter
// would record, with random schedules (a task runs when created or at the
// next construct that waits for it, sync waits folded or not, workers
// starting before or after the primary, time between tasks started from a
// wait).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TEST_RANDOM_PROGRAMS_H
#define OTTER_TEST_RANDOM_PROGRAMS_H

#include "otter/events.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <vector>

namespace otter::testprog {

//===----------------------------------------------------------------------===//
// Programs.
//===----------------------------------------------------------------------===//

struct Op {
  enum Kind { Compute, Create, Taskwait, GroupBegin, GroupEnd, Barrier } K;
  std::uint64_t Ns = 0; // Compute
  int Child = -1;       // Create
};

struct TaskProg {
  TaskId Id = 0;
  std::uint64_t Code = 0;
  std::vector<std::pair<std::uint64_t, DependenceType>> Deps;
  std::vector<Op> Ops;
};

/// Task 0 is the initial task, 1..Members the team's implicit tasks (their
/// Ops hold Barrier ops between phases), the rest explicit tasks.
struct Program {
  std::vector<TaskProg> Tasks;
  unsigned Members = 2;
  std::vector<Op> InitBefore, InitAfter; // the initial task around the region
  std::uint64_t ForkNs = 0;              // the primary's start-up time
  std::uint64_t WorkerDelay = 0;         // a worker's start after the fork
  std::uint64_t JoinNs = 1;              // the primary's end to the join
  std::uint64_t Burden = 0;              // per task, for the burdened span
};

class Generator {
public:
  explicit Generator(std::uint64_t Seed) : Rng(Seed) {}

  Program make() {
    Program P;
    P.Tasks.resize(1);
    P.Tasks[0].Id = 1;
    P.Members = 1 + unsigned(pick(4) != 0);
    for (unsigned M = 0; M < P.Members; ++M) {
      TaskProg T;
      T.Id = 100 + M;
      P.Tasks.push_back(T);
    }
    P.InitBefore = ops(P, 1, 0);
    P.InitBefore.push_back({Op::Taskwait});
    P.InitAfter = {{Op::Compute, 1 + pick(50)}};
    unsigned Barriers = unsigned(pick(3));
    for (unsigned M = 1; M <= P.Members; ++M)
      for (unsigned B = 0; B <= Barriers; ++B) {
        std::vector<Op> Phase = ops(P, 2, M);
        auto &Ops = P.Tasks[M].Ops;
        Ops.insert(Ops.end(), Phase.begin(), Phase.end());
        if (B < Barriers)
          Ops.push_back({Op::Barrier});
      }
    // Sometimes a fork far longer than the region (the drift's case).
    P.ForkNs = pick(4) == 0 ? 1000 + pick(5000) : pick(30);
    P.WorkerDelay = 1 + pick(P.ForkNs + 40);
    P.JoinNs = 1 + pick(40);
    P.Burden = pick(60);
    return P;
  }

private:
  std::mt19937_64 Rng;
  std::uint64_t pick(std::uint64_t N) { return N ? Rng() % N : 0; }

  /// A task body: computations, tasks (Depth levels deep), taskwaits,
  /// taskgroups.
  std::vector<Op> ops(Program &P, int Depth, int Owner) {
    std::vector<Op> Out;
    unsigned N = 1 + unsigned(pick(4));
    for (unsigned I = 0; I < N; ++I) {
      std::uint64_t R = pick(100);
      if (R < 35 || Depth == 0 || P.Tasks.size() > 14) {
        Out.push_back({Op::Compute, 1 + pick(100)});
      } else if (R < 70) {
        int C = int(P.Tasks.size());
        P.Tasks.emplace_back();
        P.Tasks[C].Id = 1000 + TaskId(C);
        P.Tasks[C].Code = 0x100 + 0x10 * pick(3);
        unsigned NDeps = unsigned(pick(3));
        for (unsigned D = 0; D < NDeps; ++D) {
          static const DependenceType Types[] = {
              DependenceType::In, DependenceType::Out, DependenceType::InOut,
              DependenceType::MutexInOutSet, DependenceType::InOutSet};
          std::uint64_t Addr = 1 + pick(3);
          bool Dup = false;
          for (auto &X : P.Tasks[C].Deps)
            Dup |= X.first == Addr;
          if (!Dup)
            P.Tasks[C].Deps.push_back({Addr, Types[pick(5)]});
        }
        std::vector<Op> Body = ops(P, Depth - 1, C);
        P.Tasks[C].Ops = Body;
        Out.push_back({Op::Create, 0, C});
      } else if (R < 85) {
        Out.push_back({Op::Taskwait});
      } else {
        Out.push_back({Op::GroupBegin});
        std::vector<Op> In = ops(P, Depth - 1, Owner);
        Out.insert(Out.end(), In.begin(), In.end());
        Out.push_back({Op::GroupEnd});
      }
    }
    return Out;
  }
};

//===----------------------------------------------------------------------===//
// The oracle: the program's task graph, built from its text.
//===----------------------------------------------------------------------===//

/// The task graph, and beside it the burdened graph: the same with extra
/// weights (BW: a task's burden on its first node, the join time on the
/// join) and extra edges (BOut: the fork time before the members).
struct Dag {
  std::vector<std::uint64_t> W, BW;
  std::vector<bool> InRegion;
  std::vector<std::vector<int>> Out, BOut;
  int node(std::uint64_t Weight, bool Region) {
    W.push_back(Weight);
    BW.push_back(0);
    InRegion.push_back(Region);
    Out.emplace_back();
    BOut.emplace_back();
    return int(W.size()) - 1;
  }
  void edge(int A, int B) { Out[A].push_back(B); }

  /// The heaviest path from From, by enumerating every path (only through
  /// region nodes if RegionOnly), in the burdened graph if Burdened.
  std::uint64_t heaviest(int From, bool RegionOnly, std::uint64_t &Paths,
                         bool Burdened = false) {
    std::uint64_t Best = 0;
    std::function<void(int, std::uint64_t)> Walk = [&](int N,
                                                       std::uint64_t Sum) {
      Sum += W[N] + (Burdened ? BW[N] : 0);
      bool Leaf = true;
      for (int M : Out[N]) {
        if (RegionOnly && !InRegion[M])
          continue;
        Leaf = false;
        Walk(M, Sum);
      }
      if (Burdened)
        for (int M : BOut[N]) {
          if (RegionOnly && !InRegion[M])
            continue;
          Leaf = false;
          Walk(M, Sum);
        }
      if (Leaf) {
        ++Paths;
        Best = std::max(Best, Sum);
      }
    };
    Walk(From, 0);
    return Best;
  }
};

class Oracle {
public:
  explicit Oracle(const Program &P) : P(P) {}

  Dag G;
  int Source = -1, Startup = -1;
  std::vector<int> MemberStarts;

  void build() {
    Source = G.node(0, false);
    int Cur = Source;
    Ctx Init;
    Init.Cur = Cur;
    body(P.InitBefore, 0, Init, false, nullptr);
    // The fork: members start from the initial task's point; its start-up
    // time runs beside them, up to the join.
    int Fork = Init.Cur;
    Startup = G.node(P.ForkNs, false);
    G.edge(Fork, Startup);
    int Join = G.node(0, false);
    G.BW[Join] = P.JoinNs; // burdened: the join takes its time
    G.edge(Startup, Join);
    std::vector<Ctx> M(P.Members);
    std::vector<std::size_t> Pos(P.Members, 0);
    std::vector<int> TeamTasks; // every task of the team so far
    for (unsigned I = 0; I < P.Members; ++I) {
      M[I].Cur = G.node(0, true);
      MemberStarts.push_back(M[I].Cur);
      G.edge(Fork, M[I].Cur);
      G.BOut[Startup].push_back(M[I].Cur); // burdened: after the fork time
    }
    for (;;) {
      bool Done = true;
      for (unsigned I = 0; I < P.Members; ++I) {
        const auto &Ops = P.Tasks[1 + I].Ops;
        std::vector<Op> Phase;
        while (Pos[I] < Ops.size() && Ops[Pos[I]].K != Op::Barrier)
          Phase.push_back(Ops[Pos[I]++]);
        body(Phase, int(1 + I), M[I], true, &TeamTasks);
        if (Pos[I] < Ops.size()) {
          ++Pos[I];
          Done = false;
        }
      }
      // A barrier (the last: the region's implicit one) joins the members
      // and every task of the team.
      int B = G.node(0, true);
      for (unsigned I = 0; I < P.Members; ++I) {
        G.edge(M[I].Cur, B);
        M[I].Cur = B;
      }
      for (int T : TeamTasks)
        G.edge(End[T], B);
      if (Done)
        break;
    }
    G.edge(M[0].Cur, Join);
    Init.Cur = Join;
    body(P.InitAfter, 0, Init, false, nullptr);
  }

private:
  const Program &P;
  std::map<int, int> Start, End; // task -> first/last node
  struct Ctx {
    int Cur = -1;
    std::vector<int> Children;            // created so far
    std::vector<std::vector<int>> Groups; // open taskgroups' members
  };

  void subtree(int T, std::vector<int> &Out) {
    Out.push_back(T);
    for (const Op &O : P.Tasks[T].Ops)
      if (O.K == Op::Create)
        subtree(O.Child, Out);
  }

  void body(const std::vector<Op> &Ops, int Self, Ctx &C, bool Region,
            std::vector<int> *TeamTasks) {
    for (const Op &O : Ops) {
      switch (O.K) {
      case Op::Compute: {
        int N = G.node(O.Ns, Region);
        G.edge(C.Cur, N);
        C.Cur = N;
        break;
      }
      case Op::Create: {
        int T = O.Child;
        Ctx Child;
        Child.Cur = G.node(0, Region);
        G.BW[Child.Cur] = P.Burden; // burdened: paid before it starts
        Start[T] = Child.Cur;
        G.edge(C.Cur, Child.Cur);
        body(P.Tasks[T].Ops, T, Child, Region, TeamTasks);
        End[T] = Child.Cur;
        dependences(Self, C.Children, T);
        C.Children.push_back(T);
        std::vector<int> Sub;
        subtree(T, Sub);
        for (auto &G : C.Groups)
          G.insert(G.end(), Sub.begin(), Sub.end());
        if (TeamTasks)
          TeamTasks->push_back(T);
        break;
      }
      case Op::Taskwait: {
        int J = G.node(0, Region);
        G.edge(C.Cur, J);
        for (int T : C.Children)
          G.edge(End[T], J);
        C.Cur = J;
        break;
      }
      case Op::GroupBegin:
        C.Groups.emplace_back();
        break;
      case Op::GroupEnd: {
        int J = G.node(0, Region);
        G.edge(C.Cur, J);
        for (int T : C.Groups.back())
          G.edge(End[T], J);
        C.Groups.pop_back();
        C.Cur = J;
        break;
      }
      case Op::Barrier:
        break;
      }
    }
    (void)Self;
  }

  /// An edge from every earlier sibling whose depend clause conflicts with
  /// T's on some address (transitive edges do not change path lengths).
  void dependences(int Self, const std::vector<int> &Earlier, int T) {
    (void)Self;
    auto isSet = [](DependenceType X) {
      return X == DependenceType::MutexInOutSet ||
             X == DependenceType::InOutSet;
    };
    for (std::size_t I = 0; I < Earlier.size(); ++I) {
      int Pr = Earlier[I];
      bool Conflict = false;
      for (auto [Addr, Tt] : P.Tasks[T].Deps)
        for (auto [AddrP, Tp] : P.Tasks[Pr].Deps) {
          if (Addr != AddrP)
            continue;
          if (Tt == DependenceType::In && Tp == DependenceType::In)
            continue;
          if (isSet(Tt) && Tt == Tp) {
            // Same group unless another kind of dependence on Addr came
            // in between.
            bool Broken = false;
            for (std::size_t J = I + 1; J < Earlier.size(); ++J)
              for (auto [AddrB, Tb] : P.Tasks[Earlier[J]].Deps)
                Broken |= AddrB == Addr && Tb != Tt;
            if (!Broken)
              continue;
          }
          Conflict = true;
        }
      if (Conflict)
        G.edge(End[Pr], Start[T]);
    }
  }
};

//===----------------------------------------------------------------------===//
// The simulator: the events the OMPT adapter would record.
//===----------------------------------------------------------------------===//

class Simulator {
public:
  Simulator(const Program &P, std::uint64_t Seed) : P(P), Rng(Seed) {}

  std::vector<std::pair<std::uint32_t, Event>> Events; // time order
  std::map<std::uint32_t, std::vector<Event>> PerThread;

  void run() {
    std::uint64_t &T0 = Clock[0];
    TaskId Init = P.Tasks[0].Id;
    emit(0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
    ops(0, 0, P.InitBefore);
    // The fork: the primary starts its implicit task ForkNs later, a worker
    // WorkerDelay after the fork (before or after the primary).
    std::uint64_t Fork = T0;
    emit(0, Event::parallelBegin(0, Init, Par, P.Members, 0, 0x500));
    T0 += P.ForkNs;
    for (unsigned M = 0; M < P.Members; ++M) {
      if (M)
        Clock[M] = Fork + P.WorkerDelay;
      emit(M, Event::implicitTaskBegin(0, P.Tasks[1 + M].Id, Par, P.Members,
                                       std::uint16_t(M), TaskImplicit));
    }
    std::vector<std::size_t> Pos(P.Members, 0);
    for (;;) {
      bool Done = true;
      for (unsigned M = 0; M < P.Members; ++M) {
        const auto &Ops = P.Tasks[1 + M].Ops;
        std::vector<Op> Phase;
        while (Pos[M] < Ops.size() && Ops[Pos[M]].K != Op::Barrier)
          Phase.push_back(Ops[Pos[M]++]);
        ops(M, 1 + int(M), Phase);
        if (Pos[M] < Ops.size()) {
          ++Pos[M];
          Done = false;
        }
      }
      barrier(Done ? SyncKind::BarrierImplicitParallel
                   : SyncKind::BarrierExplicit,
              Done ? 0x500 : 0x600);
      if (Done)
        break;
    }
    std::uint64_t End = 0;
    for (unsigned M = 0; M < P.Members; ++M) {
      emit(M, Event::implicitTaskEnd(0, P.Tasks[1 + M].Id));
      End = std::max(End, Clock[M]);
    }
    T0 = End + P.JoinNs;
    emit(0, Event::parallelEnd(0, Init, Par, 0x500));
    ops(0, 0, P.InitAfter);
    emit(0, Event::implicitTaskEnd(0, Init));
    std::stable_sort(Events.begin(), Events.end(),
                     [](const auto &A, const auto &B) {
                       return A.second.Time < B.second.Time;
                     });
  }

private:
  static constexpr ParallelId Par = 77;
  const Program &P;
  std::mt19937_64 Rng;
  std::map<std::uint32_t, std::uint64_t> Clock;
  std::map<std::uint32_t, bool> Waiting;
  std::map<TaskId, std::uint32_t> Seq;
  std::map<std::uint32_t, std::size_t> Last; // thread -> its last in Events
  std::map<int, std::vector<int>> Pending;   // created, not yet run

  /// E (from its kind's constructor) on thread Th at its clock, numbered in
  /// its task's sequence (E.Task).
  Event &emit(std::uint32_t Th, Event E) {
    const EventKind K = E.Kind;
    E.Time = Clock[Th];
    E.Seq = E.Task ? Seq[E.Task]++ : 0;
    // A sync region's wait at the same instant is folded into it, as the
    // adapter does, half of the time.
    auto &V = PerThread[Th];
    bool Fold = !V.empty() && Rng() % 2 &&
                ((K == EventKind::SyncWaitBegin &&
                  V.back().Kind == EventKind::SyncBegin) ||
                 (K == EventKind::SyncEnd &&
                  V.back().Kind == EventKind::SyncWaitEnd)) &&
                V.back().Time == E.Time && V.back().Task == E.Task &&
                V.back().syncKind() == E.syncKind() && !V.back().waitFolded();
    if (Fold && K == EventKind::SyncWaitBegin) {
      V.back().foldWait();
      Events[Last[Th]].second = V.back();
      return V.back();
    }
    if (Fold) { // SyncEnd after its wait's end: the end carries it
      E.foldWait();
      V.back() = E;
      Events[Last[Th]].second = E;
      return V.back();
    }
    V.push_back(E);
    Last[Th] = Events.size();
    Events.push_back({Th, E});
    return V.back();
  }

  void sync(std::uint32_t Th, TaskId Task, SyncKind K, std::uint64_t Code,
            bool Begin) {
    if (Begin) {
      emit(Th, Event::syncBegin(0, Task, 0, K, Code));
      emit(Th, Event::syncWaitBegin(0, Task, 0, K, Code));
    } else {
      emit(Th, Event::syncWaitEnd(0, Task, 0, K, Code));
      emit(Th, Event::syncEnd(0, Task, 0, K, Code));
    }
  }

  /// Runs T on Th from task Resume (a switch), then the tasks T created and
  /// left behind.
  void runTask(std::uint32_t Th, int T, TaskId Resume) {
    // From a wait, the runtime takes a while to start the task (waiting
    // time, the scheduling cost measured); elsewhere it starts at once
    // (time there would be the resumed task's execution).
    bool W = Waiting[Th];
    if (W)
      Clock[Th] += Rng() % 30;
    emit(Th,
         Event::taskSchedule(0, Resume, ScheduleStatus::Switch, P.Tasks[T].Id));
    Waiting[Th] = false;
    ops(Th, T, P.Tasks[T].Ops);
    emit(Th, Event::taskSchedule(0, P.Tasks[T].Id, ScheduleStatus::Complete,
                                 Resume));
    Waiting[Th] = W;
    flush(Th, T, Resume);
  }
  /// Runs Fn with thread Th in a sync wait.
  template <class Fn> void inWait(std::uint32_t Th, Fn &&F) {
    bool W = Waiting[Th];
    Waiting[Th] = true;
    F();
    Waiting[Th] = W;
  }
  /// Runs the tasks T created that have not run, in creation order (so a
  /// predecessor runs before its successors), from task Resume.
  void flush(std::uint32_t Th, int T, TaskId Resume) {
    std::vector<int> Q;
    Q.swap(Pending[T]);
    for (int C : Q)
      runTask(Th, C, Resume);
  }

  void ops(std::uint32_t Th, int Self, const std::vector<Op> &Ops) {
    TaskId Me = P.Tasks[Self].Id;
    for (const Op &O : Ops) {
      switch (O.K) {
      case Op::Compute:
        Clock[Th] += O.Ns;
        break;
      case Op::Create: {
        const TaskProg &C = P.Tasks[O.Child];
        emit(Th, Event::taskCreate(
                     0, Me, C.Id,
                     TaskExplicit | (C.Deps.empty() ? 0u : TaskHasDependences),
                     C.Code));
        for (auto [Addr, Type] : C.Deps)
          emit(Th, Event::taskDependence(0, C.Id, Addr, Type));
        if (Rng() % 3 == 0) { // run at once, after those created before
          flush(Th, Self, Me);
          runTask(Th, O.Child, Me);
        } else {
          Pending[Self].push_back(O.Child);
        }
        break;
      }
      case Op::Taskwait:
        sync(Th, Me, SyncKind::Taskwait, 0x200, true);
        inWait(Th, [&] { flush(Th, Self, Me); });
        sync(Th, Me, SyncKind::Taskwait, 0x200, false);
        break;
      case Op::GroupBegin:
        emit(Th, Event::syncBegin(0, Me, 0, SyncKind::Taskgroup, 0x300));
        break;
      case Op::GroupEnd:
        emit(Th, Event::syncWaitBegin(0, Me, 0, SyncKind::Taskgroup, 0x300));
        // Descendants run after their creators.
        inWait(Th, [&] { flush(Th, Self, Me); });
        sync(Th, Me, SyncKind::Taskgroup, 0x300, false);
        break;
      case Op::Barrier:
        break;
      }
    }
  }

  /// Every member arrives, runs what it left behind, and all leave 1 ns
  /// after the last is done.
  void barrier(SyncKind K, std::uint64_t Code) {
    std::uint64_t Leave = 0;
    for (unsigned M = 0; M < P.Members; ++M) {
      TaskId Me = P.Tasks[1 + M].Id;
      sync(M, Me, K, M == 0 ? Code : 0, true);
      inWait(M, [&] { flush(M, int(1 + M), Me); });
      Leave = std::max(Leave, Clock[M] + 1);
    }
    for (unsigned M = 0; M < P.Members; ++M) {
      Clock[M] = Leave;
      sync(M, P.Tasks[1 + M].Id, K, M == 0 ? Code : 0, false);
    }
  }
};

} // namespace otter::testprog

#endif
