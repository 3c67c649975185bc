//===- otter/report_job.h - Reports of an MPI job ----------------*- C++
//-*-===//
//
// summary, parallelism and diagnose of an MPI job (docs/utils.md, "An MPI
// job"): the job's analysis (one Result over every rank's events, their
// codes tagged with the rank: analysis.h, codeRank) reported per rank and
// for the job: each rank's busy, MPI and waiting time, the load imbalance
// across ranks, MPI time per function and per call site, the critical path
// with the rank of every step and the MPI calls where it crossed ranks.
// The OpenMP reports (report.h) follow, for the job as a whole (a source
// construct's rows of every rank merged).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_REPORT_JOB_H
#define OTTER_UTILS_REPORT_JOB_H

#include "job_graph.h"
#include "report.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace otter::analysis {

/// One rank's time, from Result::PerThread.
struct RankTime {
  std::uint32_t Rank = 0;
  bool Read = false, Complete = false;
  std::string Note; // why it was not read
  std::uint32_t Threads = 0;
  std::uint64_t BusyNs = 0, WaitNs = 0, MpiNs = 0; // summed over threads
  std::uint64_t First = 0, Last = 0;
  std::uint64_t runNs() const { return Last > First ? Last - First : 0; }
};

/// Point-to-point traffic from one rank to another: the matched messages
/// (docs/utils.md, "Communication matrix").
struct CommCell {
  std::uint32_t From = 0, To = 0;
  std::uint64_t Messages = 0, Bytes = 0;
};
/// The job's matched messages by (sender, receiver), sorted by both.
std::vector<CommCell> commMatrix(const JobGraph &M);
/// The job's one-sided operations between ranks, as cells of the same kind
/// (Messages: operations): each operation's bytes from the rank whose
/// memory they leave to the rank whose memory they reach — Get and Rget
/// from target to origin, every other operation (Put, the accumulates,
/// Fetch_and_op, Compare_and_swap: the origin's buffer) from origin to
/// target. File accesses have no peer and are not in it.
std::vector<CommCell> oneSidedMatrix(const JobGraph &M);

/// Bytes one MPI function moved without messages, over the job: one-sided
/// operations and file reads and writes (MpiTransfer; docs/mpi.md).
struct TransferTotal {
  mpi::Function Function = mpi::Function::None;
  std::uint64_t Calls = 0, Bytes = 0;
};
/// The ranks' transfers summed by function, most bytes first.
std::vector<TransferTotal> transferTotals(const JobGraph &M);

struct JobInfo {
  std::string Dir;
  std::vector<RankTime> Ranks;
  std::vector<CommCell> Comm;
  std::vector<CommCell> OneSided; // oneSidedMatrix
  JobStats Match; // messages and collectives matched, and not
  std::uint64_t Messages = 0, Collectives = 0;
  /// Calls of MPI functions counted but not traced, over all ranks, most
  /// called first (MpiGraph::Untraced).
  std::vector<std::pair<mpi::Function, std::uint64_t>> Untraced;
  std::vector<TransferTotal> Transfers;
};

/// One line on the MPI calls counted but not traced: how many, of which
/// functions, and that their time counts as computation. Nothing if none.
void untracedLine(
    const std::vector<std::pair<mpi::Function, std::uint64_t>> &Untraced,
    std::ostream &OS);
/// The ranks' untraced MPI calls summed by function, most called first.
std::vector<std::pair<mpi::Function, std::uint64_t>>
untracedCalls(const JobGraph &M);

/// Load imbalance of the ranks' busy time (docs/utils.md).
struct RankImbalance {
  double MeanNs = 0;
  std::uint64_t MaxNs = 0;
  std::uint32_t MaxRank = 0;
  double Ratio = 0;         // max / mean
  std::uint64_t LostNs = 0; // sum over ranks of (max - busy)
};
RankImbalance rankImbalance(const std::vector<RankTime> &Ranks);

/// Names: the job's name table (JobInput::names): the phases, task labels
/// and marks of every rank, as printSummary shows one process's.
void printJobSummary(const Result &R, const JobInfo &J, const LabelFn &Label,
                     bool Json, std::ostream &OS, std::size_t Top,
                     const std::vector<std::string> &Names = {});
/// The critical path condensed as for one process (a run of steps repeated
/// back to back shown once, steps keyed by rank too), with a rank column
/// and each crossing to another rank marked; FullPath: every step.
void printJobParallelism(const Result &R, const JobInfo &J,
                         const LabelFn &Label, bool Json, std::ostream &OS,
                         std::size_t Top,
                         const std::vector<std::string> &Names = {},
                         bool FullPath = false);
/// The usual checks on the job as a whole, and MpiFindings (MPI wait
/// states, mpi_waits.h), ranked together by time lost.
void printJobDiagnose(const Result &R, const JobInfo &J, const LabelFn &Label,
                      const std::vector<Finding> &MpiFindings, bool Json,
                      std::ostream &OS,
                      const std::vector<std::string> &Names = {});

} // namespace otter::analysis

#endif
