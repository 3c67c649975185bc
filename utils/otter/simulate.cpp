//===- otter/simulate.cpp - Replaying a trace on P cores -----------------===//
//
// A discrete-event replay: a heap of the cores that are busy until some
// time; the earliest one runs its task's next step. Every step but Compute
// takes no time; waiting is decided by the replay, never taken from the
// trace. What a core does when its task cannot go on (it waited, or ended):
//  1. resume a suspended task of its own whose wait is over: the top of its
//     stack of suspended tasks (tied tasks resume where they were
//     suspended), or any below it while every task above waits at a
//     barrier or a join (those are the team's threads in reality: with
//     fewer cores than a team has members, several share a core);
//  2. the newest task of its own deque, if the task scheduling constraint
//     allows it (a new tied task must descend from every tied task
//     suspended in a taskwait or taskgroup on the core: libomp's rule);
//  3. a team member that has not started yet;
//  4. steal: the oldest allowed task of another core's deque, victims in
//     turn from the last one stolen from;
//  5. sleep until a task it may run is pushed or one of its own can resume.
// A task created goes to the bottom of its creator's deque (at once to its
// creator if undeferred, or when the deque holds DequeLimit tasks: libomp's
// throttling), a task released by its last predecessor to the releasing
// core's deque. Ties in time go by core number: the replay is
// deterministic.
//
// Devices (docs/offload.md, "Simulate"): one resource per device number,
// running one target region at a time, in the order they reach it, each
// for its measured duration (no speed-up invented for it). A task's
// target region (a Device step) holds its core until the device has run
// it: the host thread waits in it. A `nowait` target task (FTarget) runs
// on its device instead of a core, from when it is ready; its completion
// releases its successors as a task's does.
//
//===----------------------------------------------------------------------===//
#include "simulate.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>

namespace otter::sim {

namespace {

enum class WaitKind : std::uint8_t {
  None,
  Children,
  Group,
  Barrier,
  Join,
  Immediate,
  Forked
};

/// 20 bytes per task (fib 33: 228 MB per replay, two at a time).
struct TaskState {
  std::uint32_t Cursor = 0;     // the next step
  std::uint32_t Live = 0;       // children not completed
  std::uint32_t PredsLeft = 0;  // dependence predecessors not completed
  std::uint32_t Group = NoTask; // the taskgroup it belongs to
  std::uint16_t Core = 0;
  WaitKind Wait = WaitKind::None;
  bool Created : 1 = false, Resumable : 1 = false;
  bool HasOpenGroup : 1 = false; // an entry in Sim::OpenGroups
};
static_assert(sizeof(TaskState) == 20);

struct GroupState {
  std::uint32_t Outstanding = 0, Parent = NoTask, Owner = NoTask;
};

struct TeamState {
  std::uint32_t Arrived = 0, Outstanding = 0, Ended = 0;
  bool PrimaryDone = false;
  std::vector<std::uint32_t> AtBarrier;
};

struct Suspended {
  std::uint32_t Task;
  bool Constraining;     // a taskwait, taskgroup or undeferred child
  std::uint32_t Awaited; // the undeferred child it waits for
};

struct Core {
  std::uint32_t Cur = NoTask;
  bool PreDone = false; // the current step's execution has been paid
  bool Sleeping = false;
  std::uint64_t Extra = 0; // paid before the next step (join time)
  std::vector<Suspended> Stack;
  // The deque: a ring, Head (oldest) .. Tail (newest).
  std::vector<std::uint32_t> Ring = std::vector<std::uint32_t>(64);
  std::size_t Head = 0, Tail = 0;
  unsigned LastVictim = 0;
  std::size_t size() const { return Tail - Head; }
  std::uint32_t &at(std::size_t I) { return Ring[I & (Ring.size() - 1)]; }
  void pushBottom(std::uint32_t T) {
    if (size() == Ring.size()) {
      std::vector<std::uint32_t> R(Ring.size() * 2);
      for (std::size_t I = 0; I < size(); ++I)
        R[I] = at(Head + I);
      Tail = size();
      Head = 0;
      Ring.swap(R);
    }
    at(Tail++) = T;
  }
};

class Sim {
public:
  Sim(const Program &G, unsigned P, const Options &O)
      : G(G), O(O), Cores(P), Tasks(G.tasks()), Teams(G.Teams.size()) {
    for (std::size_t T = 0; T < G.tasks(); ++T) {
      Tasks[T].Cursor = G.StepBegin[T];
      Tasks[T].PredsLeft = G.NPreds[T];
    }
    Sched = std::uint64_t(
        std::llround(std::max(0.0, O.ScheduleNs + O.ContentionNs)));
    AllImmediate = O.SerialOneCore && P == 1;
    Deserialize = O.Deserialize && P > 1;
    for (std::uint8_t F : G.Flags)
      AnyUntied |= (F & FUntied) != 0;
  }

