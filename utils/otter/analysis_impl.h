//===- otter/analysis_impl.h - The streaming analysis' state --*- C++ -*-===//
//
// Internal to the analysis (analysis*.cpp): the state of the one pass over
// the events and the handlers that update it. The pass is split by concern,
// one file each:
//  - analysis.cpp: the event loop (one handler per event kind), time
//    accounting (whose time each interval between a thread's events is, in
//    which state: the state timeline, states.h), the result;
//  - analysis_paths.cpp: longest paths (span, critical path) and the task
//    lifecycle: creation, start, completion, dependences, the waits of
//    taskwait and taskgroup;
//  - analysis_teams.cpp: parallel regions, implicit tasks and barriers;
//  - analysis_profile.cpp: per-construct statistics (summary, diagnose).
// What the events mean in OpenMP terms (who waits for a task, dependences,
// libomp's order, labels, ids) is graph/rules.h, shared with the graph
// builder; this file holds only the streaming representation of it.
//
// Path lengths: every task T has path(T) = Base + Exec, the length of the
// longest path (weighted by execution time) from the program's start to
// T's current point. Exec grows while T runs its own code; a value v that
// must precede T's next step (a child's completion at a taskwait, a barrier,
// a predecessor task) is merged by path(T) = max(path(T), v). Each value
// carries a reference to a path record (a refcounted, persistent list of
// (construct, ns) steps), so the critical path is the record list of the
// largest final value. Records nobody refers to are recycled.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_ANALYSIS_IMPL_H
#define OTTER_UTILS_ANALYSIS_IMPL_H

#include "analysis.h"
#include "graph/rules.h"

#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace otter::analysis {

inline constexpr std::uint32_t None = ~0u;
static_assert(None == rules::TaskIndex::NoIndex);
// "No path yet": below any real length, yet far enough from INT64_MIN that
// a sum or difference with a real length cannot overflow.
inline constexpr std::int64_t NegInf = INT64_MIN / 4;

unsigned bucketOf(std::uint64_t Ns);
double histMedian(const std::vector<std::uint32_t> &H);

/// One step of a path: Ns of construct (Code, K), after record Prev.
/// 32-bit indices and a code index, not pointers or addresses: one record
/// per task segment on a live path, so its size is the analysis' memory.
struct Record {
  std::uint64_t Ns;
  std::uint32_t Prev;
  std::uint32_t Refs;
  std::uint32_t Code; // code index
  std::uint32_t Cum;  // tasks entered along the path up to here
  // The task's otter_task_label name when the segment closed (0: none): in
  // the padding, the record stays 32 bytes.
  std::uint32_t Label;
  std::uint8_t K;
  bool First; // first segment of its task
};
static_assert(sizeof(Record) == 32, "a record per live path segment");

/// A path length in the burdened graph (docs/utils.md, burdened span): A
/// ns of execution and fork/join time, and K explicit tasks entered, each of
/// which pays the burden b (the scheduling cost). b is known only at the end
/// of the pass (a median), so a path keeps A and K apart, and paths are
/// compared by A + K * (the burden as measured so far): the reported value
/// A + K * b is that of a real path, exact when b is given (setBurden).
struct BPath {
  std::int64_t A = NegInf;
  std::uint32_t K = 0;
};

/// A path length and the record of its last step; beside it the longest
/// burdened path into the same point (another path, maybe).
struct PathVal {
  std::int64_t V = NegInf;
  std::uint32_t Rec = None;
  BPath B;
};

enum SlotFlags : std::uint32_t {
  SStarted = 1u << 0,
  SCompleted = 1u << 1,
  SOwnRec = 1u << 2,
  SKeep = 1u << 3, // has dependences: may be a predecessor later
  SImplicit = 1u << 4,
  SWaited = 1u << 5,    // a construct waited for it (kept tasks only)
  SImmediate = 1u << 6, // undeferred or included: run by its creator at once
  SPrimary = 1u << 7,   // a team's primary member (index 0): the join's
  SLeague = 1u << 8,    // a host team's initial task (a league's member)
  SDevice = 1u << 9,    // device work: a member of a Team::Device team
};

