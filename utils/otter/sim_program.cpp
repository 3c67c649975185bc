//===- otter/sim_program.cpp - The measured program, for replay ----------===//
//
// The recorder: one pass over the events in time order. Time between a
// thread's events is charged as the analyses charge it (analysis.cpp,
// chargeTime): to the running task's execution unless it is waiting (a
// sync wait or a lock acquisition). A task's steps are buffered while it is
// live and appended to the program in one piece when it ends, so each
// task's steps are contiguous without a sort (the buffers are recycled:
// memory follows the live tasks).
//
// Where each step goes in the task's order, and why:
//  - Create at the TaskCreate event; dependences (rules.h, rule 5) give
//    edges from earlier siblings, forgotten at the creator's taskwait as
//    the analyses do;
//  - Taskwait, GroupEnd and Barrier at the sync region's end (the time
//    before is the task's execution; the waiting is what the replay
//    decides); GroupBegin at the taskgroup's begin;
//  - Fork at ParallelBegin; the encountering task's execution until
//    ParallelEnd is the region's fork time (libomp starting the team), the
//    encountering thread's idle time from its implicit task's end to
//    ParallelEnd the join time;
//  - End at the task's completion;
//  - Device at a target region's end (target_end, docs/offload.md): the
//    region's wall time from its target_begin, charged to no task; the
//    host plugin's kernel threads (the league the region's task begins,
//    its teams, what they create) are device work (FDevice): no steps, no
//    time charged, never replayed; so is libomp's hidden helper team (an
//    initial task's parallel region that setRuntimeTeam recognises).
//
//===----------------------------------------------------------------------===//
#include "sim_program.h"
#include "states.h"

#include <algorithm>
#include <cctype>

namespace otter::sim {

namespace {
std::uint64_t word(Step S, std::uint64_t Pre, std::uint32_t Arg) {
  return std::uint64_t(S) | (Pre << 4) | (std::uint64_t(Arg) << 32);
}
} // namespace

bool hasIfClause(std::string_view Clauses) {
  for (std::size_t I = Clauses.find("if"); I != std::string_view::npos;
       I = Clauses.find("if", I + 1)) {
    bool Start = I == 0 || !(std::isalnum((unsigned char)Clauses[I - 1]) ||
                             Clauses[I - 1] == '_');
    std::size_t J = I + 2;
    while (J < Clauses.size() && Clauses[J] == ' ')
      ++J;
    if (Start && J < Clauses.size() && Clauses[J] == '(')
      return true;
  }
  return false;
}

std::uint64_t Program::memoryBytes() const {
  return Steps.capacity() * 8 +
         (StepBegin.capacity() + Parent.capacity() + Team.capacity() +
          Pre.capacity() + Size.capacity() + SuccBegin.capacity() +
          Succ.capacity() + NPreds.capacity() + Members.capacity()) *
             4 +
         Flags.capacity() + Teams.capacity() * sizeof(TeamRec);
}

struct Recorder::Impl {
  struct Wait {
    std::uint32_t Task;
    bool Mutex;
  };
  struct Thread {
    bool Seen = false;
    std::uint32_t Cur = NoTask;
    std::uint64_t Last = 0;
    std::vector<Wait> Waits;
    std::uint64_t WaitBegin = 0, LastComplete = 0;
    std::uint32_t LastImplTeam = NoTask;
    std::uint64_t LastImplEnd = 0;
    bool InTool = false; // between a ToolBegin and its ToolEnd
  };
  struct Live {
    std::uint64_t Pre = 0; // execution since the last step
    std::uint32_t Buf = NoTask;
    std::uint32_t Barriers = 0; // a member's barriers so far
    bool Ended = false;
    std::uint64_t LastChildEnd = 0; // its children's last completion
    std::uint32_t TargetDepth = 0;  // in a target region (Device step)
    std::uint64_t TargetBegin = 0;
  };
  struct Deps {
    rules::DependenceRules Rules;
    std::uint32_t Child = NoTask;
    std::vector<std::uint32_t> Linked;
  };
  struct TeamBuild {
    TeamRec R;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>
        Members;                       // (index, task)
    std::vector<std::uint64_t> Begins; // each member's begin, by Members
    /// A barrier's release time: from when it could end (the last member
    /// arrived, the team's last task completed) to the first member's
    /// leaving it. Two instances in flight, by parity (analysis_teams.cpp).
    struct Bar {
      std::uint32_t K = NoTask;
      std::uint64_t LastArrive = 0, Release = ~0ull;
    } Bars[2];
    std::uint64_t LastTaskEnd = 0;
    // The team's size (its members' implicit task begin) and the threads
    // its parallel region asked for; Forked: a parallel region's team, not
    // an initial task's.
    std::uint32_t Size = 0, Requested = 0;
    bool Forked = false;
    // Begun inside a target region or by device work (FDevice); a league.
    bool Device = false, League = false;
    Bar &bar(std::uint32_t K) {
      Bar &B = Bars[K & 1];
      if (B.K != K)
        B = Bar{K, 0, ~0ull};
      return B;
    }
  };