  Run run() {
    Run R;
    R.Cores = unsigned(Cores.size());
    // The first root on core 0, the others (a trace with several initial
    // tasks) as team members that have not started.
    for (std::size_t I = 0; I < G.Roots.size(); ++I) {
      std::uint32_t T = G.Roots[I];
      Tasks[T].Created = true;
      if (I == 0) {
        start(0, T);
        wakeAt(0, 0);
      } else
        ReadyMembers.push_back(T);
    }
    for (unsigned C = 1; C < Cores.size(); ++C)
      sleep(C);
    while (!Heap.empty()) {
      std::pop_heap(Heap.begin(), Heap.end(), std::greater<>());
      auto [T, C] = Heap.back();
      Heap.pop_back();
      Now = T;
      if (C >= Cores.size())
        deviceDone(C - unsigned(Cores.size()));
      else
        step(C);
    }
    R.MakespanNs = End;
    R.BusyNs = Busy;
    R.OverheadNs = Overhead;
    R.Dispatched = Dispatched;
    R.Steals = Steals;
    R.Immediate = Immediate;
    return R;
  }

private:
  const Program &G;
  const Options &O;
  std::vector<Core> Cores;
  std::vector<TaskState> Tasks;
  std::vector<TeamState> Teams;
  std::vector<GroupState> Groups;
  std::vector<std::uint32_t> FreeGroups;
  std::deque<std::uint32_t> ReadyMembers;
  /// Sets of cores with O(1) insertion and removal: the sleeping cores
  /// with no task scheduling constraint, those with one, and the cores
  /// whose deque holds tasks (the only victims worth trying).
  struct CoreSet {
    std::vector<unsigned> V;
    std::vector<std::uint32_t> Pos;
    explicit CoreSet(std::size_t N) : Pos(N, NoTask) {}
    bool has(unsigned C) const { return Pos[C] != NoTask; }
    void add(unsigned C) {
      if (has(C))
        return;
      Pos[C] = std::uint32_t(V.size());
      V.push_back(C);
    }
    void remove(unsigned C) {
      if (!has(C))
        return;
      unsigned Last = V.back();
      V[Pos[C]] = Last;
      Pos[Last] = Pos[C];
      V.pop_back();
      Pos[C] = NoTask;
    }
  };
  CoreSet FreeSleepers{Cores.size()}, HeldSleepers{Cores.size()},
      Victims{Cores.size()};
  std::vector<std::pair<std::uint64_t, unsigned>> Heap;
  std::uint64_t Now = 0, End = 0, Busy = 0, Overhead = 0, Sched = 0;
  std::uint64_t Dispatched = 0, Steals = 0, Immediate = 0;
  bool AllImmediate = false, AnyUntied = false, Deserialize = false;

