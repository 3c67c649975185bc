//===- otter/analysis.cpp - Streaming work/span/profile analysis ---------===//
//
// The event loop: time accounting, then one handler per event kind, then
// which task runs on the thread. Time accounting is OTTER's one time model:
// each interval between a thread's events gets its state (states.h) here,
// once, and every view's times follow from it. The handlers' concerns live in
// analysis_paths.cpp (paths, tasks, dependences, waits), analysis_teams.cpp
// (parallel regions, barriers) and analysis_profile.cpp (statistics); see
// analysis_impl.h for the state and analysis.h for what is computed.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include <algorithm>
#include <cmath>

namespace otter::analysis {

const char *kindName(Kind K) { return rules::constructName(K); }

//===----------------------------------------------------------------------===//
// The event loop.
//===----------------------------------------------------------------------===//

/// Charges the time since the thread's previous event (docs/utils.md,
/// "Where time goes"): to the running task's wait if it is waiting (a sync
/// wait or a lock acquisition of its own), else to its execution time.
inline void Analyzer::Impl::chargeTime(ThreadSt &TS, const Event &E) {
  if (First) {
    R.FirstTime = E.Time;
    First = false;
  }
  // min/max, not first/last: the merge is by timestamp, but a trace may hold
  // events out of order (counted, warned about in finish()).
  R.FirstTime = std::min(R.FirstTime, E.Time);
  R.LastTime = std::max(R.LastTime, E.Time);
  if (TS.Seen) {
    // An event earlier than the thread's last charges nothing (no negative
    // time), and Last stays the latest, so no interval is charged twice.
    std::uint64_t Dt = E.Time > TS.Last ? E.Time - TS.Last : 0;
    if (E.Time < TS.Last)
      ++OutOfOrder;
    std::uint64_t From = TS.Last;
    if (Dt) {
      // OTTER's own time first: a flush (all of it), or the recording of
      // the event that starts the interval (where it weighs).
      std::uint64_t Own = TS.InTool ? Dt : recordingCostIn(Dt, RecordingCostNs);
      if (Own) {
        TS.Tool += Own;
        (TS.InTool ? R.ToolFlushNs : R.RecordingNs) += Own;
        if (StatesWanted)
          stateInterval(TS, From, From + Own, ThreadState::Tool, Kind::Task, 0,
                        None);
        if (TS.LogOpen) [[unlikely]]
          logActivity(TS, From, From + Own, ThreadState::Tool, Kind::Task, 0);
        From += Own;
        Dt -= Own;
      }
    }
    if (Dt && TS.Cur == None) {
      TS.Idle += Dt;
      if (StatesWanted)
        stateInterval(TS, From, E.Time, ThreadState::Idle, Kind::Task, 0,
                      None);
      blameIdle(TS, From, E.Time);
      if (TS.LogOpen) [[unlikely]]
        logActivity(TS, From, E.Time, ThreadState::Idle, Kind::Task, 0);
    } else if (Dt) {
      if (!TS.Waits.empty() && TS.Waits.back().Task == TS.Cur) {
        // A worker still in its region's barrier after the region ended is
        // idle from the end on (docs/utils.md, "Idle threads").
        std::uint64_t Idle = idleInBarrier(TS, From, E.Time);
        std::uint64_t To = E.Time - Idle;
        WaitFrame &W = TS.Waits.back();
        W.Ns += To - From;
        TS.Wait += To - From;
        if (StatesWanted && To > From)
          stateInterval(TS, From, To, ThreadState::Waiting, W.K, W.Code,
                        TS.Cur);
        if (TS.LogOpen) [[unlikely]]
          logActivity(TS, From, To, ThreadState::Waiting, W.K, W.Code);
        if (Idle) [[unlikely]] {
          TS.Idle += Idle;
          if (StatesWanted)
            stateInterval(TS, To, E.Time, ThreadState::Idle, Kind::Task, 0,
                          None);
          blameIdle(TS, To, E.Time);
          if (TS.LogOpen) [[unlikely]]
            logActivity(TS, To, E.Time, ThreadState::Idle, Kind::Task, 0);
        }
      } else {
        Slot &X = Slots[TS.Cur];
        X.Exec += Dt;
        TS.Busy += Dt;
        if (StatesWanted)
          stateInterval(TS, From, E.Time, ThreadState::Running, X.K, X.Code,
                        TS.Cur);
        if (TS.LogOpen) [[unlikely]]
          logActivity(TS, From, E.Time, ThreadState::Running, X.K, X.Code);
      }
    }
  }
  if (!TS.Seen)
    TS.First = E.Time;
  TS.Seen = true;
  TS.Prev = TS.Last;
  TS.Last = std::max(TS.Last, E.Time);
}

inline void Analyzer::Impl::onTaskCreate(ThreadSt &TS, std::uint32_t Th,
                                         std::uint32_t T, const Event &E) {
  std::uint32_t S = newSlot(E.child());
  Slot &C = Slots[S];
  C.Code = code(E.code());
  C.K = Kind::Task;
  C.StartThread = Th;
  C.Start = E.Time; // until it starts
  if (T != None) {
    createTask(T, S);
    if (Obs)
      Obs->constructEdge(Codes[Slots[T].Code], Slots[T].K, Codes[C.Code],
                         Kind::Task, "create");
    programOrder(TS, T, C.Code, Kind::Task);
  }
  if (E.flags() & (TaskUndeferred | TaskIncluded))
    C.Flags |= SImmediate;
  if (E.flags() & TaskHasDependences)
    keepForDependences(S);
  TS.PendingCreate = E.Time;
  if (Obs)
    Obs->flow(false, Th, E.Time, E.child());
}

void Analyzer::Impl::onTaskDependence(std::uint32_t T, const Event &E) {
  if (T != None)
    dependence(T, E.address(), E.dependenceType());
}

inline void Analyzer::Impl::onTaskSchedule(ThreadSt &TS, std::uint32_t Th,
                                           std::uint32_t T, const Event &E) {
  ScheduleStatus St = E.status();
  if (T != None &&
      (St == ScheduleStatus::Complete || St == ScheduleStatus::Cancel ||
       St == ScheduleStatus::Detach)) {
    if (!TS.Waits.empty() && TS.Waits.back().Task == T) {
      retireWait(TS.Waits.back());
      TS.Waits.pop_back();
    }
    completeTask(T, Th, E.Time);
  }
  std::uint32_t N = slotOf(E.next());
  if (N != None) {
    Slot &X = Slots[N];
    if (!(X.Flags & SStarted)) {
      X.Flags |= SStarted;
      // Dispatch latency, the scheduling cost's sample (schedulingCostNs):
      // from the thread's previous event or the task's creation or last
      // predecessor, whichever is last, to its start; tasks their creator
      // ran at once do not wait to be dispatched.
      if (!(X.Flags & SImmediate) && X.K == Kind::Task) {
        std::uint64_t From = std::max({TS.Prev, X.Start, X.Ready});
        std::uint64_t Ns = E.Time - std::min(E.Time, From);
        R.DispatchTotalNs += Ns;
        ++DispatchHist[bucketOf(Ns)];
        ++R.ScheduleSamples;
        updateBurden();
      }
      X.Start = E.Time;
      X.StartThread = Th;
    }
  }
  TS.Cur = N;
}

void Analyzer::Impl::stateInterval(ThreadSt &TS, std::uint64_t From,
                                   std::uint64_t To, ThreadState St, Kind K,
                                   std::uint32_t Code, std::uint32_t T) {
  StateInterval I;
  I.Start = From;
  I.End = To;
  I.State = St;
  I.Construct = K;
  I.Code = Codes[Code];
  if (T != None) {
    const Slot &X = Slots[T];
    I.Task = X.Id;
    I.TaskKind = X.K;
    I.TaskCode = Codes[X.Code];
  }
  if (TS.RunOpen && TS.Run.End == From && TS.Run.sameAs(I)) {
    TS.Run.End = To;
    return;
  }
  flushState(TS);
  TS.Run = I;
  TS.RunOpen = true;
}

void Analyzer::Impl::onThreadCpu(ThreadSt &TS, const Event &E) {
  const std::uint64_t NotRunning = TS.Wait + TS.Idle + TS.Tool;
  if (TS.CpuSeen && E.Time > TS.CpuAt && E.cpuNs() >= TS.CpuNs) {
    const std::uint64_t Wall = E.Time - TS.CpuAt;
    const std::uint64_t Used = E.cpuNs() - TS.CpuNs;
    const std::uint64_t Off = Wall > Used ? Wall - Used : 0;
    const std::uint64_t Excused = NotRunning - TS.CpuNotRunning;
    R.CpuWindowNs += Wall;
    R.CpuUsedNs += Used;
    R.DescheduledNs += Off > Excused ? Off - Excused : 0;
    if (E.involuntary() >= TS.CpuInvoluntary)
      R.InvoluntarySwitches += E.involuntary() - TS.CpuInvoluntary;
  }
  TS.CpuSeen = true;
  TS.CpuAt = E.Time;
  TS.CpuNs = E.cpuNs();
  TS.CpuNotRunning = NotRunning;
  TS.CpuInvoluntary = E.involuntary();
  if (E.cpus())
    R.Cpus = R.Cpus ? std::min<std::uint32_t>(R.Cpus, E.cpus()) : E.cpus();
}

void Analyzer::Impl::flushState(ThreadSt &TS) {
  if (!TS.RunOpen)
    return;
  TS.RunOpen = false;
  if (Obs)
    Obs->state(std::uint32_t(&TS - Threads.data()), TS.Run);
}

void Analyzer::Impl::add(std::uint32_t Th, const Event &E) {
  ++R.Events;
  if (Th >= Threads.size()) {
    // Thread indices are dense from 0; a larger one comes from a damaged
    // trace, and resizing to it would allocate per-thread state for nothing.
    if (Th > 1u << 20)
      return; // not a thread index
    Threads.resize(Th + 1);
  }
  ThreadSt &TS = Threads[Th];
  chargeTime(TS, E);
  // Creation cost: from a TaskCreate to the creating thread's next event
  // (its dependences are part of the creation).
  if (TS.PendingCreate && E.Kind != EventKind::TaskDependence) {
    ++CreateHist[bucketOf(E.Time - TS.PendingCreate)];
    ++R.CreateSamples;
    TS.PendingCreate = 0;
  }
  // A held-back taskgroup edge (onSyncBegin) goes out before any event but
  // a taskloop's begin, which programOrder places before it.
  if (TS.DeferredGroupTask != None &&
      !(E.Kind == EventKind::WorkBegin && E.workKind() == WorkKind::Taskloop))
    flushDeferredOrder(TS);

  std::uint32_t T = slotOf(E.Task);
  // What device work does (a kernel's teams' loops and barriers) is the
  // device's construct, not the program's.
  if (T != None && (Slots[T].Flags & SDevice) && E.code())
    markDeviceCode(code(E.code()));
  switch (E.Kind) {
  case EventKind::ImplicitTaskBegin:
    onImplicitTaskBegin(TS, Th, E);
    break;
  case EventKind::ImplicitTaskEnd:
    onImplicitTaskEnd(TS, Th, T, E);
    break;
  case EventKind::ParallelBegin:
    onParallelBegin(TS, T, E);
    break;
  case EventKind::ParallelEnd:
    onParallelEnd(TS, Th, T, E);
    break;
  case EventKind::TaskCreate:
    onTaskCreate(TS, Th, T, E);
    break;
  case EventKind::TaskDependence:
    onTaskDependence(T, E);
    break;
  case EventKind::TaskSchedule:
    onTaskSchedule(TS, Th, T, E);
    break;
  case EventKind::SyncBegin:
    onSyncBegin(TS, T, E);
    break;
  case EventKind::SyncEnd:
    onSyncEnd(TS, Th, T, E);
    break;
  case EventKind::SyncWaitBegin:
    onSyncWaitBegin(TS, T, E);
    break;
  case EventKind::SyncWaitEnd:
    popWait(TS, T);
    break;
  case EventKind::WorkBegin:
    onWorkBegin(TS, T, E);
    break;
  case EventKind::WorkEnd:
    onWorkEnd(TS, Th, T, E);
    break;
  case EventKind::MaskedBegin: {
    std::uint32_t Code = code(E.code());
    TS.Open.push_back({T, Code, Kind::Masked, E.Time, 0});
    programOrder(TS, T, Code, Kind::Masked);
    break;
  }
  case EventKind::MaskedEnd:
    closeOpen(TS, Th, T, Kind::Masked, E.Time);
    break;
  case EventKind::MutexAcquire:
    onMutexAcquire(TS, T, E);
    break;
  case EventKind::MutexAcquired:
    onMutexAcquired(TS, T, E);
    break;
  case EventKind::MutexReleased:
    onMutexReleased(TS, Th, E);
    break;
  case EventKind::Cancel:
    instance(code(E.code()), Kind::Cancel, 0);
    break;
  case EventKind::MpiCallBegin:
    onMpiCallBegin(TS, Th, T, E);
    break;
  case EventKind::PhaseBegin:
    OpenPhases[E.task()].emplace_back(E.name(), E.Time);
    break;
  case EventKind::PhaseEnd: {
    auto It = OpenPhases.find(E.task());
    if (It == OpenPhases.end() || It->second.empty())
      break;
    auto [Name, Begin] = It->second.back();
    It->second.pop_back();
    PhaseStats &P = PhaseAcc[Name];
    P.Name = Name;
    std::uint64_t D = E.Time > Begin ? E.Time - Begin : 0;
    ++P.Instances;
    P.TotalNs += D;
    P.MaxNs = std::max(P.MaxNs, D);
    if (Obs)
      Obs->phase(Th, Name, Begin, E.Time);
    break;
  }
  case EventKind::TaskLabel:
    LabelOfTask[E.task()] = E.name();
    if (Obs)
      Obs->taskLabel(E.task(), E.name());
    break;
  case EventKind::Mark:
    ++R.Marks;
    if (Obs)
      Obs->mark(Th, E.name(), E.Time);
    break;
  case EventKind::ToolBegin:
    TS.InTool = true;
    break;
  case EventKind::ToolEnd:
    TS.InTool = false;
    break;
  case EventKind::ThreadCpu:
    onThreadCpu(TS, E);
    break;
  case EventKind::MpiCallEnd:
    onMpiCallEnd(TS, Th, T, E);
    break;
  case EventKind::TargetBegin:
  case EventKind::TargetEnd:
  case EventKind::TargetDataOpBegin:
  case EventKind::TargetDataOpEnd:
  case EventKind::TargetSubmitBegin:
  case EventKind::TargetSubmitEnd:
    onTarget(TS, Th, T, E);
    break;
  default:
    break;
  }
  // Events of a task's own strand say which task runs on the thread.
  if (rules::inOwnStrand(E.Kind, /*Mpi=*/true) && T != None &&
      !(Slots[T].Flags & SCompleted))
    TS.Cur = T;
}

void Analyzer::Impl::onSyncBegin(ThreadSt &TS, std::uint32_t T,
                                 const Event &E) {
  SyncKind SK = E.syncKind();
  Kind K;
  if (!rules::constructOfSync(SK, K))
    return; // a reduction
  // An implicit barrier is counted under its construct (rules.h, rule 7).
  std::uint32_t Region =
      T != None && Slots[T].Team != None ? Teams[Slots[T].Team].Code : 0;
  std::uint32_t Code =
      rules::implicitBarrierRow(SK, code(E.code()), Region, TS.LastWorkCode);
  TS.Open.push_back({T, Code, K, E.Time, 0});
  if (T == None)
    return;
  switch (rules::waitScopeOf(SK)) {
  case rules::WaitScope::Taskgroup: {
    std::uint32_t G = newGroup(Slots[T].Group);
    Slots[T].Group = G;
    // Its program-order edge waits for the next event: a taskloop's
    // taskgroup goes inside the taskloop (rules.h, rule 6).
    if (Obs) {
      TS.DeferredGroupTask = T;
      TS.DeferredGroupCode = Code;
    }
    return;
  }
  case rules::WaitScope::Team:
    barrierArrived(T);
    break;
  default:
    break;
  }
  programOrder(TS, T, Code, K);
}

void Analyzer::Impl::onSyncEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                               const Event &E) {
  SyncKind SK = E.syncKind();
  Kind K;
  if (!rules::constructOfSync(SK, K))
    return; // a reduction
  closeOpen(TS, Th, T, K, E.Time);
  if (T == None)
    return;
  switch (rules::waitScopeOf(SK)) {
  case rules::WaitScope::Children:
    taskwaitEnded(T);
    break;
  case rules::WaitScope::Taskgroup:
    taskgroupEnded(T);
    break;
  case rules::WaitScope::Team:
    barrierLeft(T);
    break;
  case rules::WaitScope::None:
    break;
  }
}

