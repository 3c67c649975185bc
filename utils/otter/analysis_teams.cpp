//===- otter/analysis_teams.cpp - Parallel regions and barriers ---------===//
//
// A team's members start from the fork: the encountering task's path when
// the region began. What the encountering task executes between the fork
// and the join (libomp starting or waking the team's threads, before its
// own implicit task begins) is its own execution: in the program's work,
// on its own path, in parallel with the members', and reported per region
// as the fork time; it is neither the region's work nor on the members'
// paths, so a region's span, the longest path from the fork to the join
// through the region's own tasks, never exceeds the region's work. (Members
// used to start from the encountering task's path when each began, which
// put the fork time into the region's span but not its work: a team running
// a `master` block showed a span of 143 us for 8.55 us of work.)
//
// A barrier joins every member (rules.h, rule 4): each member leaves it
// with the longest of the members' arrivals and of the team's tasks that
// completed before it. Members may be at different barriers (one has left
// barrier k and reached k+1, another has not left k yet), so a team keeps
// two barrier instances, by parity.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include <algorithm>

namespace otter::analysis {

std::uint32_t Analyzer::Impl::teamFor(std::uint64_t Id) {
  auto [It, New] = TeamOf.try_emplace(Id, std::uint32_t(Teams.size()));
  if (New) {
    Teams.emplace_back();
    Teams.back().Id = Id;
  }
  return It->second;
}

/// The barrier instance Epoch of Tm, made if the slot holds an older one;
/// its K differs from Epoch if the slot holds a newer one (stale input).
Team::Bar &Analyzer::Impl::barFor(Team &Tm, std::uint32_t Epoch) {
  Team::Bar &B = Tm.Bars[Epoch & 1];
  if (B.K != Epoch && (B.K == None || B.K < Epoch)) {
    resetVal(B.Arr);
    resetVal(B.Pend);
    B.Kept.clear();
    B.K = Epoch;
  }
  return B;
}

void Analyzer::Impl::barrierArrived(std::uint32_t T) {
  if (Slots[T].Team == None)
    return;
  std::int64_t V = mark(T);
  Slot &X = Slots[T];
  Team::Bar &B = barFor(Teams[X.Team], X.Epoch);
  if (B.K == X.Epoch)
    assign(B.Arr, V, X.Rec, bpath(X));
}

void Analyzer::Impl::barrierLeft(std::uint32_t T) {
  Slot &X = Slots[T];
  if (X.Team == None)
    return;
  Team &Tm = Teams[X.Team];
  Team::Bar &B = Tm.Bars[X.Epoch & 1];
  if (B.K == X.Epoch) {
    merge(T, B.Arr);
    merge(T, B.Pend);
    markWaited(B.Kept);
  }
  X.Epoch = X.Epoch + 1;
  Tm.Epoch = std::max(Tm.Epoch, X.Epoch);
  evalSiblings(T);
}

void Analyzer::Impl::onImplicitTaskBegin(ThreadSt &TS, std::uint32_t Th,
                                         const Event &E) {
  std::uint32_t S = newSlot(E.task());
  Slot &X = Slots[S];
  X.Flags = SStarted | SImplicit;
  X.Start = E.Time;
  X.StartThread = Th;
  // Host teams: OMPT gives each team's initial task no parallel region
  // (team_size is the number of teams); it is a member of the league that
  // the teams construct began, as in the graph (graph/builder.cpp).
  bool League = (E.implicitFlags() & TaskInitial) && !E.parallel() &&
                E.teamSize() > 1 && !OpenLeagues.empty();
  if (!League && ((E.implicitFlags() & TaskInitial) || !E.parallel())) {
    // An initial task: a team of its own (its barriers join it alone).
    X.K = Kind::Initial;
    // No code address of its own; in an MPI job's stream it still has its
    // rank's tag (analysis.h, codeRank), which tells the ranks apart.
    if (codeRank(E.Code) >= 0)
      X.Code = code(E.Code);
    // A kernel's only team (a league of one: no league member) begins on
    // the thread in the target construct.
    if (inTargetConstruct(TS))
      X.Flags |= SDevice;
    std::uint32_t TI = std::uint32_t(Teams.size());
    Teams.emplace_back();
    Teams.back().Pseudo = true;
    Teams.back().Members = 1;
    X.Team = TI;
  } else {
    std::uint32_t TI = League ? OpenLeagues.back() : teamFor(E.parallel());
    Team &Tm = Teams[TI];
    ++Tm.Members;
    Tm.Size = std::max<std::uint32_t>(Tm.Size, E.teamSize());
    X.K = League ? Kind::Initial : Kind::Implicit;
    if (League)
      X.Flags |= SLeague;
    if (Tm.Device)
      X.Flags |= SDevice;
    X.Team = TI;
    if (E.Sub == 0)
      X.Flags |= SPrimary;
    // OMPT gives an implicit task no code address: it is labelled with its
    // region (rules.h, rule 7).
    X.Code = rules::inheritCode(std::uint32_t(0), Tm.Code).first;
    // It starts from the fork (see the file comment).
    X.Base = Tm.ForkV;
    X.Rec = Tm.ForkRec;
    incref(X.Rec);
    // Burdened: from the fork too; the fork time is added at the join
    // (every path out of the region leaves through it).
    X.BBase = Tm.BFork.A;
    X.BK = Tm.BFork.K;
  }
  ++R.ImplicitTasks;
  TS.Cur = S;
  TS.Impl.push_back({S, TS.Busy, 0});
}

void Analyzer::Impl::onImplicitTaskEnd(ThreadSt &TS, std::uint32_t Th,
                                       std::uint32_t T, const Event &E) {
  if (T == None)
    return;
  std::int64_t V = mark(T);
  Slot &X = Slots[T];
  X.Flags |= SCompleted;
  R.WorkNs += X.Exec;
  instance(X.Code, X.K, X.Exec);
  BPath BV = bpath(X);
  assign(Best, V, X.Rec, BV);
  // The member's busy time: the thread's, while the member was on it.
  // Frames above T's (a nested region's member whose end never came) are
  // dropped with it.
  std::uint64_t Busy = 0;
  while (!TS.Impl.empty()) {
    ImplFrame F = TS.Impl.back();
    TS.Impl.pop_back();
    if (F.Task == T) {
      Busy = TS.Busy - F.BusyAtBegin;
      break;
    }
  }
  if (X.Team != None) {
    std::uint32_t TI = X.Team;
    Team &Tm = Teams[TI];
    Tm.Work += X.Exec;
    // The join continues from the primary member: the region's implicit
    // barrier joined every member on its path; what another member does
    // after that barrier (libomp ending its implicit task, even after the
    // region's end) precedes nothing, whenever it is reported.
    if (X.Flags & SPrimary)
      assign(Tm.Join, V, X.Rec, BV);
    TS.LastImplTeam = TI;
    TS.LastImplEnd = E.Time;
    Tm.BusySum += Busy;
    Tm.BusyMax = std::max(Tm.BusyMax, Busy);
    ++Tm.BusyN;
    ++Tm.Ended;
    if (Obs)
      Obs->construct(Th, X.K, Codes[X.Code], X.Start, E.Time);
    tryFree(T);
    if (!Teams[TI].Pseudo)
      finalizeTeam(TI);
  } else {
    tryFree(T);
  }
  TS.Cur = None;
  // The member's unfinished waits cannot end any more; an enclosing task's
  // stay (a target region whose kernel ran here: host offload).
  std::erase_if(TS.Waits, [&](const WaitFrame &W) {
    if (W.Task != T)
      return false;
    retireWait(W);
    return true;
  });
}

void Analyzer::Impl::onParallelBegin(ThreadSt &TS, std::uint32_t T,
                                     const Event &E) {
  std::uint32_t TI = teamFor(E.parallel());
  Team &Tm = Teams[TI];
  // A host team's own region comes with no code: the teams construct's.
  Tm.Code = rules::inheritCode(
                code(E.code()),
                T != None && (Slots[T].Flags & SLeague) ? Slots[T].Code : 0u)
                .first;
  if (E.parallelFlags() == 1) // a league (dump.cpp: flags=league)
    OpenLeagues.push_back(TI);
  // Device work (docs/offload.md, "The host thread"): the league a task in
  // a target construct begins (the host plugin's kernel), a team device
  // work forks, libomp's hidden helper team (its initial task's region).
  Tm.Device =
      T != None && ((Slots[T].Flags & SDevice) || inTargetConstruct(TS) ||
                    (Slots[T].K == Kind::Initial && IsRuntimeTeam &&
                     IsRuntimeTeam(E.code())));
  if (Tm.Device)
    markDeviceCode(Tm.Code);
  Tm.Begin = E.Time;
  Tm.Size = std::max<std::uint32_t>(Tm.Size, E.requested());
  Tm.Encountering = T;
  Tm.EncThread = std::uint32_t(&TS - Threads.data());
  stopIdleLog(TS, TI, E.Time);
  ++R.ParallelRegions;
  if (T != None) {
    Tm.ForkV = mark(T);
    Tm.BFork = bpath(Slots[T]);
    Tm.ParentTeam = Slots[T].Team;
    Tm.EncExecAtFork = Slots[T].Exec;
    decref(Tm.ForkRec);
    Tm.ForkRec = Slots[T].Rec;
    incref(Tm.ForkRec);
    programOrder(TS, T, Tm.Code, Kind::Parallel);
  }
  TS.Open.push_back({T, Tm.Code, Kind::Parallel, E.Time, 0});
}

void Analyzer::Impl::onParallelEnd(ThreadSt &TS, std::uint32_t Th,
                                   std::uint32_t T, const Event &E) {
  auto It = TeamOf.find(E.parallel());
  if (It == TeamOf.end())
    return;
  std::uint32_t TI = It->second;
  Team &Tm = Teams[TI];
  Tm.ParallelEnded = true;
  OpenLeagues.erase(std::remove(OpenLeagues.begin(), OpenLeagues.end(), TI),
                    OpenLeagues.end());
  Tm.End = E.Time;
  if (Tm.Join.V != NegInf)
    Tm.JoinSpan = Tm.Join.V - Tm.ForkV;
  if (TS.LastImplTeam == TI && E.Time >= TS.LastImplEnd)
    Tm.JoinNs = E.Time - TS.LastImplEnd;
  TS.LastImplTeam = None;
  if (T != None) {
    if (T == Tm.Encountering && Slots[T].Exec >= Tm.EncExecAtFork)
      Tm.ForkNs = Slots[T].Exec - Tm.EncExecAtFork;
    // The join: the encountering task continues from the longest of its
    // own path (the fork time included) and the members'.
    merge(T, Tm.Join.V, Tm.Join.Rec);
    // Burdened: the members started after the fork time, and the join
    // takes its time.
    if (Tm.Join.B.A != NegInf) {
      BPath J{Tm.Join.B.A + std::int64_t(Tm.ForkNs + Tm.JoinNs), Tm.Join.B.K};
      Tm.BSpanA = J.A - Tm.BFork.A;
      Tm.BSpanK = J.K - Tm.BFork.K;
      bmerge(T, J);
    }
  }
  instance(Tm.Code, Kind::Parallel, E.Time - std::min(E.Time, Tm.Begin));
  closeOpen(TS, Th, T, Kind::Parallel, E.Time);
  decref(Tm.ForkRec);
  Tm.ForkRec = None;
  TeamOf.erase(It);
  finalizeTeam(TI);
  startIdleLog(TS, TI);
  if (T != None)
    TS.Cur = T;
}

/// Once the region and all its members have ended: its figures go to its
/// construct's statistics, its work to the enclosing region's.
void Analyzer::Impl::finalizeTeam(std::uint32_t TI) {
  Team &Tm = Teams[TI];
  if (Tm.Finalized || !Tm.ParallelEnded || Tm.Ended < Tm.Members)
    return;
  Tm.Finalized = true;
  ConstructStats &St = stat(Tm.Code, Kind::Parallel);
  St.RegionWorkNs += Tm.Work;
  if (Tm.JoinSpan > 0)
    St.RegionSpanNs += std::uint64_t(Tm.JoinSpan);
  St.RegionForkNs += Tm.ForkNs;
  St.RegionJoinNs += Tm.JoinNs;
  if (Tm.BSpanA >= 0) {
    St.RegionBSpanNs += std::uint64_t(Tm.BSpanA);
    St.RegionBTasks += Tm.BSpanK;
  }
  std::uint64_t Wall = Tm.End > Tm.Begin ? Tm.End - Tm.Begin : 0;
  St.RegionWallNs += Wall;
  St.RegionThreadNs += Wall * Tm.Members;
  St.RegionBusyNs += Tm.BusySum;
  if (Tm.BusyN >= 2 && Tm.BusySum) {
    double Mean = double(Tm.BusySum) / Tm.BusyN;
    ++St.TeamImbInstances;
    // Thread time lost waiting for the busiest member: each member short of
    // the maximum idles for the difference.
    St.TeamImbLostNs += Tm.BusyMax * Tm.BusyN - Tm.BusySum;
    St.TeamImbWorstRatio =
        std::max(St.TeamImbWorstRatio, double(Tm.BusyMax) / Mean);
  }
  // A nested region's work is also its enclosing region's (its members are
  // not the enclosing team's tasks, so it would be missing there).
  if (Tm.ParentTeam != None && Tm.ParentTeam != TI)
    Teams[Tm.ParentTeam].Work += Tm.Work;
  resetVal(Tm.Join);
  for (auto &B : Tm.Bars) {
    resetVal(B.Arr);
    resetVal(B.Pend);
    B.Kept.clear();
  }
  decref(Tm.ForkRec);
  Tm.ForkRec = None;
  Tm.Works.clear();
}

} // namespace otter::analysis