/// One live task (explicit, implicit or initial).
struct Slot {
  std::uint64_t Id = 0;
  std::int64_t Base = 0;
  std::int64_t BBase = 0; // burdened path: BBase + Exec, BK tasks entered
  std::uint32_t BK = 0;
  std::uint64_t Exec = 0, MarkExec = 0, Start = 0;
  std::uint64_t Ready = 0; // last predecessor's completion (dependences)
  std::uint32_t Rec = None, Code = 0, Creator = None, Group = None, Team = None,
                Epoch = 0, Live = 0, Extra = None, Flags = 0, StartThread = 0,
                LastCode = 0;
  Kind K = Kind::Task;
  Kind LastKind = Kind::Task;
};

/// The dependences among one creator's children.
struct DependenceState {
  rules::DependenceRules Rules;
  std::vector<std::uint32_t> KeptChildren; // with dependences, not waited
  std::uint32_t DepChild = None;           // the child whose dependences
  std::vector<std::uint32_t> DepLinked;    // are arriving, and its preds
};

/// State of a task that has created children (Slot::Extra). Small: every
/// task of a recursive program has one; the dependence state is apart.
struct CreatorState {
  PathVal Pend; // longest completed child: its next taskwait waits for it
  std::uint32_t SibCode = 0, SibN = 0;
  std::uint64_t SibSum = 0, SibMax = 0;
  std::unique_ptr<DependenceState> Deps; // made for the first dependence
  DependenceState &deps() {
    if (!Deps)
      Deps = std::make_unique<DependenceState>();
    return *Deps;
  }
};

/// An open taskgroup.
struct GroupFrame {
  PathVal Max; // longest completed member (descendants included)
  std::uint32_t Parent = None;
  std::vector<std::uint32_t> Kept; // members with dependences, not waited
};

/// A worksharing loop instance in a team, while its members end it.
struct WorkInst {
  std::uint32_t N = 0, Code = 0;
  std::uint64_t Sum = 0, Max = 0;
};

/// A team: one parallel region instance (or an initial task's own
/// pseudo-team).
struct Team {
  std::uint64_t Id = 0;
  std::uint32_t Code = 0, Size = 1, Members = 0, Ended = 0, Epoch = 0;
  std::uint32_t ParentTeam = None, Encountering = None;
  std::uint32_t EncThread = None; // the thread of its parallel begin
  bool ParallelEnded = false, Finalized = false, Pseudo = false;
  /// A device's work (ConstructStats::Device): a league begun in a target
  /// region, a team forked by device work, libomp's hidden helper team.
  /// Its threads' idle time is no OpenMP idle threads of the program.
  bool Device = false;
  std::int64_t ForkV = 0;       // the encountering task's path at the fork
  std::uint32_t ForkRec = None; // and its record: where members start
  BPath BFork;                  // its burdened path at the fork
  std::uint64_t EncExecAtFork = 0;
  PathVal Join;
  /// Barrier instances in flight, by epoch parity: a member may complete
  /// barrier k and reach k+1 before another has left k.
  struct Bar {
    std::uint32_t K = None;
    PathVal Arr, Pend;               // members' arrivals, team's tasks
    std::vector<std::uint32_t> Kept; // tasks with dependences, not waited
  } Bars[2];
  std::uint64_t Begin = 0, End = 0, Work = 0, ForkNs = 0;
  std::uint64_t BusySum = 0, BusyMax = 0;
  std::uint32_t BusyN = 0;
  std::int64_t JoinSpan = -1;
  // Join time: from the encountering thread's implicit task end to the
  // region's end (no task runs then). Burdened span of the instance: fork
  // + members' burdened span + join, as BSpanA ns and BSpanK tasks.
  std::uint64_t JoinNs = 0;
  std::int64_t BSpanA = -1;
  std::uint32_t BSpanK = 0;
  std::unordered_map<std::uint32_t, WorkInst> Works;
};