  Program G;
  rules::TaskIndex Ids;
  std::vector<Live> Lives;
  std::vector<std::vector<std::uint64_t>> Bufs;
  // Recording sites: each buffer's steps' sites, and the sites' indices.
  bool RecordSites = false;
  std::uint64_t RecordingCostNs = 0; // setRecordingCost
  std::vector<std::vector<std::uint32_t>> SiteBufs;
  std::unordered_map<std::uint64_t, std::uint32_t> SiteIndex;
  std::vector<std::uint32_t> FreeBufs;
  std::vector<Thread> Threads;
  std::vector<TeamBuild> Teams;
  std::unordered_map<std::uint64_t, std::uint32_t> TeamOf; // parallel id
  std::unordered_map<std::uint32_t, Deps> DepsOf;          // creator
  std::vector<std::pair<std::uint32_t, std::uint32_t>> Edges;
  std::vector<std::uint32_t> Scratch;
  bool TooLarge = false;
  std::uint64_t Now = 0; // the event being read
  std::function<bool(std::uint64_t)> HasIf, IsRuntimeTeam;
  std::uint32_t OpenDeviceLeagues = 0; // a kernel's leagues begun, not ended

  std::uint32_t task(TaskId Id) const { return Id ? Ids.find(Id) : NoTask; }

  std::uint32_t site(std::uint64_t Code) {
    if (!Code)
      return 0;
    auto [It, New] = SiteIndex.try_emplace(Code, std::uint32_t(G.Sites.size()));
    if (New)
      G.Sites.push_back(Code);
    return It->second;
  }

  std::uint32_t newTask(TaskId Id, std::uint32_t Parent, std::uint32_t Team,
                        std::uint8_t Flags) {
    std::size_t N = G.Flags.size();
    if (N >= NoTask - 1) {
      TooLarge = true;
      return NoTask;
    }
    std::uint32_t T = std::uint32_t(N);
    G.Flags.push_back(Flags);
    G.Parent.push_back(Parent);
    G.Team.push_back(Team);
    G.StepBegin.push_back(0);
    Live L;
    if (!FreeBufs.empty()) {
      L.Buf = FreeBufs.back();
      FreeBufs.pop_back();
    } else {
      L.Buf = std::uint32_t(Bufs.size());
      Bufs.emplace_back();
      if (RecordSites)
        SiteBufs.emplace_back();
    }
    Lives.push_back(L);
    if (Id)
      Ids.cell(Id) = T;
    return T;
  }

  /// Appends step S of task T, after the execution measured since its
  /// previous step.
  void step(std::uint32_t T, Step S, std::uint32_t Arg = 0,
            std::uint64_t Code = 0) {
    Live &L = Lives[T];
    if (L.Ended || ((G.Flags[T] & FDevice) && S != Step::End))
      return;
    std::vector<std::uint64_t> &B = Bufs[L.Buf];
    std::uint64_t Pre = L.Pre;
    G.ComputeNs += Pre;
    L.Pre = 0;
    if (Pre > MaxPre) {
      B.push_back(word(Step::Compute, 0, 0) | (Pre << 4));
      if (RecordSites)
        SiteBufs[L.Buf].push_back(0);
      Pre = 0;
    }
    B.push_back(word(S, Pre, Arg));
    if (RecordSites)
      SiteBufs[L.Buf].push_back(site(Code));
    if (S == Step::End)
      endTask(T);
  }

