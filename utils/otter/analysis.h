//===- otter/analysis.h - Streaming work/span/profile analysis --*- C++ -*-===//
//
// One pass over OTTER's Event stream, in global time order (each thread's
// events in recorded order, threads merged by timestamp), with compact
// per-task state that is released when a task and its children are done:
// memory grows with the number of *live* tasks (plus 4 bytes per task id),
// never with the number of events. See docs/utils.md for every definition.
//
// Why time order: every cross-task value the span needs flows from an event
// that happens before the event that consumes it (a child completes before
// the taskwait that waits for it ends; every member arrives at a barrier
// before any leaves; a predecessor completes before its successor starts),
// so longest paths can be computed with running maxima, in linear time.
//
// The graph whose paths are measured is the task graph (docs/graph.md): the
// analysis follows the same OpenMP rules as the graph builder, from one
// module (graph/rules.h; why it does not run over the builder's graph is
// measured there). The implementation: analysis_impl.h.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_ANALYSIS_H
#define OTTER_UTILS_ANALYSIS_H

#include "graph/rules.h"
#include "otter/events.h"
#include "states.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace otter::analysis {

/// Code addresses in an MPI job's merged stream (utils/otter/job.h) carry
/// their rank: (rank + 1) << CodeRankShift | address. A single process's
/// are plain addresses (rank -1).
inline constexpr unsigned CodeRankShift = 48;
inline std::uint64_t codeAddress(std::uint64_t Code) {
  return Code & ((std::uint64_t(1) << CodeRankShift) - 1);
}
inline int codeRank(std::uint64_t Code) {
  return int(Code >> CodeRankShift) - 1;
}

/// Kinds of source constructs, as the analysis reports them: the graph's
/// constructs (rules.h).
using Kind = rules::Construct;
const char *kindName(Kind K);

// 4 per power of two: 64 powers cover every uint64 ns with <= 25% bucket
// width, enough for a median, in 1 KiB per task construct.
inline constexpr unsigned HistBuckets = 256;

/// The scheduling cost model (docs/utils.md, "Reading OTTER's numbers"):
/// a deferred task's dispatch latency is the time from its thread's
/// previous event, its creation or its last predecessor's completion,
/// whichever is last, to its start; the scheduling cost is this fraction's
/// percentile of every deferred task's latency. A low percentile, not the
/// mean or the median: the replay itself models a task waiting for a free
/// core, so what it needs is the runtime's cost when a core is free; the
/// upper part of the distribution is queueing and, on a loaded machine,
/// OS preemption (a mean of it predicted one core at twice the work), and
/// a low percentile stays put while up to three quarters of the samples
/// are so disturbed.
inline constexpr double SchedulingCostPercentile = 0.25;
/// The histogram's Fraction-percentile (bucket midpoint); 0 if empty.
double histPercentile(const std::vector<std::uint32_t> &H, double Fraction);
/// The scheduling cost from a histogram (bucketOf) of dispatch latencies.
double schedulingCostNs(const std::vector<std::uint32_t> &DispatchHist);

/// One of the program's phases (otter/otter.h), by name: its instances (a
/// begin and its end in one task) and their time, begin to end.
struct PhaseStats {
  std::uint32_t Name = 0; // id in the trace's name table
  std::uint64_t Instances = 0, TotalNs = 0, MaxNs = 0;
};
/// One target construct's call site (offload, docs/offload.md): its
/// instances (begin to end on the thread that ran it) and the transfers
/// between them, to and from the device (OMPT's transfer data operations,
/// synchronous or asynchronous).
struct OffloadStats {
  std::uint64_t Code = 0;       // the construct's code address (its begin's)
  std::uint16_t TargetKind = 0; // OMPT's ompt_target_t of its begin
  std::uint64_t Instances = 0, TotalNs = 0, MaxNs = 0;
  std::uint64_t BytesTo = 0, TransfersTo = 0;
  std::uint64_t BytesFrom = 0, TransfersFrom = 0;
  std::uint64_t Kernels = 0; // kernel submissions
  /// Repeated transfers (diagnose): the instances that moved bytes to the
  /// device, the fewest and most bytes one of them moved, and the time of
  /// its transfers to the device (their data operations' begin to end).
  std::uint64_t InstancesTo = 0, MinInstanceBytesTo = ~std::uint64_t(0),
                MaxInstanceBytesTo = 0, TransferToNs = 0;
};
/// Tasks named by otter_task_label, by name (a task's last label).
struct LabelStats {
  std::uint32_t Name = 0;
  std::uint64_t Tasks = 0;
};

