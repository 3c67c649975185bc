//===- otter/commands.h - The `otter` commands and their table -*- C++ -*-===//
//
// `otter <command> [options] <archive>...`: every command is a row of one
// table (commandTable(): name, the line of `otter --help`, usage, help,
// options, run function), read by one option parser (parseCommandLine)
// and one dispatcher (runOtter): `otter --help`, `otter help CMD` and
// `otter CMD --help` are generated from it. The commands:
//   graph, export                     commands_export.cpp
//   summary, parallelism, diagnose,
//   dump                              commands_analysis.cpp
//   simulate, picture, report, diff   commands.cpp (MPI jobs:
//                                     commands_job.cpp)
//   profile                           commands_profile.cpp (profile.h)
//
// Output (-o): a command that writes several files takes -o DIR, one that
// writes one file takes -o FILE (an existing directory, or a name ending
// in '/': the file goes into it under its default name); a missing
// directory, or a file's missing parent directories, are created.
//
// Errors are one line "otter: error: ..." and exit status 2 for a usage
// error, 1 for bad input or output (docs/utils.md).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_COMMANDS_H
#define OTTER_UTILS_COMMANDS_H

#include "analysis.h"
#include "export.h"
#include "report.h"
#include "simulate.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace otter::job {
struct Layout;
}
namespace otter::profile {
struct Profile;
}