  /// Task T's target region ends: a Device step of its wall time, after
  /// the execution before the region (a Compute step).
  void deviceStep(std::uint32_t T, const Event &E) {
    Live &L = Lives[T];
    if (L.Ended || (G.Flags[T] & FDevice))
      return;
    if (L.Pre)
      step(T, Step::Compute);
    std::uint64_t Ns = E.Time - std::min(E.Time, L.TargetBegin);
    Bufs[L.Buf].push_back(deviceWord(E.device(), Ns));
    G.DeviceNs += Ns;
    ++G.DeviceSteps;
    if (RecordSites)
      SiteBufs[L.Buf].push_back(site(E.Code));
  }
  /// Whether T's time is device work, charged to no task.
  bool onDevice(std::uint32_t T) const {
    return Lives[T].TargetDepth || (G.Flags[T] & FDevice);
  }

  void endTask(std::uint32_t T) {
    Live &L = Lives[T];
    L.Ended = true;
    if (std::uint32_t P = G.Parent[T];
        P != NoTask && !(G.Flags[T] & (FInitial | FImplicit)))
      Lives[P].LastChildEnd = std::max(Lives[P].LastChildEnd, Now);
    if (!(G.Flags[T] & (FInitial | FImplicit)) && G.Team[T] != NoTask)
      Teams[G.Team[T]].LastTaskEnd =
          std::max(Teams[G.Team[T]].LastTaskEnd, Now);
    std::vector<std::uint64_t> &B = Bufs[L.Buf];
    if (G.Steps.size() + B.size() >= NoTask)
      TooLarge = true;
    G.StepBegin[T] = std::uint32_t(G.Steps.size());
    G.Steps.insert(G.Steps.end(), B.begin(), B.end());
    B.clear();
    if (RecordSites) {
      std::vector<std::uint32_t> &SB = SiteBufs[L.Buf];
      G.StepSite.insert(G.StepSite.end(), SB.begin(), SB.end());
      SB.clear();
    }
    if (B.capacity() > 64)
      B.shrink_to_fit(); // a task with many steps: do not keep its buffer
    FreeBufs.push_back(L.Buf);
    L.Buf = NoTask;
    DepsOf.erase(T);
  }

  /// A task undeferred only because its team has one thread (FSerialized).
  /// libomp 19 reports every task of a serialized team as undeferred, as it
  /// reports an if(0) task or a final one: the flags cannot tell them
  /// apart, the context can. Final: kept (the final flag is reported, and
  /// the descendants of a final task carry it). if(0): only a construct
  /// with an if clause can be (the plugin's clause text). A team of one
  /// whose region asked for more threads (a nested region while nesting is
  /// inactive, a thread limit) stays serialized on more cores, and so do
  /// tasks of an initial task's team (outside any parallel region).
  bool serialized(const Event &E, std::uint32_t Team) const {
    if (!(E.flags() & TaskUndeferred) || (E.flags() & TaskFinal) ||
        Team == NoTask)
      return false;
    const TeamBuild &TB = Teams[Team];
    if (!TB.Forked || TB.Size != 1 || TB.Requested > 1)
      return false;
    return !(HasIf && HasIf(E.code()));
  }

  std::uint32_t teamFor(std::uint64_t ParId) {
    auto [It, New] = TeamOf.try_emplace(ParId, std::uint32_t(Teams.size()));
    if (New)
      Teams.emplace_back();
    return It->second;
  }