/// A wait on a thread: a sync region's wait or a mutex acquisition.
struct WaitFrame {
  std::uint32_t Task, Code;
  Kind K;
  bool Mutex;
  std::uint64_t Ns, Start;
  /// A target construct's wait (analysis_offload.cpp): the task's path,
  /// burdened path and path record (one reference held) at its begin.
  std::int64_t PathAtBegin = 0;
  BPath BPathAtBegin{};
  std::uint32_t RecAtBegin = None;
};
/// A construct instance open on a thread.
struct OpenFrame {
  std::uint32_t Task, Code;
  Kind K;
  std::uint64_t Start;
  std::uint32_t WorkIndex; // loops: index of the construct in the member
};
struct ImplFrame {
  std::uint32_t Task;
  std::uint64_t BusyAtBegin;
  std::uint32_t Works = 0;
};

/// An MPI call open on a thread.
struct MpiFrame {
  std::uint32_t Task, Code;
  std::uint16_t Function;
  std::uint64_t Start;
  const MpiLinks *Links;
};

/// What a team's primary thread did while the team's other threads were
/// idle (analysis_idle.cpp): one piece of its state timeline. Code: a code
/// index.
struct Activity {
  std::uint64_t Start, End;
  ThreadState St;
  Kind K;
  std::uint32_t Code;
};

struct ThreadSt {
  bool Seen = false;
  std::uint32_t Cur = None; // the task running on the thread
  std::uint64_t First = 0, Last = 0, Busy = 0, Wait = 0, Mpi = 0, Idle = 0;
  std::uint64_t Tool = 0; // OTTER's own time (states.h, ThreadState::Tool)
  bool InTool = false;    // between a ToolBegin and its ToolEnd
  /// The thread's last CPU sample (ThreadCpu): when, its CPU time and
  /// involuntary switches then, and its time not running by then (waiting,
  /// idle, OTTER's).
  bool CpuSeen = false;
  std::uint64_t CpuAt = 0, CpuNs = 0, CpuNotRunning = 0;
  std::uint32_t CpuInvoluntary = 0;
  std::uint64_t Prev = 0; // the time of the thread's event before this one
  /// The state timeline's interval still growing (states.h): reported to
  /// the observer when the next one differs (only with an observer).
  StateInterval Run;
  bool RunOpen = false;
  std::uint64_t PendingCreate = 0;
  /// The last implicit task that ended on the thread, and when: a region's
  /// join time starts there.
  std::uint32_t LastImplTeam = None;
  std::uint64_t LastImplEnd = 0;
  /// The worksharing construct that ended last on the thread: its implicit
  /// barrier is counted under it (rules::implicitBarrierRow).
  std::uint32_t LastWorkCode = 0;
  /// A taskgroup begin whose program-order edge waits for the task's next
  /// event (rules::adjustLibompOrder: a taskloop's taskgroup goes inside).
  std::uint32_t DeferredGroupTask = None, DeferredGroupCode = 0;
  std::vector<WaitFrame> Waits;
  std::vector<OpenFrame> Open;
  std::vector<ImplFrame> Impl;
  std::vector<MpiFrame> MpiCalls;
  /// As a primary thread (analysis_idle.cpp): its activity from the end of
  /// the last region it encountered (team LogTeam, code index LogAfter) to
  /// its next fork (LogOpen: not yet forked), which its idle workers are
  /// blamed on.
  std::vector<Activity> Log;
  std::uint32_t LogTeam = None, LogAfter = 0;
  bool LogOpen = false;
};

struct Analyzer::Impl {
  Observer *Obs = nullptr;
  bool StatesWanted = false; // Obs->wantsStates()
  std::vector<Slot> Slots;
  std::vector<std::uint32_t> FreeSlots;
  std::uint64_t Live = 0, PeakLive = 0;
  std::vector<Record> Recs;
  std::vector<std::uint32_t> FreeRecs;
  std::vector<CreatorState> Creators;
  std::vector<std::uint32_t> FreeCreators;
  std::vector<GroupFrame> Groups;
  std::vector<std::uint32_t> FreeGroups;
  std::vector<Team> Teams;
  std::unordered_map<std::uint64_t, std::uint32_t> TeamOf;
  /// Host teams constructs under way (their leagues' teams), innermost last.
  std::vector<std::uint32_t> OpenLeagues;
  std::vector<ThreadSt> Threads;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> Successors;
  rules::TaskIndex Ids; // task id -> slot
  std::vector<std::uint32_t> PredScratch;