  void wakeAt(unsigned C, std::uint64_t T) {
    Heap.push_back({T, C});
    std::push_heap(Heap.begin(), Heap.end(), std::greater<>());
  }
  void busy(unsigned C, std::uint64_t Ns) {
    Busy += Ns;
    wakeAt(C, Now + Ns);
  }
  void sleep(unsigned C) {
    Cores[C].Sleeping = true;
    (constraint(Cores[C]) == NoTask ? FreeSleepers : HeldSleepers).add(C);
  }
  void wake(unsigned C) {
    if (!Cores[C].Sleeping)
      return;
    Cores[C].Sleeping = false;
    FreeSleepers.remove(C);
    HeldSleepers.remove(C);
    wakeAt(C, Now);
  }
  /// The task a core's new tied tasks must descend from, if any.
  std::uint32_t constraint(const Core &K) const {
    for (std::size_t I = K.Stack.size(); I-- > 0;)
      if (K.Stack[I].Constraining)
        return K.Stack[I].Task;
    return NoTask;
  }
  bool allowed(std::uint32_t C, std::uint32_t T) const {
    return C == NoTask || G.descendant(T, C) ||
           (AnyUntied && (G.Flags[T] & FUntied));
  }
  /// T is ready: onto core C's deque; a sleeping core that may run it
  /// wakes up.
  void push(unsigned C, std::uint32_t T) {
    Cores[C].pushBottom(T);
    Victims.add(C);
    if (!FreeSleepers.V.empty()) {
      wake(FreeSleepers.V.back());
      return;
    }
    for (std::size_t I = HeldSleepers.V.size(); I-- > 0;) {
      unsigned S = HeldSleepers.V[I];
      if (allowed(constraint(Cores[S]), T)) {
        wake(S);
        return;
      }
    }
  }
  void start(unsigned C, std::uint32_t T) {
    Core &K = Cores[C];
    K.Cur = T;
    K.PreDone = false;
    Tasks[T].Core = std::uint16_t(C);
  }
  /// T's wait is over: its step is passed, it resumes on its core.
  /// Floating: T waited at a barrier or a join. It is a team's thread
  /// (or the one that forked it) in reality, never queued behind other
  /// work: if its core is busy and another sleeps, it moves there.
  void resumable(std::uint32_t T, bool Floating = false) {
    TaskState &S = Tasks[T];
    S.Resumable = true;
    ++S.Cursor;
    Core &K = Cores[S.Core];
    if (Floating && !K.Sleeping && !FreeSleepers.V.empty()) {
      for (std::size_t I = 0; I < K.Stack.size(); ++I)
        if (K.Stack[I].Task == T) {
          Suspended E = K.Stack[I];
          K.Stack.erase(K.Stack.begin() + std::ptrdiff_t(I));
          unsigned To = FreeSleepers.V.back();
          Cores[To].Stack.push_back(E);
          S.Core = std::uint16_t(To);
          break;
        }
    }
    wake(S.Core);
  }
  /// A team member ready to start: on a sleeping core if there is one (a
  /// thread of its own), else queued for the first core free.
  void startMember(std::uint32_t M, std::uint32_t Delayed) {
    Tasks[M].Created = true;
    CoreSet &S = !FreeSleepers.V.empty() ? FreeSleepers : HeldSleepers;
    if (S.V.empty()) {
      ReadyMembers.push_back(M);
      return;
    }
    // Its thread begins Delayed later (libomp creating or waking it): the
    // core is not there for anything else before (not busy either).
    unsigned C = S.V.back();
    Cores[C].Sleeping = false;
    FreeSleepers.remove(C);
    HeldSleepers.remove(C);
    wakeAt(C, Now + (O.Overheads ? Delayed : 0));
    Cores[C].Stack.push_back({M, false, NoTask});
    Tasks[M].Core = std::uint16_t(C);
    Tasks[M].Resumable = true; // (its cursor is at its first step)
  }
  void suspend(unsigned C, std::uint32_t T, WaitKind W, bool Constraining,
               std::uint32_t Awaited = NoTask) {
    Tasks[T].Wait = W;
    Tasks[T].Resumable = false;
    Cores[C].Stack.push_back({T, Constraining, Awaited});
    Cores[C].Cur = NoTask;
  }