  void charge(Thread &TS, const Event &E) {
    if (TS.Seen && TS.Cur != NoTask && E.Time > TS.Last && !TS.InTool) {
      // OTTER's own time is no task's (analysis.cpp, chargeTime).
      std::uint64_t Dt = E.Time - TS.Last;
      Dt -= analysis::recordingCostIn(Dt, RecordingCostNs);
      if ((TS.Waits.empty() || TS.Waits.back().Task != TS.Cur) &&
          !onDevice(TS.Cur))
        Lives[TS.Cur].Pre += Dt;
    }
    TS.Seen = true;
    TS.Last = std::max(TS.Last, E.Time);
  }

  void popWait(Thread &TS, std::uint32_t T, bool Mutex) {
    for (std::size_t I = TS.Waits.size(); I-- > 0;) {
      Wait &W = TS.Waits[I];
      if (W.Mutex != Mutex || (!Mutex && W.Task != T && T != NoTask))
        continue;
      TS.Waits.resize(I);
      return;
    }
  }

  void dependence(std::uint32_t Child, std::uint64_t Addr,
                  DependenceType Type) {
    std::uint32_t Creator = G.Parent[Child];
    if (Creator == NoTask)
      return;
    Deps &D = DepsOf[Creator];
    if (D.Child != Child) {
      D.Child = Child;
      D.Linked.clear();
    }
    Scratch.clear();
    D.Rules.add(Addr, Type, Child, Scratch);
    // No predecessor is dropped as waited for: such an edge comes from a
    // task that completed before a construct that precedes Child's
    // creation, so it never delays Child in a replay either.
    rules::resolvePredecessors(Scratch, Child,
                               [](std::uint32_t) { return false; });
    for (std::uint32_t P : Scratch) {
      if (std::find(D.Linked.begin(), D.Linked.end(), P) != D.Linked.end())
        continue;
      D.Linked.push_back(P);
      Edges.push_back({P, Child});
    }
  }

  /// An implicit task begins: of an initial task's team of its own, or a
  /// member of its parallel region's team. False: too many tasks.
  bool implicitBegin(Thread &TS, const Event &E) {
    std::uint32_t S;
    if ((E.Extra & TaskInitial) && !E.A && OpenDeviceLeagues) {
      // A team's initial task of a kernel's league (the host plugin).
      S = newTask(E.Task, NoTask, NoTask, FDevice);
      if (S == NoTask)
        return false;
    } else if (E.A && Teams[teamFor(E.A)].Device) {
      S = newTask(E.Task, NoTask, NoTask, FDevice);
      if (S == NoTask)
        return false;
    } else if ((E.Extra & TaskInitial) || !E.A) {
      std::uint32_t TI = std::uint32_t(Teams.size());
      Teams.emplace_back();
      S = newTask(E.Task, NoTask, TI, FInitial);
      if (S == NoTask)
        return false;
      Teams[TI].Members.push_back({0, S});
      Teams[TI].Begins.push_back(E.Time);
      G.Roots.push_back(S);
    } else {
      std::uint32_t TI = teamFor(E.A);
      S = newTask(E.Task, Teams[TI].R.Enc, TI, FImplicit);
      if (S == NoTask)
        return false;
      Teams[TI].Members.push_back({E.Sub, S});
      Teams[TI].Begins.push_back(E.Time);
      Teams[TI].Size = std::max(Teams[TI].Size, E.teamSize());
    }
    TS.Cur = S;
    return true;
  }

  /// A parallel region ends (on its encountering task's thread): its fork
  /// and join times.
  void parallelEnd(Thread &TS, const Event &E, std::uint32_t T) {
    auto It = TeamOf.find(E.A);
    if (It == TeamOf.end())
      return;
    TeamRec &R = Teams[It->second].R;
    if (T != NoTask && T == R.Enc && !Teams[It->second].Device) {
      // The encountering task's execution since the fork: the fork time.
      R.ForkNs = Lives[T].Pre;
      G.ComputeNs += Lives[T].Pre;
      Lives[T].Pre = 0;
    }
    if (TS.LastImplTeam == It->second && E.Time >= TS.LastImplEnd)
      R.JoinNs = E.Time - TS.LastImplEnd;
    TS.LastImplTeam = NoTask;
    if (Teams[It->second].League && Teams[It->second].Device)
      --OpenDeviceLeagues;
    TeamOf.erase(It);
    if (T != NoTask)
      TS.Cur = T;
  }