void Analyzer::Impl::onSyncWaitBegin(ThreadSt &TS, std::uint32_t T,
                                     const Event &E) {
  // Waiting time belongs to the construct the wait is in.
  std::uint32_t Code = !TS.Open.empty() ? TS.Open.back().Code : code(E.code());
  Kind K = !TS.Open.empty() ? TS.Open.back().K : Kind::ImplicitBarrier;
  TS.Waits.push_back({T, Code, K, false, 0, E.Time});
}

//===----------------------------------------------------------------------===//
// The result.
//===----------------------------------------------------------------------===//

Result Analyzer::Impl::finish() {
  finishIdle();
  for (const auto &[Name, P] : PhaseAcc)
    R.Phases.push_back(P);
  std::stable_sort(R.Phases.begin(), R.Phases.end(),
                   [](const PhaseStats &A, const PhaseStats &B) {
                     return A.TotalNs > B.TotalNs;
                   });
  std::map<std::uint32_t, std::uint64_t> Labels;
  for (const auto &[Task, Name] : LabelOfTask)
    ++Labels[Name];
  for (const auto &[Name, N] : Labels)
    R.TaskLabels.push_back({Name, N});
  std::stable_sort(R.TaskLabels.begin(), R.TaskLabels.end(),
                   [](const LabelStats &A, const LabelStats &B) {
                     return A.Tasks > B.Tasks;
                   });
  // Tasks that never completed (truncated trace): count their work.
  std::uint64_t Open = 0;
  for (std::uint32_t S = 0; S < Slots.size(); ++S) {
    Slot &T = Slots[S];
    if (T.Id == 0 && T.Exec == 0 && T.Flags == 0)
      continue;
    if (!(T.Flags & SCompleted)) {
      ++Open;
      R.WorkNs += T.Exec;
      std::int64_t V = mark(S);
      BPath BV = bpath(Slots[S]);
      assign(Best, V, Slots[S].Rec, BV);
      if (T.Team != None && !Teams[T.Team].Finalized) {
        Teams[T.Team].Work += T.Exec;
        if (T.K == Kind::Implicit && (T.Flags & SPrimary))
          assign(Teams[T.Team].Join, V, Slots[S].Rec, BV);
      }
    }
  }
  if (Open)
    R.Warnings.push_back(std::to_string(Open) +
                         " task(s) did not complete in the trace "
                         "(truncated or still running?)");
  // Regions whose end or members' ends are missing (truncated trace):
  // report what was seen.
  for (std::uint32_t TI = 0; TI < Teams.size(); ++TI) {
    Team &Tm = Teams[TI];
    if (Tm.Pseudo || Tm.Finalized)
      continue;
    if (!Tm.ParallelEnded) {
      Tm.End = R.LastTime;
      if (Tm.Join.V != NegInf)
        Tm.JoinSpan = Tm.Join.V - Tm.ForkV;
      if (Tm.Join.B.A != NegInf) {
        Tm.BSpanA = Tm.Join.B.A + std::int64_t(Tm.ForkNs) - Tm.BFork.A;
        Tm.BSpanK = Tm.Join.B.K - Tm.BFork.K;
      }
    }
    Tm.ParallelEnded = true;
    Tm.Ended = Tm.Members;
    finalizeTeam(TI);
  }
  if (OutOfOrder)
    R.Warnings.push_back(std::to_string(OutOfOrder) +
                         " event(s) out of time order");
  if (LateLinks)
    R.Warnings.push_back(
        std::to_string(LateLinks) +
        " message or collective value(s) arrived after the call that "
        "received them (the ranks' clocks out of step?): those "
        "edges are not in the span");
  R.PerThread.resize(Threads.size());
  for (std::size_t I = 0; I < Threads.size(); ++I) {
    ThreadSt &TS = Threads[I];
    // Waits still open at the end (a truncated trace): their time so far is
    // their constructs' waiting time, as the timeline counted it.
    for (const WaitFrame &W : TS.Waits)
      retireWait(W);
    TS.Waits.clear();
    flushState(TS);
    if (!TS.Seen)
      continue;
    ++R.Threads;
    R.BusyNs += TS.Busy;
    R.WaitNs += TS.Wait;
    R.MpiNs += TS.Mpi;
    R.ToolNs += TS.Tool;
    R.PerThread[I] = {true,    TS.Busy,  TS.Wait, TS.Mpi,
                      TS.Idle, TS.First, TS.Last, TS.Tool};
  }
  R.SpanNs = Best.V > 0 ? std::uint64_t(Best.V) : 0; // NegInf: no task seen
  R.CreateCostNs = histMedian(CreateHist);
  R.ScheduleCostNs = schedulingCostNs(DispatchHist);
  R.BurdenNs = FixedBurden ? double(BurdenEst) : R.ScheduleCostNs;
  if (Best.B.A != NegInf) {
    R.BurdenedA = Best.B.A;
    R.BurdenedK = Best.B.K;
  }
  criticalPath();
  for (ConstructStats &S : Stats) {
    const std::uint32_t C = code(S.Code);
    S.Device = C < DeviceCode.size() && DeviceCode[C];
  }
  R.Constructs = Stats;
  std::stable_sort(R.Constructs.begin(), R.Constructs.end(),
                   [](const ConstructStats &A, const ConstructStats &B) {
                     return A.TotalNs > B.TotalNs;
                   });
  return std::move(R);
}

