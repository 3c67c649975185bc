//===- otter/commands.h - simulate, report, diff ----------------*- C++ -*-===//
//
// The `otter` subcommands that answer "how would it scale", "show me" and
// "what changed": simulate, report and diff. They parse their own options
// (main.cpp hands them the command line), so main.cpp knows only their
// names and help lines.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_COMMANDS_H
#define OTTER_UTILS_COMMANDS_H

#include "analysis.h"
#include "export.h"
#include "report.h"
#include "simulate.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace otter::job {
struct Layout;
}

namespace otter::cli {

class ArchiveInput;
class JobInput;

/// Lines for `otter --help`, one per command.
extern const char *ReportCommandsHelp;

/// Every command's errors (docs/utils.md): one line on stderr, "otter:
/// error: Msg", and the exit status to return -- fail: 1 (bad input or
/// output), usage: 2 (a usage error, pointing at 'otter --help').
int fail(const std::string &Msg);
int usage(const std::string &Msg);
/// For a command that reads one archive, given Given of them: -1 when
/// Given is 1, else the usage error saying what is wrong.
int oneArchive(std::size_t Given);

/// Runs Command if it is simulate, report or diff (argv[1] is the command):
/// true, with its exit status in Rc. False: not one of these.
bool runReportCommand(const std::string &Command, int argc, char **argv,
                      int &Rc);

// Shared by commands.cpp and commands_job.cpp.

/// One warning line when the archive was cut at its size limit
/// (OTTER_MAX_TRACE_SIZE): the run went on, the trace did not.
void warnIfCut(const ArchiveInput &In, const std::string &Path);

/// One streaming pass over the archive at Path (opened into In): the
/// analysis (with Obs), and the replayable program if Prog; OnFirst gets
/// the first event's time. Warns on stderr about an archive not closed.
/// Phase: only what happened inside that phase (phase.h; an error if the
/// trace has none of that name). Sites: the program records its steps'
/// sites (Program::StepSite, for the advice).
bool readArchive(ArchiveInput &In, const std::string &Path, analysis::Result &R,
                 sim::Program *Prog, analysis::Observer *Obs,
                 std::string &Error,
                 const std::function<void(std::uint64_t)> &OnFirst = {},
                 const std::string &Phase = {}, bool Sites = false);

/// `otter diagnose` on one process's archive: the findings, each with its
/// advice replayed (advice.h) unless NoAdvice.
int diagnoseArchive(const std::string &Path, bool Json,
                    const std::string &Phase, bool NoAdvice);

/// The replay's options: --ideal, --dispatch-ns (empty: the scheduling
/// cost measured in R, R.ScheduleCostNs, else sim::DefaultDispatchNs);
/// From says which. False: a bad --dispatch-ns (Error).
bool simOptions(bool Ideal, const std::string &DispatchNs,
                const analysis::Result &R, sim::Options &O,
                sim::DispatchSource &From, std::string &Error);

/// The warnings every job command prints on stderr about its ranks (a rank
/// missing, a rank's trace not closed) and about matching their messages.
void rankWarnings(const JobInput &Job);
/// The job's MPI wait states (mpi_waits.h), from R, its analysis: what
/// `otter diagnose` and `otter report` show of them.
std::vector<analysis::Finding> jobMpiWaits(const JobInput &Job,
                                           const analysis::Result &R,
                                           const analysis::LabelFn &Label);

/// `otter simulate` and `otter report` on an MPI job (commands_job.cpp):
/// exit statuses as every command's.
int simulateJob(const job::Layout &L, const std::vector<unsigned> &Cores,
                bool Ideal, const std::string &DispatchNs, bool Json,
                const std::string &Svg);
/// A job's Perfetto trace (main.cpp, export): one process per rank (before
/// the analysis), an arrow per message (after it, from the job's matching).
void perfettoRanks(const JobInput &Job, analysis::PerfettoWriter &W);
void perfettoMessages(const JobInput &Job, analysis::PerfettoWriter &W);
int reportJob(const job::Layout &L, const std::string &Arg,
              const std::vector<unsigned> &Cores, bool NoSimulate,
              std::uint64_t WindowFrom, std::uint64_t WindowTo,
              const std::string &Out, bool Json);

} // namespace otter::cli

#endif