  /// Every member has arrived and every task of the team has completed:
  /// they leave after the barrier's release time as measured (from when it
  /// could end to the first member's leaving it). Last: the member that
  /// arrives now and goes on at once, if any.
  void releaseBarrier(std::uint32_t TI, std::uint32_t Last = NoTask) {
    TeamState &TS = Teams[TI];
    TS.Arrived = 0;
    std::vector<std::uint32_t> Waiting;
    Waiting.swap(TS.AtBarrier);
    std::uint64_t Release = 0;
    if (O.Overheads) {
      for (std::uint32_t M : Waiting)
        Release =
            std::max<std::uint64_t>(Release, argOf(G.Steps[Tasks[M].Cursor]));
      if (Last != NoTask)
        Release = std::max<std::uint64_t>(Release,
                                          argOf(G.Steps[Tasks[Last].Cursor]));
    }
    for (std::uint32_t M : Waiting) {
      if (Release)
        Delay[M] = Release;
      resumable(M, true);
    }
    if (Last != NoTask && Release) {
      Cores[Tasks[Last].Core].Extra += Release;
      Overhead += Release;
    }
  }
  void checkBarrier(std::uint32_t TI) {
    if (TI == NoTask)
      return;
    TeamState &TS = Teams[TI];
    const TeamRec &TR = G.Teams[TI];
    if (TS.Arrived && TS.Arrived >= TR.Members && TS.Outstanding == 0)
      releaseBarrier(TI);
  }

  void complete(unsigned C, std::uint32_t T) {
    std::uint8_t F = G.Flags[T];
    End = std::max(End, Now); // the last task to complete
    if (F & FInitial)
      return;
    if (F & FImplicit) {
      std::uint32_t TI = G.Team[T];
      TeamState &TS = Teams[TI];
      const TeamRec &TR = G.Teams[TI];
      ++TS.Ended;
      // The join follows the primary member (the region's implicit barrier
      // joined the others on its path; analysis_teams.cpp).
      if (T == G.Members[TR.FirstMember])
        TS.PrimaryDone = true;
      if (T == G.Members[TR.FirstMember] && TR.Enc != NoTask &&
          Tasks[TR.Enc].Wait == WaitKind::Join) {
        Tasks[TR.Enc].Wait = WaitKind::None;
        if (O.Overheads && TR.JoinNs)
          Delay[TR.Enc] = TR.JoinNs;
        resumable(TR.Enc, true);
      }
      return;
    }
    TaskState &S = Tasks[T];
    std::uint32_t P = G.Parent[T];
    if (P != NoTask && Tasks[P].Live && --Tasks[P].Live == 0 &&
        Tasks[P].Wait == WaitKind::Children) {
      Tasks[P].Wait = WaitKind::None;
      releaseAfter(P);
      resumable(P);
    }
    if (S.Group != NoTask) {
      GroupState &Gr = Groups[S.Group];
      if (--Gr.Outstanding == 0 && Tasks[Gr.Owner].Wait == WaitKind::Group &&
          openGroup(Gr.Owner) == S.Group) {
        closeGroup(Gr.Owner);
        Tasks[Gr.Owner].Wait = WaitKind::None;
        releaseAfter(Gr.Owner);
        resumable(Gr.Owner);
      }
    }
    std::uint32_t TI = G.Team[T];
    if (TI != NoTask) {
      --Teams[TI].Outstanding;
      checkBarrier(TI);
    }
    for (std::uint32_t I = G.SuccBegin[T]; I < G.SuccBegin[T + 1]; ++I) {
      std::uint32_t X = G.Succ[I];
      if (--Tasks[X].PredsLeft == 0 && Tasks[X].Created)
        ready(C, X);
    }
    // A child run at once: its creator waits for it (its cursor is past
    // the Create already).
    if (P != NoTask && Tasks[P].Wait == WaitKind::Immediate) {
      unsigned PC = Tasks[P].Core;
      for (const Suspended &X : Cores[PC].Stack)
        if (X.Task == P && X.Awaited == T) {
          Tasks[P].Wait = WaitKind::None;
          Tasks[P].Resumable = true;
          wake(PC);
          break;
        }
    }
    (void)C;
  }

