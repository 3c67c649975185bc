//===- otter/report.h - Reports of the `otter` command ----------*- C++ -*-===//
//
// Text and JSON reports (summary, parallelism, diagnose) from an analysis
// Result. Labels come through a resolver so that tests can use synthetic
// ones. Constructs are grouped by source construct (kind + region id).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_REPORT_H
#define OTTER_UTILS_REPORT_H

#include "analysis.h"
#include "graph/aggregate.h"
#include "otter/label.h"
#include "path_condense.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace otter::analysis {

using LabelFn = std::function<SourceLabel(std::uint64_t Code)>;

/// One source construct: stats of all its code addresses merged.
struct Construct {
  ConstructStats S;
  SourceLabel L;
  std::string where() const; // "file:line", "~module+0x..", or "?"
};
/// The source constructs of R, sorted by total time: their code
/// addresses grouped by graph/aggregate.h's ConstructGroups (the grouping
/// graph.gv's aggregation uses too), keyed by kind and SourceConstructs'
/// identity (region id, file:line or address).
class GroupedConstructs {
public:
  GroupedConstructs(const Result &R, LabelFn Label);
  std::vector<Construct> Nodes;
  /// The node the construct (K, Code) was grouped into; npos if none.
  std::size_t find(Kind K, std::uint64_t Code) const;

private:
  LabelFn Label;
  ConstructGroups Groups;
  SourceConstructs Ids;
  std::vector<std::size_t> NodeOfGroup;
};
std::vector<Construct> groupConstructs(const Result &R, const LabelFn &Label);
/// A construct's exclusive time: the thread time the state timeline charges
/// to it alone (docs/utils.md, "otter summary"): a task construct's
/// execution (its tasks' own code), a wait's waiting time (sync, lock and
/// critical acquisition, MPI call); 0 for constructs that only enclose
/// others (parallel, worksharing, masked: their time is their tasks' and
/// waits'). Over all constructs it adds up to at most the thread time.
std::uint64_t exclusiveNs(const ConstructStats &S);
/// The thread time: over every thread, its first event to its last (the
/// state timeline's wall time); what exclusive shares are a share of.
std::uint64_t threadTimeNs(const Result &R);
/// The line saying how much of the thread time was OTTER's own (flushes,
/// the recording cost taken out; states.h, Tool); nothing when there was
/// none and no cost was measured. Its JSON fields (",\"tool_ns\":...").
void printToolTime(const Result &R, std::ostream &OS);
void toolTimeJson(const Result &R, std::ostream &OS);
std::string sourceText(const SourceLabel &L);
/// `otter summary`'s offload section and its JSON field (",\"offload\":
/// [...]"): nothing when the run has no target construct
/// (report_offload.cpp).
void printOffload(const Result &R, const LabelFn &Label, std::ostream &OS);
void offloadJson(const Result &R, const LabelFn &Label, std::ostream &OS);

/// What to change for a finding, and its gain predicted by replaying the
/// program with the change applied (advice.h; docs/utils.md, "Advice").
struct Advice {
  std::string Kind;  // cutoff, fuse_regions, dependences, taskwait
  std::string Check; // the check it answers when no finding has it
  analysis::Kind K = analysis::Kind::Task; // the site's construct
  std::string Where;                       // the site: file:line
  std::uint64_t RegionId = 0;
  std::string Change;         // what to change, in the program's terms
  std::string Transformation; // the graph transformation replayed
  std::string Evidence;       // why (what the program does there)
  unsigned Cores = 0;         // replayed on
  std::uint64_t BeforeNs = 0, AfterNs = 0; // predicted, as is and changed
  double gain() const {
    return BeforeNs ? 1.0 - double(AfterNs) / double(BeforeNs) : 0.0;
  }
};