  // Code index -> address; index 0 is "no address" (code(0) == 0), so an
  // unlabelled construct needs no special case.
  std::vector<std::uint64_t> Codes{0};
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIndex;
  std::vector<ConstructStats> Stats;
  std::vector<std::uint32_t> StatOf; // (code, kind) -> Stats index + 1

  std::vector<std::uint32_t> CreateHist =
      std::vector<std::uint32_t>(HistBuckets);
  // Every deferred task's dispatch latency (the scheduling cost's samples).
  std::vector<std::uint32_t> DispatchHist =
      std::vector<std::uint32_t>(HistBuckets);
  PathVal Best;
  // The burden per task of the burdened paths: given (setBurden), or the
  // scheduling cost measured so far (updated as samples come in).
  std::int64_t BurdenEst = 0;
  bool FixedBurden = false;
  // OTTER's measured cost per event (setRecordingCost; 0: none subtracted).
  std::uint64_t RecordingCostNs = 0;
  Result R;
  bool First = true;
  // The program's annotations (otter/otter.h): open phases per task (name,
  // begin time), per name totals, each task's last label.
  std::unordered_map<TaskId,
                     std::vector<std::pair<std::uint32_t, std::uint64_t>>>
      OpenPhases;
  std::map<std::uint32_t, PhaseStats> PhaseAcc;
  std::unordered_map<TaskId, std::uint32_t> LabelOfTask;
  // Offload (analysis_offload.cpp): per thread, its open target constructs
  // (their stats' index, begin time, bytes moved to the device so far, the
  // begin of a transfer to the device in progress); the stats by code
  // address.
  struct OpenTarget {
    std::size_t Index;
    std::uint64_t Begin, BytesTo = 0, ToBegin = 0;
    std::int32_t Device = 0;
    std::uint64_t Code = 0, OpBegin = 0, SubmitBegin = 0; // for Obs
  };
  std::unordered_map<std::uint32_t, std::vector<OpenTarget>> OpenTargets;
  std::map<std::uint64_t, std::size_t> OffloadIndex;
  void onTarget(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                const Event &E);
  void targetWaitEnded(ThreadSt &TS, std::uint32_t T, std::uint64_t End);
  std::uint64_t OutOfOrder = 0;
  /// OpenMP idle threads (analysis_idle.cpp): idle time by what the primary
  /// thread did then (state, construct, code index, the region it had left).
  std::map<std::tuple<ThreadState, Kind, std::uint32_t, std::uint32_t>,
           std::uint64_t>
      IdleBlame;
  /// Code indices of constructs run as device work (Team::Device), and
  /// the predicate of libomp's own teams (Analyzer::setRuntimeTeam).
  std::vector<bool> DeviceCode;
  std::function<bool(std::uint64_t)> IsRuntimeTeam;
  void markDeviceCode(std::uint32_t Code) {
    if (Code >= DeviceCode.size())
      DeviceCode.resize(std::max<std::size_t>(Code + 1, Codes.size()));
    DeviceCode[Code] = true;
  }
  /// Whether thread TS is in a target construct: what begins on it then is
  /// the construct's kernel (the host plugin runs it there).
  bool inTargetConstruct(const ThreadSt &TS) const;
  // Between the ranks of a job (analysis_mpi.cpp).
  LinkSource *Links = nullptr;
  std::vector<PathVal> LinkVals;
  std::vector<std::uint32_t> LinkLeft;
  std::uint64_t LateLinks = 0;