  /// T's taskwait or taskgroup end (its current step) is over: it resumes
  /// after the release time measured there.
  void releaseAfter(std::uint32_t T) {
    std::uint32_t R = argOf(G.Steps[Tasks[T].Cursor]);
    if (O.Overheads && R)
      Delay[T] = R;
  }
  /// The same, when the wait was over on arrival: paid at once.
  void releaseNow(unsigned C, std::uint64_t W) {
    if (O.Overheads && argOf(W)) {
      Cores[C].Extra += argOf(W);
      Overhead += argOf(W);
    }
  }

  /// The innermost open taskgroup of T (few tasks have one: a map).
  std::unordered_map<std::uint32_t, std::uint32_t> OpenGroups;
  std::uint32_t openGroup(std::uint32_t T) const {
    if (!Tasks[T].HasOpenGroup)
      return NoTask;
    return OpenGroups.find(T)->second;
  }
  void setOpenGroup(std::uint32_t T, std::uint32_t Gi) {
    Tasks[T].HasOpenGroup = Gi != NoTask;
    if (Gi == NoTask)
      OpenGroups.erase(T);
    else
      OpenGroups[T] = Gi;
  }

  void closeGroup(std::uint32_t T) {
    std::uint32_t G0 = openGroup(T);
    setOpenGroup(T, Groups[G0].Parent);
    FreeGroups.push_back(G0);
  }

  /// A created task whose predecessors have completed (a target task: to
  /// its device).
  void ready(unsigned C, std::uint32_t T) {
    if (!(G.Flags[T] & FTarget) || !toDevice(T))
      push(C, T);
  }

  /// Each device's next free time, by device number (deviceOf).
  std::vector<std::uint64_t> DeviceFree = std::vector<std::uint64_t>(256);
  /// Target tasks on a device; heap entries Cores.size() + index.
  std::vector<std::uint32_t> OnDevice;
  /// Device D runs Ns from now or when it is free: when it is done.
  std::uint64_t reserve(unsigned D, std::uint64_t Ns) {
    std::uint64_t Start = std::max(Now, DeviceFree[D]);
    DeviceFree[D] = Start + Ns;
    return Start + Ns;
  }
  /// Target task T to its device for all it measured (its target region
  /// and its execution around it, the runtime's). False: it has no target
  /// region (it runs on a core, as a task).
  bool toDevice(std::uint32_t T) {
    std::uint64_t Ns = 0;
    unsigned D = 256;
    for (std::uint32_t I = G.StepBegin[T];; ++I) {
      std::uint64_t W = G.Steps[I];
      Ns += preOf(W);
      if (stepOf(W) == Step::Device) {
        D = std::min(D, deviceOf(W));
        Ns += deviceNsOf(W);
      }
      if (stepOf(W) == Step::End)
        break;
    }
    if (D == 256)
      return false;
    Tasks[T].Created = true;
    wakeAt(unsigned(Cores.size() + OnDevice.size()), reserve(D, Ns));
    OnDevice.push_back(T);
    return true;
  }
  /// A target task's device is done with it: it completes (its successors
  /// to its creator's core).
  void deviceDone(unsigned I) {
    std::uint32_t T = OnDevice[I];
    std::uint32_t P = G.Parent[T];
    complete(P != NoTask ? Tasks[P].Core : 0, T);
  }