/// The critical path: the records of the best final value, walked back.
void Analyzer::Impl::criticalPath() {
  std::vector<PathStep> Steps;
  R.PathTasks = Best.Rec != None ? Recs[Best.Rec].Cum : 0;
  for (std::uint32_t X = Best.Rec; X != None; X = Recs[X].Prev) {
    const Record &Rc = Recs[X];
    std::uint64_t C = Codes[Rc.Code];
    // Walking backwards: the step after this record is Steps.back(). A
    // task's segments closed before it labelled itself (label 0) join its
    // labelled ones.
    if (!Steps.empty() && Steps.back().Code == C &&
        Steps.back().K == Kind(Rc.K) &&
        (Steps.back().Label == Rc.Label ||
         (Rc.Label == 0 && Steps.back().Instances == 0))) {
      Steps.back().Ns += Rc.Ns;
      Steps.back().Instances += Rc.First ? 1 : 0;
      continue;
    }
    // A zero-length step is kept only when it is an MPI call: where the
    // path went from one rank to another.
    if (Rc.Ns == 0 && !Rc.First && Kind(Rc.K) != Kind::Mpi)
      continue;
    Steps.push_back({C, Kind(Rc.K), Rc.Ns, Rc.First ? 1u : 0u, Rc.Label});
  }
  std::reverse(Steps.begin(), Steps.end());
  // Drop zero-length steps, then merge neighbours they separated.
  std::vector<PathStep> Path;
  for (PathStep &S : Steps) {
    if (S.Ns == 0 && S.K != Kind::Mpi)
      continue;
    if (!Path.empty() && Path.back().Code == S.Code && Path.back().K == S.K &&
        Path.back().Label == S.Label) {
      Path.back().Ns += S.Ns;
      Path.back().Instances += S.Instances;
    } else
      Path.push_back(S);
  }
  R.CriticalPath = std::move(Path);
}