/// A diagnostic finding (docs/utils.md lists checks and thresholds).
struct Finding {
  std::string Check;     // too_fine, low_parallel_benefit, ...
  Kind K;
  std::string Where;     // file:line
  std::uint64_t RegionId = 0;
  std::uint64_t LostNs = 0;
  std::string Threshold; // text
  std::string Evidence;  // text
  /// The construct's tasks by otter_task_label name (name, tasks), most
  /// first; empty if none is labelled.
  std::vector<std::pair<std::string, std::uint64_t>> TaskLabels;
  /// MPI wait states (mpi_waits.h): the time each rank lost at the site
  /// (rank, ns), by rank; only ranks that lost time.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> Ranks;
  /// MPI wait states: the time each thread lost, only for the ranks where
  /// more than one thread lost time; by rank, then thread (the rank's own
  /// thread numbers).
  struct ThreadLoss {
    std::uint32_t Rank = 0, Thread = 0;
    std::uint64_t Ns = 0;
  };
  std::vector<ThreadLoss> Threads;
  /// The remedy, if the finding has one (advice.h): empty Kind if none.
  Advice Remedy;
};
/// Names: the trace's name table (for TaskLabels).
std::vector<Finding> diagnose(const Result &R, const LabelFn &Label,
                              const std::vector<std::string> &Names = {});
/// Waiting or descheduled (docs/utils.md): the share of the threads'
/// running time the OS must have taken away (Result::DescheduledNs) from
/// which a run is flagged as descheduled.
inline constexpr double DescheduledShare = 0.05;
/// Adds the `descheduled` finding if the run's threads lost at least
/// DescheduledShare of their running time to the OS; whether it did.
bool addDescheduled(const Result &R, std::vector<Finding> &F);
/// OpenMP idle threads (docs/utils.md, "Idle threads"; report_idle.cpp):
/// what the primary thread did while its team's other threads idled, as
/// one phrase ("in MPI_Allreduce at ddot.cpp:75", "running serial code
/// after the parallel region at cg.c:40").
std::string idleCauseText(const Result &R, const IdleCause &C,
                          const LabelFn &Label);
/// `otter summary`'s "idle:" lines (nothing without idle threads) and its
/// JSON fields (",\"idle_threads_ns\":...,\"idle_threads\":[...]").
void printIdleThreads(const Result &R, const LabelFn &Label,
                      std::ostream &OS);
void idleThreadsJson(const Result &R, const LabelFn &Label, std::ostream &OS);
/// Adds the `idle_threads` finding when idle threads take more than
/// WaitShare of the thread time; whether it did.
bool addIdleThreads(const Result &R, const LabelFn &Label,
                    std::vector<Finding> &F);
/// Adds the offload findings (report_offload.cpp): `repeated_transfer`, a
/// target directive whose instances (RepeatedTransfers or more) each moved
/// the same bytes to the device, and `target_wait`, a synchronous `target`
/// whose instances took more than WaitShare of the thread time.
void addOffloadFindings(const Result &R, const LabelFn &Label,
                        std::vector<Finding> &F);

/// Names: the trace's name table (annotations: phases, task labels);
/// ByPhase: the per-phase table only (`otter summary --by phase`).
void printSummary(const Result &R, const LabelFn &Label, bool Json,
                  std::ostream &OS, std::size_t Top,
                  const std::vector<std::string> &Names = {},
                  bool ByPhase = false);
/// One phase of the program analysed alone (--phase NAME): a row of
/// `otter parallelism`'s phase table.
struct PhaseParallelism {
  std::string Name;
  std::uint64_t Occurrences = 0, WorkNs = 0, SpanNs = 0;
  double Parallelism = 0, BurdenedSpanNs = 0, BurdenedParallelism = 0;
};

/// Names: the trace's name table (the critical path's task labels);
/// Phases: the table of phases (none: left out); FullPath: every step of
/// the critical path, not its repeats condensed (path_condense.h).
void printParallelism(const Result &R, const LabelFn &Label, bool Json,
                      std::ostream &OS, std::size_t Top,
                      const std::vector<std::string> &Names = {},
                      const std::vector<PhaseParallelism> &Phases = {},
                      bool FullPath = false);
/// The critical path's repeated runs (path_condense.h): steps of the same
/// kind, construct and task label are the same; and one step of a block
/// (its Offset-th of the period) with its time and tasks summed over the
/// block's repeats.
std::vector<PathBlock> condensedPath(const std::vector<PathStep> &Path,
                                     const LabelFn &Label);