  /// A synchronization construct ends: a taskwait, a taskgroup's end or a
  /// barrier step, with its release time.
  void syncEnd(Thread &TS, const Event &E, std::uint32_t T) {
    auto SK = static_cast<SyncKind>(E.Sub);
    rules::Construct K;
    if (T == NoTask || !rules::constructOfSync(SK, K))
      return;
    // A taskwait's or taskgroup's release time: from when it could end
    // (its children done, its wait begun, the thread's last task done) to
    // its end. (A taskgroup's descendants are not followed: its
    // children's last completion stands for them.)
    std::uint64_t Ready =
        std::max({Lives[T].LastChildEnd, TS.WaitBegin, TS.LastComplete});
    auto Release = std::uint32_t(
        std::min<std::uint64_t>(E.Time - std::min(E.Time, Ready), ~0u));
    switch (rules::waitScopeOf(SK)) {
    case rules::WaitScope::Children:
      step(T, Step::Taskwait, Release, E.Code);
      // Every sibling so far has been waited for (rules.h, rule 5).
      if (auto It = DepsOf.find(T); It != DepsOf.end())
        It->second.Rules.clear();
      break;
    case rules::WaitScope::Taskgroup:
      step(T, Step::GroupEnd, Release, E.Code);
      break;
    case rules::WaitScope::Team: {
      std::uint64_t Release = 0;
      if (G.Team[T] != NoTask) {
        TeamBuild &TB = Teams[G.Team[T]];
        auto &B = TB.bar(Lives[T].Barriers++);
        if (B.Release == ~0ull) {
          std::uint64_t Ready = std::max(B.LastArrive, TB.LastTaskEnd);
          B.Release = E.Time - std::min(E.Time, Ready);
        }
        Release = B.Release;
      }
      step(T, Step::Barrier,
           std::uint32_t(std::min<std::uint64_t>(Release, ~0u)), E.Code);
      break;
    }
    case rules::WaitScope::None:
      break;
    }
  }