//===----------------------------------------------------------------------===//
// The interface.
//===----------------------------------------------------------------------===//

Analyzer::Analyzer() : P(std::make_unique<Impl>()) {}
Analyzer::~Analyzer() = default;
void Analyzer::setObserver(Observer *O) {
  P->Obs = O;
  P->StatesWanted = O && O->wantsStates();
}
void Analyzer::setRecordingCost(std::uint64_t Ns) {
  P->RecordingCostNs = Ns;
  P->R.RecordingCostNs = Ns;
}

void Analyzer::setBurden(double Ns) {
  P->FixedBurden = true;
  P->BurdenEst = std::llround(std::max(0.0, Ns));
}
void Analyzer::setRuntimeTeam(std::function<bool(std::uint64_t)> IsRuntime) {
  P->IsRuntimeTeam = std::move(IsRuntime);
}
void Analyzer::setLinks(LinkSource *L) {
  P->Links = L;
  if (!L)
    return;
  P->LinkVals.assign(L->slots(), PathVal());
  P->LinkLeft.resize(L->slots());
  for (std::size_t S = 0; S < L->slots(); ++S)
    P->LinkLeft[S] = L->consumers(std::uint32_t(S));
}
void Analyzer::add(std::uint32_t Thread, const Event &E) { add(Thread, &E, 1); }
void Analyzer::add(std::uint32_t Thread, const Event *E, std::size_t N) {
  Impl &I = *P;
  // The trace reader's events (unfolded) and the runtime's (folded) are
  // read in the same form (rules.h, rule 1).
  rules::forEachEvent(E, N, [&](const Event &X) { I.add(Thread, X); });
}
Result Analyzer::finish() { return P->finish(); }
std::uint64_t Analyzer::peakLiveTasks() const { return P->PeakLive; }

} // namespace otter::analysis