  // ---- analysis.cpp: the event loop --------------------------------------
  void add(std::uint32_t Th, const Event &E);
  // Inline into the loop: run for every event.
  [[gnu::always_inline]] inline void chargeTime(ThreadSt &TS, const Event &E);
  /// The state timeline (states.h): [From, To) of thread TS is in state St
  /// (construct K at Code, task slot T or None); grows or reports TS.Run.
  void stateInterval(ThreadSt &TS, std::uint64_t From, std::uint64_t To,
                     ThreadState St, Kind K, std::uint32_t Code,
                     std::uint32_t T);
  void flushState(ThreadSt &TS);
  // ---- analysis_idle.cpp: OpenMP idle threads ----------------------------
  /// The part of a worker's barrier wait [From, To) after its team's region
  /// ended (idle, not waiting); 0 when none is.
  std::uint64_t idleInBarrier(const ThreadSt &TS, std::uint64_t From,
                              std::uint64_t To) const;
  /// Idle time [From, To) of worker TS: blamed on what its last team's
  /// primary thread did then, from the region's end on.
  void blameIdle(const ThreadSt &TS, std::uint64_t From, std::uint64_t To);
  /// A piece of a primary thread's timeline, kept while it is logging.
  void logActivity(ThreadSt &TS, std::uint64_t From, std::uint64_t To,
                   ThreadState St, Kind K, std::uint32_t Code);
  /// The region of team TI ended on TS / TS forks team TI: the log's ends.
  void startIdleLog(ThreadSt &TS, std::uint32_t TI);
  void stopIdleLog(ThreadSt &TS, std::uint32_t TI, std::uint64_t At);
  void finishIdle();
  /// A CPU sample: the window since the thread's previous one (analysis.h,
  /// Result::DescheduledNs).
  void onThreadCpu(ThreadSt &TS, const Event &E);
  /// A wait frame that is over (or never will be): its time goes to its
  /// construct's waiting time, as the timeline counted it.
  void retireWait(const WaitFrame &W) {
    if (W.Ns)
      stat(W.Code, W.K).WaitNs += W.Ns;
  }
  Result finish();
  void criticalPath();