  /// Finds core C's next task (see the file comment); false: it sleeps.
  bool findWork(unsigned C) {
    Core &K = Cores[C];
    for (std::size_t I = K.Stack.size(); I-- > 0;) {
      Suspended S = K.Stack[I];
      if (Tasks[S.Task].Resumable) {
        K.Stack.erase(K.Stack.begin() + std::ptrdiff_t(I));
        Tasks[S.Task].Resumable = false;
        Tasks[S.Task].Wait = WaitKind::None;
        K.Cur = S.Task;
        K.PreDone = false;
        if (!Delay.empty()) {
          auto It = Delay.find(S.Task);
          if (It != Delay.end()) {
            K.Extra += It->second;
            Overhead += It->second;
            Delay.erase(It);
          }
        }
        return true;
      }
      if (S.Constraining)
        break;
    }
    std::uint32_t Con = constraint(K);
    if (K.size() && allowed(Con, K.at(K.Tail - 1))) {
      std::uint32_t T = K.at(--K.Tail);
      if (!K.size())
        Victims.remove(C);
      dispatch(C, T);
      return true;
    }
    if (!ReadyMembers.empty()) {
      std::uint32_t T = ReadyMembers.front();
      ReadyMembers.pop_front();
      start(C, T);
      return true;
    }
    // Victims in turn, from the last one this core stole from.
    std::size_t N = Victims.V.size();
    std::size_t From =
        Victims.has(K.LastVictim) ? Victims.Pos[K.LastVictim] : 0;
    for (std::size_t I = 0; I < N; ++I) {
      unsigned V = Victims.V[(From + I) % N];
      if (V == C)
        continue;
      Core &Vk = Cores[V];
      for (std::size_t J = Vk.Head; J < Vk.Tail; ++J) {
        std::uint32_t T = Vk.at(J);
        if (!allowed(Con, T))
          continue;
        // Take it out: the ones before it move up by one.
        for (std::size_t X = J; X > Vk.Head; --X)
          Vk.at(X) = Vk.at(X - 1);
        ++Vk.Head;
        if (!Vk.size())
          Victims.remove(V);
        K.LastVictim = V;
        ++Steals;
        dispatch(C, T);
        return true;
      }
    }
    return false;
  }

  void dispatch(unsigned C, std::uint32_t T) {
    start(C, T);
    ++Dispatched;
    if (Sched)
      Overhead += Sched;
    Cores[C].Extra += Sched;
  }

  /// Task T on core C creates task X: deferred to the core's deque, or
  /// run at once by T (undeferred, included, a team of one, a full deque).
  void create(unsigned C, std::uint32_t T, std::uint32_t X) {
    TaskState &S = Tasks[T];
    TaskState &XS = Tasks[X];
    ++S.Cursor;
    XS.Created = true;
    ++S.Live;
    std::uint32_t Open = openGroup(T);
    XS.Group = Open != NoTask ? Open : S.Group;
    if (XS.Group != NoTask)
      ++Groups[XS.Group].Outstanding;
    if (G.Team[X] != NoTask)
      ++Teams[G.Team[X]].Outstanding;
    std::uint8_t XF = G.Flags[X];
    bool Now0 =
        !(XF & FTarget) && (AllImmediate ||
        ((XF & FImmediate) && !(Deserialize && (XF & FSerialized))) ||
        (O.DequeLimit && Cores[C].size() >= O.DequeLimit));
    if (Now0) {
      // Run at once by its creator, which waits for it here.
      ++Immediate;
      suspend(C, T, WaitKind::Immediate, true, X);
      if (XS.PredsLeft == 0)
        start(C, X);
      return;
    }
    if (XS.PredsLeft == 0)
      ready(C, X);
  }

  /// Task T opens a taskgroup inside the one it has open (if any).
  void openNewGroup(std::uint32_t T) {
    std::uint32_t Gi;
    if (!FreeGroups.empty()) {
      Gi = FreeGroups.back();
      FreeGroups.pop_back();
      Groups[Gi] = GroupState();
    } else {
      Gi = std::uint32_t(Groups.size());
      Groups.emplace_back();
    }
    Groups[Gi].Parent = openGroup(T);
    Groups[Gi].Owner = T;
    setOpenGroup(T, Gi);
  }

  /// Task T on core C forks team TI (or, back at the step after a fork
  /// time run beside the members, waits for its join). True: core C is
  /// busy with the fork time until later (step returns).
  bool forkTeam(unsigned C, std::uint32_t T, std::uint32_t TI) {
    TaskState &S = Tasks[T];
    const TeamRec &TR = G.Teams[TI];
    if (S.Wait == WaitKind::Forked) {
      // Without overheads: the fork time is spent beside the members
      // (the task graph's view); then the join.
      S.Wait = WaitKind::None;
      if (Teams[TI].PrimaryDone) {
        ++S.Cursor;
        return false;
      }
      suspend(C, T, WaitKind::Join, false);
      return false;
    }
    Teams[TI] = TeamState();
    if (TR.Members == 0) {
      ++S.Cursor;
      return false;
    }
    bool Beside = !O.Overheads && TR.ForkNs;
    if (!Beside)
      suspend(C, T, WaitKind::Join, false);
    // The primary member on this core (with overheads: the fork time
    // has been paid), the others to any core.
    for (std::uint32_t I = 0; I < TR.Members; ++I) {
      std::uint32_t M = G.Members[TR.FirstMember + I];
      if (I == 0 && !Beside) {
        Tasks[M].Created = true;
        start(C, M);
        continue;
      }
      startMember(M, G.MemberDelay[TR.FirstMember + I]);
    }
    if (Beside) {
      S.Wait = WaitKind::Forked;
      Cores[C].PreDone = true; // back to this step after the fork time
      busy(C, TR.ForkNs);
      return true;
    }
    return false;
  }