namespace otter::cli {

class ArchiveInput;
class JobInput;

/// Every option of every command, parsed (each command reads its own).
struct Options {
  std::string Command;
  std::vector<std::string> Inputs; // the archives, in order
  std::string Output, Format, Phase, By, Kinds, Threads, SvgFile, Cores,
      Window, DispatchNs;
  std::size_t Top = 30;
  // graph: otter-graph's thresholds (graph/outputs.h); unset: its defaults.
  std::string DotMaxNodes, CsvZstdNodes, CsvZstdEdges;
  bool Json = false, Aggregate = false, Svg = false, Full = false,
       NoTime = false, ListKinds = false, Ideal = false, NoSimulate = false,
       NoAdvice = false;
  std::string Scale, MaxSize; // estimate
};

/// One option a command takes: a flag (sets *Flag), a value (*Value) or a
/// count (*Count, a whole number). Needs: what a missing or bad value
/// should have been, for the error ("--top needs a number").
struct OptionSpec {
  const char *Name;           // "--output"
  const char *Alias;          // "-o", or null
  bool Options::*Flag;        // a flag, or null
  std::string Options::*Value; // a value, or null
  std::size_t Options::*Count; // a count, or null
  const char *Needs;
};

/// One `otter` command.
struct Command {
  const char *Name;
  const char *Summary; // its lines in `otter --help` (after the name)
  const char *Usage;   // "usage: otter NAME ..." lines
  const char *Help;    // what it does and its options, after Usage
  std::span<const OptionSpec> Accepts; // the options it takes
  int (*Run)(const cli::Options &O);
};

/// Every command, in the order `otter --help` lists them.
std::span<const Command> commandTable();
/// The command named Name, or null.
const Command *findCommand(const std::string &Name);

/// Parses Args (the words after the command's name) for C into O.
/// Returns -1 to go on, else the exit status to return: 0 after --help
/// (printed), 2 after a usage error (printed: one line naming the option
/// and the command).
int parseCommandLine(const Command &C, std::span<char *const> Args,
                     Options &O);

/// The whole `otter` command line: the exit status.
int runOtter(int argc, char **argv);
/// `otter --help`: generated from the table.
void printMainHelp(std::FILE *Out);
/// `otter CMD --help`, `otter help CMD`.
void printCommandHelp(const Command &C, std::FILE *Out);

// The commands (their rows' Run).
int cmdGraph(const Options &O);
int cmdExport(const Options &O);
int cmdSummary(const Options &O);
int cmdParallelism(const Options &O);
int cmdDiagnose(const Options &O);
int cmdDump(const Options &O);
int cmdSimulate(const Options &O);
int cmdPicture(const Options &O);
int cmdReport(const Options &O);
int cmdDiff(const Options &O);
int cmdProfile(const Options &O); // commands_profile.cpp
int cmdEstimate(const Options &O); // commands_estimate.cpp

/// The samples of a run (its directory, or its archive in DIR/trace) as
/// `otter profile` aggregates them (commands_profile.cpp): Ok, or
/// NoSamples / Error with Message the one-line reason; Dir: the directory
/// read.
enum class ProfileLoad { Ok, NoSamples, Error };
ProfileLoad loadProfile(const std::string &Input, profile::Profile &P,
                        std::string &Dir, std::string &Message);
/// Whether every input has samples (DIR/samples.csv, or an archive of
/// samples alone: trace/sample_reader.h); `otter profile A
/// B`: the two profiles compared (profile_diff.cpp), which `otter diff`
/// also runs on two sampled runs when either has no trace.
bool hasProfiles(const std::vector<std::string> &Inputs);
int cmdProfileDiff(const Options &O);
/// Whether Input (a run's directory or archive, or an MPI job's) holds
/// samples alone (sampled with OTTER_TRACE=0): no events to read.
bool samplesAlone(const std::string &Input);

/// Writes an HTML file Out with Write (its directories made) and says so:
/// "wrote Out<Note>", or with Json {"written":[Out]}. Exit status: 0, or
/// fail's when it cannot be written.
int writeHtmlFile(const std::string &Out, bool Json, const std::string &Note,
                  const std::function<void(std::ostream &)> &Write);

/// Every command's errors (docs/utils.md): one line on stderr, "otter:
/// error: Msg", and the exit status to return -- fail: 1 (bad input or
/// output), usage: 2 (a usage error, pointing at 'otter --help').
int fail(const std::string &Msg);
int usage(const std::string &Msg);
/// For a command that reads one archive, given Given of them: -1 when
/// Given is 1, else the usage error saying what is wrong.
int oneArchive(std::size_t Given);

/// Where a one-file output goes: Given (-o), or Default when none; an
/// existing directory or a name ending in '/' gets Default inside it.
std::string outputFile(const std::string &Given, const std::string &Default);
/// Opens Path for writing, creating its missing parent directories. False:
/// Error is the one-line reason.
bool openOutputFile(const std::string &Path, std::ofstream &OS,
                    std::string &Error);
/// Writes Text to Path (openOutputFile). False: Error.
bool writeOutputText(const std::string &Path, const std::string &Text,
                     std::string &Error);
/// Where a several-file output goes: Given (-o) or ".", created with its
/// parents. False: Error.
bool outputDirectory(const std::string &Given, std::string &Dir,
                     std::string &Error);
/// The "wrote FILE" lines (--json: {"written":[...]}) of a command that
/// writes files.
void printWritten(bool Json, const std::vector<std::string> &Files);

/// Opens the archive at Path into In: the one place that warns (once, on
/// stderr) about a trace not closed or cut at its size limit, and, if
/// NoteFilter, says what the run filtered out. False: Error.
bool openArchive(ArchiveInput &In, const std::string &Path, std::string &Error,
                 bool NoteFilter = true);

/// One streaming pass over the archive at Path (opened into In with
/// openArchive): the analysis (with Obs), and the replayable program if
/// Prog; OnFirst gets the first event's time. Phase: only what happened
/// inside that phase (phase.h; an error if the trace has none of that
/// name). Sites: the program records its steps' sites
/// (Program::StepSite, for the advice).
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
/// The replay calibrated to the run (sim::calibrate) when its dispatch cost
/// is the measured or the default one (not given, not --ideal): every view
/// that replays a trace calls it, so they agree.
sim::Calibration calibrateMeasured(const sim::Program &G,
                                   const analysis::Result &R, sim::Options &O,
                                   sim::DispatchSource From);

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
/// A job's Perfetto trace (commands_export.cpp): one process per rank
/// (before the analysis), an arrow per message (after it, from the job's
/// matching).
void perfettoRanks(const JobInput &Job, analysis::PerfettoWriter &W);
void perfettoMessages(const JobInput &Job, analysis::PerfettoWriter &W);
/// `otter picture` on an MPI job: the aggregated graph of every rank
/// (the job's full graph is otter-graph's); `otter diff A B` where either
/// run is an MPI job: per construct and source line over all ranks
/// (commands_job.cpp).
int pictureJob(const Options &O);
int diffRuns(const Options &O);
int reportJob(const job::Layout &L, const std::string &Arg,
              const std::vector<unsigned> &Cores, bool NoSimulate,
              std::uint64_t WindowFrom, std::uint64_t WindowTo,
              const std::string &Out, bool Json);

} // namespace otter::cli

#endif