/// Everything measured for one source construct (code address and kind).
struct ConstructStats {
  std::uint64_t Code = 0;
  Kind K = Kind::Task;
  std::uint64_t Instances = 0;
  std::uint64_t TotalNs = 0; // see docs/utils.md: per kind
  std::uint64_t MaxNs = 0;
  std::uint64_t WaitNs = 0;    // waiting (sync wait, lock acquisition)
  std::uint64_t Contended = 0; // lock acquisitions that waited > 1 us
  // Parallel regions: summed over instances. Fork: the encountering task's
  // own execution between fork and join (starting the team's threads): in
  // the program's work, not in the region's work or span.
  std::uint64_t RegionWorkNs = 0, RegionSpanNs = 0, RegionWallNs = 0,
                RegionThreadNs = 0, RegionBusyNs = 0, RegionForkNs = 0;
  // Join: from the encountering thread's implicit task end to the region's
  // end. Burdened span: fork + the members' longest path with each task
  // paying the burden + join, as ns (RegionBSpanNs) and tasks entered
  // (RegionBTasks); Result::regionBurdenedSpanNs weighs them.
  std::uint64_t RegionJoinNs = 0, RegionBSpanNs = 0, RegionBTasks = 0;
  // Imbalance among threads of a team (parallel regions, loops).
  std::uint64_t TeamImbInstances = 0, TeamImbLostNs = 0;
  double TeamImbWorstRatio = 0; // max over instances of max/mean
  // Imbalance among sibling tasks (same creator, same construct).
  std::uint64_t SibGroups = 0, SibLostNs = 0;
  double SibWorstRatio = 0;
  std::vector<std::uint32_t> Hist; // tasks: execution-time histogram
  /// Tasks: how many of its tasks each otter_task_label name labelled (a
  /// task's last label), by name id; empty without labels.
  std::map<std::uint32_t, std::uint64_t> TaskLabels;
  /// MPI calls (Kind::Mpi): the function called at this site.
  std::uint16_t MpiFunction = 0;
  /// Run as a device's work, not the host program's: the host plugin's
  /// kernel threads (a target region's league, its teams and what they
  /// do) and libomp's hidden helper team (docs/offload.md, "The host
  /// thread"). With a GPU these threads do not exist.
  bool Device = false;
  std::uint64_t medianNs() const;
};

/// One thread's time (Result::PerThread, by thread index): its state
/// timeline's totals (states.h). BusyNs + WaitNs + IdleNs + ToolNs =
/// Last - First.
struct ThreadTime {
  bool Seen = false;
  std::uint64_t BusyNs = 0;          // running: executing task code
  std::uint64_t WaitNs = 0;          // waiting (OpenMP syncs, locks, MPI calls)
  std::uint64_t MpiNs = 0;           // inside MPI calls (part of WaitNs)
  std::uint64_t IdleNs = 0;          // no task on the thread
  std::uint64_t First = 0, Last = 0; // its first and last event
  std::uint64_t ToolNs = 0;          // OTTER's own time (ThreadState::Tool)
};

/// OpenMP idle threads (docs/utils.md, "Idle threads"): a worker's time
/// with no work after its team's region ended (in libomp's barrier or its
/// thread pool) until the next region starts, by what the team's primary
/// thread did meanwhile: State/K/Code its state timeline's interval then
/// (serial code: Running its own task; an MPI call: Waiting in K = Mpi),
/// After the region it had left (code address).
struct IdleCause {
  ThreadState State = ThreadState::Running;
  Kind K = Kind::Initial;
  std::uint64_t Code = 0, After = 0;
  std::uint64_t Ns = 0;
};

/// A target construct: its encountering task waits there for its device
/// (analysis_offload.cpp).
inline bool isTargetConstruct(Kind K) {
  return K == Kind::Target || K == Kind::TargetEnterData ||
         K == Kind::TargetExitData || K == Kind::TargetUpdate;
}

struct PathStep {
  std::uint64_t Code = 0;
  Kind K = Kind::Task;
  std::uint64_t Ns = 0;
  std::uint64_t Instances = 0; // tasks of this construct entered on the path
  /// The otter_task_label name of its tasks (id in the trace's name table;
  /// 0: unlabelled). Consecutive tasks of one construct with different
  /// labels are different steps.
  std::uint32_t Label = 0;
};