  void add(std::uint32_t Th, const Event &E) {
    if (Th >= Threads.size()) {
      if (Th > 1u << 20)
        return; // not a thread index (a damaged trace)
      Threads.resize(Th + 1);
    }
    Thread &TS = Threads[Th];
    charge(TS, E);
    Now = E.Time;
    std::uint32_t T = task(E.Task);
    switch (E.Kind) {
    case EventKind::ImplicitTaskBegin:
      if (!implicitBegin(TS, E))
        return;
      break;
    case EventKind::ImplicitTaskEnd:
      if (T != NoTask) {
        step(T, Step::End);
        TS.LastImplTeam = G.Team[T];
        TS.LastImplEnd = E.Time;
      }
      TS.Cur = NoTask;
      TS.Waits.clear();
      break;
    case EventKind::ParallelBegin: {
      std::uint32_t TI = teamFor(E.A);
      Teams[TI].R.Enc = T;
      Teams[TI].Forked = true;
      Teams[TI].Requested = E.requested();
      if (T != NoTask && IsRuntimeTeam && (G.Flags[T] & FInitial) &&
          G.Roots.size() > 1 && T != G.Roots[0] && IsRuntimeTeam(E.Code)) {
        // libomp's hidden helper team: its initial task is no root.
        G.Flags[T] |= FDevice;
        G.Roots.erase(std::find(G.Roots.begin(), G.Roots.end(), T));
      }
      if (T != NoTask && onDevice(T)) {
        // A kernel's league or a team inside it: device work.
        Teams[TI].Device = true;
        Teams[TI].League = E.parallelFlags() == 1;
        OpenDeviceLeagues += Teams[TI].League;
      } else if (T != NoTask)
        step(T, Step::Fork, TI, E.Code);
      break;
    }
    case EventKind::ParallelEnd:
      parallelEnd(TS, E, T);
      break;
    case EventKind::TaskCreate: {
      std::uint8_t F = 0;
      if (E.Aux & (TaskUndeferred | TaskIncluded))
        F |= FImmediate;
      if (E.Aux & TaskUntied)
        F |= FUntied;
      if (E.Aux & TaskTarget)
        F |= FTarget;
      if (T != NoTask && onDevice(T))
        F = FDevice; // created by a kernel
      std::uint32_t Team = T != NoTask ? G.Team[T] : NoTask;
      if (!(F & FDevice) && serialized(E, Team)) {
        F |= FSerialized;
        ++G.SerializedTasks;
      }
      std::uint32_t C = newTask(E.A, T, Team, F);
      if (C == NoTask)
        return;
      G.ExplicitTasks += !(F & FDevice);
      if (T != NoTask)
        step(T, Step::Create, C, E.Code);
      break;
    }
    case EventKind::TaskDependence:
      if (T != NoTask)
        dependence(T, E.A, static_cast<DependenceType>(E.Sub));
      break;
    case EventKind::TaskSchedule: {
      auto St = static_cast<ScheduleStatus>(E.Sub);
      if (T != NoTask &&
          (St == ScheduleStatus::Complete || St == ScheduleStatus::Cancel ||
           St == ScheduleStatus::Detach)) {
        if (!TS.Waits.empty() && TS.Waits.back().Task == T)
          TS.Waits.pop_back();
        step(T, Step::End);
        TS.LastComplete = E.Time;
      }
      TS.Cur = task(E.A);
      break;
    }
    case EventKind::SyncBegin: {
      auto SK = static_cast<SyncKind>(E.Sub);
      rules::Construct K;
      if (T == NoTask || !rules::constructOfSync(SK, K))
        break;
      if (rules::waitScopeOf(SK) == rules::WaitScope::Taskgroup)
        step(T, Step::GroupBegin, 0, E.Code);
      else if (rules::waitScopeOf(SK) == rules::WaitScope::Team &&
               G.Team[T] != NoTask) {
        auto &B = Teams[G.Team[T]].bar(Lives[T].Barriers);
        B.LastArrive = std::max(B.LastArrive, E.Time);
      }
      break;
    }
    case EventKind::SyncEnd:
      syncEnd(TS, E, T);
      break;
    case EventKind::SyncWaitBegin:
      TS.Waits.push_back({T, false});
      TS.WaitBegin = E.Time;
      break;
    case EventKind::SyncWaitEnd:
      popWait(TS, T, false);
      break;
    case EventKind::MutexAcquire:
      TS.Waits.push_back({T != NoTask ? T : TS.Cur, true});
      break;
    case EventKind::MutexAcquired:
      if (!TS.Waits.empty() && TS.Waits.back().Mutex)
        TS.Waits.pop_back();
      break;
    case EventKind::ToolBegin:
    case EventKind::ToolEnd:
      TS.InTool = E.Kind == EventKind::ToolBegin;
      break;
    case EventKind::TargetBegin:
      if (T != NoTask && Lives[T].TargetDepth++ == 0)
        Lives[T].TargetBegin = E.Time;
      break;
    case EventKind::TargetEnd:
      if (T != NoTask && Lives[T].TargetDepth && --Lives[T].TargetDepth == 0)
        deviceStep(T, E);
      break;
    default:
      break;
    }
    // Events of a task's own strand say which task runs on the thread.
    if (rules::inOwnStrand(E.Kind, /*Mpi=*/false) && T != NoTask &&
        !Lives[T].Ended)
      TS.Cur = T;
  }