PathStep pathBlockTotal(const std::vector<PathStep> &Path, const PathBlock &B,
                        std::size_t Offset);
/// The MPI function of each MPI call site (mpi::Function's value), by the
/// site's code (report_job.cpp).
std::map<std::uint64_t, std::uint16_t> mpiFunctionsBySite(const Result &R);
/// A construct kind's name, with an MPI call site's function when known
/// ("mpi MPI_Bcast"; MpiFunction 0: the kind alone).
std::string kindText(Kind K, std::uint16_t MpiFunction);
/// The path's blocks as `otter parallelism` prints them: condensed, or one
/// per step (FullPath, --full).
std::vector<PathBlock> pathBlocks(const Result &R, const LabelFn &Label,
                                  bool FullPath);
/// What the heading "critical path (N steps...)" adds when Blocks condense
/// the path ("" when they do not).
std::string condensedNote(const std::vector<PathBlock> &Blocks,
                          std::size_t Steps);
std::string fmtNs(double Ns); // "12.3 ms" (below)
/// The text of a condensed critical path (`otter parallelism`, a process's
/// and a job's): Row(step, indent) per single step; per repeated block a
/// heading (its repeats and total, the total in the column after Width
/// characters) and its steps summed over the repeats, indented; at most
/// Top rows (0: all). Step: any step type with Ns and Instances.
template <class Step, class RowFn>
void printPathBlocks(const std::vector<Step> &Path,
                     const std::vector<PathBlock> &Blocks, std::size_t Top,
                     int Width, RowFn Row, std::ostream &OS) {
  std::size_t N = 0;
  for (const PathBlock &Bl : Blocks) {
    if (Top && N++ >= Top) {
      OS << "  ... " << (Blocks.size() - Top) << " more rows\n";
      break;
    }
    if (Bl.Repeats == 1) {
      Row(Path[Bl.First], "");
      continue;
    }
    std::uint64_t TotalNs = 0;
    std::vector<Step> Sum = blockTotals(Path, Bl, TotalNs);
    std::string Head = blockHeading(Bl);
    Head.resize(std::max<std::size_t>(Head.size(), std::size_t(Width)), ' ');
    std::string Total = fmtNs(double(TotalNs));
    OS << "  " << Head << ' ' << std::string(Total.size() < 12 ? 12 - Total.size() : 0, ' ')
       << Total << "  (" << Bl.steps() << " steps)\n";
    for (const Step &S : Sum)
      Row(S, "  ");
  }
}
void printDiagnose(const Result &R, const LabelFn &Label, bool Json,
                   std::ostream &OS,
                   const std::vector<std::string> &Names = {});
/// diagnose's report of findings F (printDiagnose: F = diagnose(R)).
void printFindings(const Result &R, const std::vector<Finding> &F, bool Json,
                   std::ostream &OS);

/// Name N of the trace's name table (annotations), "#N" if not there.
std::string nameText(const std::vector<std::string> &Names, std::uint32_t N);
/// Task labels by count, then name (name ids follow the run's timing).
std::vector<LabelStats> sortedLabels(std::vector<LabelStats> L,
                                     const std::vector<std::string> &Names);

/// What Result::ScheduleCostNs is, in a phrase for the views that print
/// it: "the 25th percentile of the deferred tasks' dispatch latency ...".
std::string schedulingCostDefinition();

std::string jsonString(const std::string &S);
std::string fmtNs(double Ns); // "12.3 ms"

/// Thresholds (documented in docs/utils.md).
inline constexpr double FineGrainFactor = 10.0;   // median < 10 x cost
inline constexpr double LowBenefitParallelism = 1.5;
inline constexpr double ImbalanceRatio = 1.25;     // max/mean
inline constexpr double SiblingImbalanceRatio = 1.5;
inline constexpr double MinLostShare = 0.01;       // of thread time
inline constexpr double WaitShare = 0.05;          // of thread time
inline constexpr double ContentionShare = 0.01;    // of thread time
inline constexpr std::uint64_t RepeatedTransfers = 2; // instances

} // namespace otter::analysis

#endif