struct Result {
  std::uint64_t FirstTime = 0, LastTime = 0;
  std::uint32_t Threads = 0;
  std::uint64_t Events = 0;
  std::uint64_t ExplicitTasks = 0, ImplicitTasks = 0, ParallelRegions = 0;
  std::uint64_t WorkNs = 0, SpanNs = 0;
  std::uint64_t PathTasks = 0; // tasks entered along the critical path
  // The longest burdened path: BurdenedA ns (execution, fork and join
  // times) and BurdenedK tasks entered, each paying BurdenNs (the
  // scheduling cost, or the burden given to the analysis).
  std::int64_t BurdenedA = 0;
  std::uint64_t BurdenedK = 0;
  double BurdenNs = 0;
  std::uint64_t WaitNs = 0;    // thread time waiting (sync, locks, MPI)
  std::uint64_t BusyNs = 0;    // thread time executing task code
  std::uint64_t MpiNs = 0;     // thread time inside MPI calls (in WaitNs)
  /// OTTER's own time, out of every other figure (states.h, Tool): its
  /// buffer flushes (ToolFlushNs) and the recording cost taken out of short
  /// intervals (RecordingNs, RecordingCostNs per event where it weighs).
  std::uint64_t ToolNs = 0, ToolFlushNs = 0, RecordingNs = 0;
  std::uint64_t RecordingCostNs = 0; // the run's measured cost per event
  /// Waiting or descheduled (docs/utils.md): over the windows between each
  /// thread's CPU samples (ThreadCpu events), the wall time they cover, the
  /// CPU time the threads used in them, and the least running time the OS
  /// took away: per window, wall - CPU time beyond the thread's waiting,
  /// idle and OTTER's time there (a wait may sleep, a running task may
  /// not). Involuntary context switches in them; the fewest CPUs a thread
  /// was allowed to run on (0: no sample).
  std::uint64_t CpuWindowNs = 0, CpuUsedNs = 0, DescheduledNs = 0;
  std::uint64_t InvoluntarySwitches = 0;
  std::uint32_t Cpus = 0;
  /// OpenMP idle threads (IdleCause): in all, and by cause, largest first.
  /// Part of the threads' idle time (ThreadTime::IdleNs), never waiting.
  std::uint64_t IdleThreadsNs = 0;
  std::vector<IdleCause> IdleCauses;
  std::vector<ThreadTime> PerThread;
  /// CreateCostNs: the median creation cost. ScheduleCostNs: the
  /// scheduling cost, the one figure `parallelism` (burden), `simulate`
  /// (cost per dispatched task), `diagnose` and the report use
  /// (schedulingCostNs over ScheduleSamples deferred tasks).
  double CreateCostNs = 0, ScheduleCostNs = 0;
  std::uint64_t CreateSamples = 0, ScheduleSamples = 0;
  /// The dispatch latencies summed (their mean, for comparison: on a
  /// loaded machine mostly queueing and preemption).
  std::uint64_t DispatchTotalNs = 0;
  std::vector<ConstructStats> Constructs; // sorted by TotalNs, descending
  std::vector<PathStep> CriticalPath;     // program order, merged steps
  std::vector<PhaseStats> Phases;         // by TotalNs, descending
  std::vector<LabelStats> TaskLabels;     // by Tasks, descending
  std::uint64_t Marks = 0;                // mark events
  std::vector<OffloadStats> Offload;      // by code address
  std::vector<std::string> Warnings;
  std::uint64_t runNs() const {
    return LastTime > FirstTime ? LastTime - FirstTime : 0;
  }
  double parallelism() const {
    return SpanNs ? double(WorkNs) / double(SpanNs) : 0;
  }
  /// The critical path's time in target constructs: its tasks waiting for
  /// their devices (in the span, not in work: docs/offload.md).
  std::uint64_t devicePathNs() const {
    std::uint64_t Ns = 0;
    for (const PathStep &P : CriticalPath)
      if (isTargetConstruct(P.K))
        Ns += P.Ns;
    return Ns;
  }
  /// Creation + scheduling cost: what one task costs (diagnose).
  double burdenNs() const { return CreateCostNs + ScheduleCostNs; }
  /// The burdened span (docs/utils.md): the longest path when every explicit
  /// task pays BurdenNs before it starts (creation is already in its
  /// creator's execution time) and every parallel region's members start
  /// after its fork time and join it after its join time. Never below the
  /// span.
  double burdenedSpanNs() const {
    return std::max(double(SpanNs),
                    double(BurdenedA) + double(BurdenedK) * BurdenNs);
  }
  double regionBurdenedSpanNs(const ConstructStats &S) const {
    return std::max(double(S.RegionSpanNs),
                    double(S.RegionBSpanNs) +
                        double(S.RegionBTasks) * BurdenNs);
  }
  double burdenedParallelism() const {
    double B = burdenedSpanNs();
    return B > 0 ? double(WorkNs) / B : 0;
  }
};