  bool finish(Program &Out, std::string &Error) {
    // Tasks that did not end: they end with what was seen.
    for (std::uint32_t T = 0; T < Lives.size(); ++T)
      if (!Lives[T].Ended)
        step(T, Step::End);
    if (TooLarge) {
      Error = "the trace is too large to simulate (more than 2^32 tasks or "
              "steps)";
      return false;
    }
    std::vector<Live>().swap(Lives);
    std::vector<std::vector<std::uint64_t>>().swap(Bufs);
    // Teams: members by their index in the team (the primary first).
    for (TeamBuild &TB : Teams) {
      TB.R.FirstMember = std::uint32_t(G.Members.size());
      TB.R.Members = std::uint32_t(TB.Members.size());
      // A member's start delay: how much later than the primary it began
      // (libomp creating or waking its thread).
      std::uint64_t Primary = ~0ull;
      for (std::size_t I = 0; I < TB.Members.size(); ++I)
        if (TB.Members[I].first == 0)
          Primary = std::min(Primary, TB.Begins[I]);
      std::vector<std::size_t> Order(TB.Members.size());
      for (std::size_t I = 0; I < Order.size(); ++I)
        Order[I] = I;
      std::stable_sort(Order.begin(), Order.end(), [&](auto X, auto Y) {
        return TB.Members[X].first < TB.Members[Y].first;
      });
      for (std::size_t I : Order) {
        G.Members.push_back(TB.Members[I].second);
        std::uint64_t B = TB.Begins[I];
        G.MemberDelay.push_back(std::uint32_t(std::min<std::uint64_t>(
            Primary != ~0ull && B > Primary ? B - Primary : 0, ~0u)));
      }
      G.Teams.push_back(TB.R);
    }
    std::vector<TeamBuild>().swap(Teams);
    // Dependence successors (CSR).
    std::size_t N = G.Flags.size();
    G.SuccBegin.assign(N + 1, 0);
    G.NPreds.assign(N, 0);
    for (auto [P, S] : Edges) {
      ++G.SuccBegin[P + 1];
      ++G.NPreds[S];
    }
    for (std::size_t I = 0; I < N; ++I)
      G.SuccBegin[I + 1] += G.SuccBegin[I];
    G.Succ.resize(Edges.size());
    {
      std::vector<std::uint32_t> Fill(G.SuccBegin.begin(),
                                      G.SuccBegin.end() - 1);
      for (auto [P, S] : Edges)
        G.Succ[Fill[P]++] = S;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>>().swap(Edges);
    numberTree();
    renumber();
    Out = std::move(G);
    return true;
  }

  /// Tasks renumbered in pre-order of the creation tree, their steps laid
  /// out in that order: a replay runs a task's children soon after it, so
  /// it reads the program nearly in order (fib 33 on 256 cores: 2x
  /// faster), and T descends from A iff A <= T < A + Size[A].
  void renumber() {
    std::size_t N = G.Flags.size();
    const std::vector<std::uint32_t> &New = G.Pre;
    std::vector<std::uint32_t> Old(N);
    for (std::uint32_t T = 0; T < N; ++T)
      Old[New[T]] = T;
    auto map = [&](std::uint32_t T) { return T == NoTask ? T : New[T]; };
    std::vector<std::uint64_t> Steps;
    Steps.reserve(G.Steps.size());
    std::vector<std::uint32_t> StepSite;
    StepSite.reserve(G.StepSite.size());
    std::vector<std::uint32_t> Begin(N), Parent(N), Team(N), Size(N), NPreds(N),
        SuccBegin(N + 1, 0), Succ(G.Succ.size());
    std::vector<std::uint8_t> Flags(N);
    for (std::uint32_t X = 0; X < N; ++X) {
      std::uint32_t T = Old[X];
      Begin[X] = std::uint32_t(Steps.size());
      for (std::uint32_t I = G.StepBegin[T];; ++I) {
        std::uint64_t W = G.Steps[I];
        if (stepOf(W) == Step::Create)
          W = (W & 0xffffffffull) | (std::uint64_t(New[argOf(W)]) << 32);
        Steps.push_back(W);
        if (RecordSites)
          StepSite.push_back(G.StepSite[I]);
        if (stepOf(W) == Step::End)
          break;
      }
      Parent[X] = map(G.Parent[T]);
      Team[X] = G.Team[T];
      Size[X] = G.Size[T];
      Flags[X] = G.Flags[T];
      NPreds[X] = G.NPreds[T];
      SuccBegin[X + 1] = SuccBegin[X] + (G.SuccBegin[T + 1] - G.SuccBegin[T]);
      std::uint32_t O = SuccBegin[X];
      for (std::uint32_t I = G.SuccBegin[T]; I < G.SuccBegin[T + 1]; ++I)
        Succ[O++] = New[G.Succ[I]];
    }
    for (TeamRec &R : G.Teams)
      R.Enc = map(R.Enc);
    for (std::uint32_t &M : G.Members)
      M = New[M];
    for (std::uint32_t &R : G.Roots)
      R = New[R];
    G.Steps.swap(Steps);
    G.StepSite.swap(StepSite);
    G.StepBegin.swap(Begin);
    G.Parent.swap(Parent);
    G.Team.swap(Team);
    G.Size.swap(Size);
    G.Flags.swap(Flags);
    G.NPreds.swap(NPreds);
    G.SuccBegin.swap(SuccBegin);
    G.Succ.swap(Succ);
    std::vector<std::uint32_t>().swap(G.Pre);
  }

  /// Pre-order numbers and subtree sizes of the creation tree (children:
  /// the tasks a task creates and the members of the teams it forks), for
  /// the replay's descendant test in O(1).
  void numberTree() {
    std::size_t N = G.Flags.size();
    G.Pre.assign(N, NoTask);
    G.Size.assign(N, 1);
    std::uint32_t Next = 0;
    struct Frame {
      std::uint32_t T, Step, Member;
    };
    std::vector<Frame> Stack;
    auto visitRoot = [&](std::uint32_t R) {
      if (G.Pre[R] != NoTask)
        return;
      G.Pre[R] = Next++;
      Stack.push_back({R, G.StepBegin[R], 0});
      while (!Stack.empty()) {
        Frame &F = Stack.back();
        std::uint64_t W = G.Steps[F.Step];
        std::uint32_t Child = NoTask;
        if (stepOf(W) == Step::Create) {
          Child = argOf(W);
          ++F.Step;
        } else if (stepOf(W) == Step::Fork) {
          const TeamRec &TR = G.Teams[argOf(W)];
          if (F.Member < TR.Members)
            Child = G.Members[TR.FirstMember + F.Member++];
          else {
            ++F.Step;
            F.Member = 0;
          }
        } else if (stepOf(W) == Step::End) {
          std::uint32_t T = F.T;
          G.Size[T] = Next - G.Pre[T];
          Stack.pop_back();
          continue;
        } else {
          ++F.Step;
        }
        if (Child != NoTask && G.Pre[Child] == NoTask) {
          G.Pre[Child] = Next++;
          Stack.push_back({Child, G.StepBegin[Child], 0});
        }
      }
    };
    for (std::uint32_t R : G.Roots)
      visitRoot(R);
    // Tasks no root reaches (a member whose team's fork was not in the
    // trace): trees of their own.
    for (std::uint32_t T = 0; T < N; ++T)
      if (G.Pre[T] == NoTask && G.Parent[T] == NoTask)
        visitRoot(T);
    for (std::uint32_t T = 0; T < N; ++T)
      if (G.Pre[T] == NoTask)
        visitRoot(T);
  }
};

Recorder::Recorder() : P(std::make_unique<Impl>()) {}
Recorder::~Recorder() = default;

void Recorder::add(std::uint32_t Thread, const Event *E, std::size_t N) {
  Impl &I = *P;
  rules::forEachEvent(E, N, [&](const Event &X) { I.add(Thread, X); });
}

void Recorder::setRecordingCost(std::uint64_t Ns) { P->RecordingCostNs = Ns; }

void Recorder::recordSites() {
  P->RecordSites = true;
  if (P->G.Sites.empty())
    P->G.Sites.push_back(0);
}

void Recorder::setRuntimeTeam(std::function<bool(std::uint64_t)> IsRuntime) {
  P->IsRuntimeTeam = std::move(IsRuntime);
}

void Recorder::setIfClause(std::function<bool(std::uint64_t)> HasIf) {
  P->HasIf = std::move(HasIf);
}

bool Recorder::finish(Program &Out, std::string &Error) {
  return P->finish(Out, Error);
}

} // namespace otter::sim