  // One handler per event kind. T: the slot of E.Task (None if unknown).
  void onImplicitTaskBegin(ThreadSt &TS, std::uint32_t Th, const Event &E);
  void onImplicitTaskEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                         const Event &E);
  void onParallelBegin(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onParallelEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                     const Event &E);
  [[gnu::always_inline]] inline void
  onTaskCreate(ThreadSt &TS, std::uint32_t Th, std::uint32_t T, const Event &E);
  void onTaskDependence(std::uint32_t T, const Event &E);
  [[gnu::always_inline]] inline void
  onTaskSchedule(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                 const Event &E);
  void onSyncBegin(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onSyncEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                 const Event &E);
  void onSyncWaitBegin(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onWorkBegin(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onWorkEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                 const Event &E);
  void onMutexAcquire(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onMutexAcquired(ThreadSt &TS, std::uint32_t T, const Event &E);
  void onMutexReleased(ThreadSt &TS, std::uint32_t Th, const Event &E);

  // ---- analysis_mpi.cpp: MPI calls and the links between ranks ---------
  void onMpiCallBegin(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                      const Event &E);
  void onMpiCallEnd(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                    const Event &E);
  /// A zero-length path step at an MPI call (where a path crosses ranks),
  /// after Prev; one reference held by the caller.
  /// A path record of its own after Prev: an MPI call's zero-length step
  /// where a path crosses ranks, a target region's wait for its device.
  std::uint32_t stepRecord(std::uint32_t Prev, std::uint32_t Code, Kind K,
                           std::uint64_t Ns);

  // ---- analysis_paths.cpp: paths and the task lifecycle -----------------
  std::uint32_t slotOf(std::uint64_t Id) const {
    return Id ? Ids.find(Id) : None;
  }
  std::uint32_t newSlot(std::uint64_t Id);
  void incref(std::uint32_t R) {
    if (R != None)
      ++Recs[R].Refs;
  }
  void decref(std::uint32_t R);
  void assign(PathVal &Dst, std::int64_t V, std::uint32_t Rec);
  void resetVal(PathVal &P);
  std::int64_t path(const Slot &T) const {
    return T.Base + std::int64_t(T.Exec);
  }
  std::int64_t mark(std::uint32_t S);
  void merge(std::uint32_t S, std::int64_t V, std::uint32_t Rec);
  void merge(std::uint32_t S, const PathVal &P) {
    if (P.V != NegInf)
      merge(S, P.V, P.Rec);
    bmerge(S, P.B);
  }
  // Burdened paths (BPath).
  BPath bpath(const Slot &T) const {
    return {T.BBase + std::int64_t(T.Exec), T.BK};
  }
  bool bbetter(const BPath &X, const BPath &Y) const {
    if (X.A == NegInf)
      return false;
    if (Y.A == NegInf)
      return true;
    std::int64_t VX = X.A + std::int64_t(X.K) * BurdenEst,
                 VY = Y.A + std::int64_t(Y.K) * BurdenEst;
    return VX != VY ? VX > VY : X.A > Y.A;
  }
  void bassign(BPath &Dst, const BPath &V) {
    if (bbetter(V, Dst))
      Dst = V;
  }
  void bmerge(std::uint32_t S, const BPath &V);
  void assign(PathVal &Dst, std::int64_t V, std::uint32_t Rec, const BPath &B) {
    assign(Dst, V, Rec);
    bassign(Dst.B, B);
  }
  void updateBurden();
  std::uint32_t creatorState(std::uint32_t S);
  std::uint32_t newGroup(std::uint32_t Parent);
  void createTask(std::uint32_t Creator, std::uint32_t Child);
  void keepForDependences(std::uint32_t Child);
  void dependence(std::uint32_t Child, std::uint64_t Addr, DependenceType Type);
  void completeTask(std::uint32_t S, std::uint32_t Thread, std::uint64_t Time);
  void taskwaitEnded(std::uint32_t T);
  void taskgroupEnded(std::uint32_t T);
  void markWaited(std::vector<std::uint32_t> &Kept);
  void tryFree(std::uint32_t S);

  // ---- analysis_teams.cpp: teams and barriers ---------------------------
  std::uint32_t teamFor(std::uint64_t Id);
  Team::Bar &barFor(Team &Tm, std::uint32_t Epoch);
  void barrierArrived(std::uint32_t T);
  void barrierLeft(std::uint32_t T);
  void finalizeTeam(std::uint32_t TI);

  // ---- analysis_profile.cpp: per-construct statistics -------------------
  std::uint32_t code(std::uint64_t Addr);
  ConstructStats &stat(std::uint32_t Code, Kind K);
  void instance(std::uint32_t Code, Kind K, std::uint64_t Ns);
  void taskInstance(const Slot &T);
  void siblingCompleted(CreatorState &C, const Slot &T);
  void evalSiblings(std::uint32_t S);
  void loopMemberEnded(Team &Tm, const OpenFrame &F, std::uint64_t End);
  void programOrder(ThreadSt &TS, std::uint32_t S, std::uint32_t Code, Kind K);
  void emitOrder(std::uint32_t S, std::uint32_t Code, Kind K);
  void flushDeferredOrder(ThreadSt &TS);
  bool closeOpen(ThreadSt &TS, std::uint32_t Th, std::uint32_t T, Kind K,
                 std::uint64_t Time, OpenFrame *Out = nullptr);
  void popWait(ThreadSt &TS, std::uint32_t T);

  /// Code address -> code index: a direct-mapped cache in front of the map
  /// (a program has few distinct construct addresses, seen over and over).
  static constexpr std::size_t CodeCacheSize = 256;
  struct CodeCacheEntry {
    std::uint64_t Addr = 0;
    std::uint32_t Index = 0;
  };
  CodeCacheEntry CodeCache[CodeCacheSize];
};

} // namespace otter::analysis

#endif // OTTER_UTILS_ANALYSIS_IMPL_H