/// Optional observer of execution intervals (for exporters), called as the
/// analysis discovers them.
class Observer {
public:
  virtual ~Observer() = default;
  /// An explicit task ran from Start to End (first start to completion).
  virtual void task(std::uint32_t Thread, std::uint64_t Id, std::uint64_t Code,
                    std::uint64_t Start, std::uint64_t End,
                    std::uint64_t ExecNs) = 0;
  /// A construct instance on a thread (implicit task, parallel, loop,
  /// sync, critical ...).
  virtual void construct(std::uint32_t Thread, Kind K, std::uint64_t Code,
                         std::uint64_t Start, std::uint64_t End) = 0;
  /// A graph edge into task ToTask: creation (from the creator's thread at
  /// creation time) or dependence (from the predecessor's completion). The
  /// edge ends where ToTask starts (reported later through task()).
  virtual void flow(bool Dependence, std::uint32_t FromThread,
                    std::uint64_t FromTime, std::uint64_t ToTask) = 0;
  /// Aggregate graph edge between constructs (creation, dependence, sync,
  /// program order), once per instance.
  virtual void constructEdge(std::uint64_t FromCode, Kind FromKind,
                             std::uint64_t ToCode, Kind ToKind,
                             const char *EdgeKind) = 0;
  // The program's annotations (otter/otter.h), names by id in the trace's
  // name table. A phase instance (a begin and its end in one task), on the
  // thread of its end; task Id labelled (before its task() call); a mark.
  virtual void phase(std::uint32_t /*Thread*/, std::uint32_t /*Name*/,
                     std::uint64_t /*Begin*/, std::uint64_t /*End*/) {}
  virtual void taskLabel(std::uint64_t /*Id*/, std::uint32_t /*Name*/) {}
  virtual void mark(std::uint32_t /*Thread*/, std::uint32_t /*Name*/,
                    std::uint64_t /*Time*/) {}
  /// One interval of the thread's state timeline (states.h): each thread's
  /// intervals in time order, adjacent, covering its first to last event;
  /// neighbours with the same state, construct and task are one interval.
  virtual void state(std::uint32_t /*Thread*/, const StateInterval & /*I*/) {}
  /// Target offload (analysis_offload.cpp): a kernel submission (What
  /// "kernel") or a data operation ("transfer to device", ...) of the
  /// target construct at Code, on device Device, from Start to End as the
  /// host thread Thread saw it; Bytes: a data operation's.
  virtual void device(std::uint32_t /*Thread*/, std::int32_t /*Device*/,
                      const char * /*What*/, std::uint64_t /*Code*/,
                      std::uint64_t /*Start*/, std::uint64_t /*End*/,
                      std::uint64_t /*Bytes*/) {}
  /// An MPI call (function: mpi::Function's value) at Code, from Start to
  /// End: by default a construct instance of kind Mpi.
  virtual void mpiCall(std::uint32_t Thread, std::uint64_t Code,
                       std::uint16_t /*Function*/, std::uint64_t Start,
                       std::uint64_t End) {
    construct(Thread, Kind::Mpi, Code, Start, End);
  }
  /// Whether state() is wanted (asked once, at Analyzer::setObserver):
  /// without it the analysis does not build the intervals.
  virtual bool wantsStates() const { return false; }
};