  /// Core C at time Now: runs its task's steps until one takes time (it
  /// goes back into the heap) or it has nothing to do (it sleeps).
  void step(unsigned C) {
    Core &K = Cores[C];
    for (;;) {
      if (K.Cur == NoTask) {
        if (!findWork(C)) {
          sleep(C);
          return;
        }
        continue;
      }
      std::uint32_t T = K.Cur;
      TaskState &S = Tasks[T];
      std::uint64_t W = G.Steps[S.Cursor];
      if (!K.PreDone) {
        K.PreDone = true;
        std::uint64_t Pre = preOf(W) + K.Extra;
        if (O.Overheads && stepOf(W) == Step::Fork)
          Pre += G.Teams[argOf(W)].ForkNs;
        K.Extra = 0;
        if (Pre) {
          // Still the earliest core when done: no need to go through the
          // heap (ties go by core number, as the heap orders them).
          std::uint64_t Done = Now + Pre;
          if (Heap.empty() || Done < Heap.front().first ||
              (Done == Heap.front().first && C < Heap.front().second)) {
            Busy += Pre;
            Now = Done;
            continue;
          }
          busy(C, Pre);
          return;
        }
      }
      K.PreDone = false;
      switch (stepOf(W)) {
      case Step::Compute:
        ++S.Cursor;
        break;
      case Step::Create:
        create(C, T, argOf(W));
        break;
      case Step::Taskwait:
        if (S.Live == 0) {
          releaseNow(C, W);
          ++S.Cursor;
          break;
        }
        // resumable() passes the step when the last child completes.
        suspend(C, T, WaitKind::Children, true);
        break;
      case Step::GroupBegin:
        openNewGroup(T);
        ++S.Cursor;
        break;
      case Step::GroupEnd:
        if (std::uint32_t Open = openGroup(T);
            Open == NoTask || Groups[Open].Outstanding == 0) {
          if (Open != NoTask)
            closeGroup(T);
          releaseNow(C, W);
          ++S.Cursor;
          break;
        }
        suspend(C, T, WaitKind::Group, true);
        break;
      case Step::Barrier: {
        std::uint32_t TI = G.Team[T];
        TeamState &TS = Teams[TI];
        ++TS.Arrived;
        if (TS.Arrived >= G.Teams[TI].Members && TS.Outstanding == 0) {
          releaseBarrier(TI, T);
          ++S.Cursor;
          break;
        }
        TS.AtBarrier.push_back(T);
        suspend(C, T, WaitKind::Barrier, false);
        break;
      }
      case Step::Fork:
        if (forkTeam(C, T, argOf(W)))
          return; // the fork time runs beside the members
        break;
      case Step::End:
        K.Cur = NoTask;
        complete(C, T);
        break;
      case Step::Device:
        // The task (and its core) waits for its device to run the region.
        ++S.Cursor;
        wakeAt(C, reserve(deviceOf(W), deviceNsOf(W)));
        return;
      }
    }
  }

  /// Time a task pays when it resumes: a region's join time, a barrier's
  /// release time.
  std::unordered_map<std::uint32_t, std::uint64_t> Delay;
};

} // namespace

Run simulate(const Program &G, unsigned Cores, const Options &O) {
  Sim S(G, std::max(1u, Cores), O);
  return S.run();
}

} // namespace otter::sim