/// Forwards every observation to two observers (an exporter beside the
/// report's timeline, say).
class TeeObserver final : public Observer {
public:
  TeeObserver(Observer &A, Observer &B) : A(A), B(B) {}
  void task(std::uint32_t Th, std::uint64_t Id, std::uint64_t Code,
            std::uint64_t S, std::uint64_t E, std::uint64_t X) override {
    A.task(Th, Id, Code, S, E, X);
    B.task(Th, Id, Code, S, E, X);
  }
  void construct(std::uint32_t Th, Kind K, std::uint64_t Code, std::uint64_t S,
                 std::uint64_t E) override {
    A.construct(Th, K, Code, S, E);
    B.construct(Th, K, Code, S, E);
  }
  void flow(bool D, std::uint32_t Th, std::uint64_t T,
            std::uint64_t To) override {
    A.flow(D, Th, T, To);
    B.flow(D, Th, T, To);
  }
  void constructEdge(std::uint64_t F, Kind FK, std::uint64_t T, Kind TK,
                     const char *EK) override {
    A.constructEdge(F, FK, T, TK, EK);
    B.constructEdge(F, FK, T, TK, EK);
  }
  void phase(std::uint32_t Th, std::uint32_t N, std::uint64_t S,
             std::uint64_t E) override {
    A.phase(Th, N, S, E);
    B.phase(Th, N, S, E);
  }
  void taskLabel(std::uint64_t Id, std::uint32_t N) override {
    A.taskLabel(Id, N);
    B.taskLabel(Id, N);
  }
  void mark(std::uint32_t Th, std::uint32_t N, std::uint64_t T) override {
    A.mark(Th, N, T);
    B.mark(Th, N, T);
  }
  void state(std::uint32_t Th, const StateInterval &I) override {
    A.state(Th, I);
    B.state(Th, I);
  }
  bool wantsStates() const override {
    return A.wantsStates() || B.wantsStates();
  }
  void device(std::uint32_t Th, std::int32_t D, const char *W, std::uint64_t C,
              std::uint64_t S, std::uint64_t E, std::uint64_t By) override {
    A.device(Th, D, W, C, S, E, By);
    B.device(Th, D, W, C, S, E, By);
  }
  void mpiCall(std::uint32_t Th, std::uint64_t C, std::uint16_t F,
               std::uint64_t S, std::uint64_t E) override {
    A.mpiCall(Th, C, F, S, E);
    B.mpiCall(Th, C, F, S, E);
  }

private:
  Observer &A, &B;
};

/// What connects the ranks of an MPI job (the job graph's messages and
/// collectives, utils/otter/job.h), for an analysis of the job's merged
/// event stream. Values pass through numbered slots: at the start of an
/// MPI call, the calling task's path is published into the call's Publish
/// slots (a send it posts, its part of a collective: a slot keeps the
/// longest value published into it); at the end of an MPI call, its Merge
/// slots are merged into the task's path (a receive it completed, a
/// collective's result). A slot is released after its last consumer.
struct MpiLinks {
  std::vector<std::uint32_t> Publish, Merge;
};
class LinkSource {
public:
  virtual ~LinkSource() = default;
  /// The links of the MPI call that Begin (an MpiCallBegin) starts on
  /// thread Thread; nullptr: none.
  virtual const MpiLinks *links(std::uint32_t Thread, const Event &Begin) = 0;
  virtual std::size_t slots() const = 0;
  /// How many calls merge slot S.
  virtual std::uint32_t consumers(std::uint32_t S) const = 0;
};

class Analyzer {
public:
  Analyzer();
  ~Analyzer();
  void setObserver(Observer *O);
  /// The burden per task of the burdened span, in ns; by default the
  /// scheduling cost measured in the trace.
  void setBurden(double Ns);
  /// OTTER's measured cost of recording one event (the trace's; 0: none):
  /// taken out of the intervals it weighs in (states.h, recordingCostIn).
  void setRecordingCost(std::uint64_t Ns);
  /// Links between the ranks of a job (set before the first event).
  void setLinks(LinkSource *L);
  /// Whether a parallel region's code address is a team libomp runs for
  /// itself (its hidden helper team, whose threads run `nowait` target
  /// tasks): its threads' time is device work, not the program's.
  void setRuntimeTeam(std::function<bool(std::uint64_t Code)> IsRuntime);
  /// Feed events in global time order (see the file comment).
  void add(std::uint32_t Thread, const Event &E);
  /// A run of one thread's events (same order requirement).
  void add(std::uint32_t Thread, const Event *E, std::size_t N);
  Result finish();
  /// Peak number of live task slots (for memory diagnostics).
  std::uint64_t peakLiveTasks() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace otter::analysis

#endif
