//===- otter/main.cpp - The `otter` command ------------------------------===//
//
// otter <command> [options] <archive>: graph, summary, parallelism,
// diagnose, export, dump. Every command streams the archive once; errors are
// one line "otter: error: ..." and a non-zero exit status (2: a usage error,
// 1: the input or the output failed; docs/utils.md).
//
// The full task graph (`graph`, `export --format dot|csv`) is not built
// here: those commands run otter-graph, the runtime's own builder and
// writers, so their files are the runtime's byte for byte. The analyses
// (summary, parallelism, diagnose, perfetto and --aggregate exports) are the
// one streaming pass of analysis.h over a time-ordered read (input.h);
// `dump` prints each thread's events as recorded (dump.h).
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "commands.h"
#include "dump.h"
#include "export.h"
#include "input.h"
#include "job.h"
#include "mpi_waits.h"
#include "phase.h"
#include "report.h"
#include "report_job.h"
#include "state_timeline.h"
#include "stream.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

using namespace otter;
using namespace otter::analysis;

namespace {

const char *MainHelp =
    "usage: otter <command> [options] <archive>\n"
    "\n"
    "Analyses a trace written by OTTER's runtime (OTTER_OUTPUT_DIR/trace/,\n"
    "its output directory, or the traces.otf2 anchor), or a whole MPI job\n"
    "(its directory with rank-<N>/, or its merged archive): the ranks'\n"
    "events as one program, per rank and for the job, with a critical path\n"
    "across ranks.\n"
    "\n"
    "commands:\n"
    "  graph        write the task graph (nodes.csv, graph.csv, graph.gv, "
    "graph.txt)\n"
    "  summary      run time, threads, construct counts, per-construct "
    "profile\n"
    "  parallelism  work, span, parallelism, burdened parallelism, critical "
    "path\n"
    "  diagnose     performance problems per source construct, ranked by time "
    "lost\n"
    "  export       Perfetto trace (--format perfetto), per-thread state\n"
    "               timeline (states), task graph (dot, csv), aggregate\n"
    "               graph per source construct (--aggregate)\n"
    "  dump         the raw event stream, one event per line\n";
// After the commands of commands.cpp (cli::ReportCommandsHelp).
const char *MainHelpTail =
    "\n"
    "Every command takes --json and --help; otter --version prints OTTER's\n"
    "version.\n"
    "--phase NAME restricts summary, parallelism, diagnose, export\n"
    "(perfetto, --aggregate), simulate, picture, report and diff to one\n"
    "phase of the program (otter_phase_begin); graph and dump take the\n"
    "whole run.\n";

struct CommandHelp {
  const char *Name, *Text;
};
const CommandHelp Helps[] = {
    {"graph",
     "usage: otter graph [--format dot,csv,canon|all] [-o DIR] [--json] "
     "<archive>\n"
     "Rebuilds the task graph from the trace and writes it into DIR (default:\n"
     "the current directory): nodes.csv + graph.csv (csv), graph.gv (dot),\n"
     "graph.txt (canon). Default formats: dot,csv. Same files as the runtime\n"
     "writes at exit (docs/graph.md).\n"},
    {"summary",
     "usage: otter summary [--top N] [--by construct|phase] [--phase NAME]\n"
     "                     [--json] <archive>\n"
     "Run time, threads, instance counts per construct kind, and a profile "
     "per\n"
     "source construct (region id, kind, file:line, instances, total/mean/max\n"
     "time, share of run time), sorted by total time. --top N: first N rows\n"
     "(default 30; 0 = all; --json always lists all). Then the program's\n"
     "phases (otter_phase_begin/end: instances, time begin to end), task\n"
     "labels (tasks per otter_task_label) and marks, if it has any.\n"
     "--by phase: the phase table alone.\n"
     "--phase NAME: only what happened inside that phase (every occurrence;\n"
     "the tasks and regions it created wholly); also for parallelism,\n"
     "diagnose and export (docs/utils.md, \"One phase\").\n"},
    {"parallelism",
     "usage: otter parallelism [--top N] [--full] [--phase NAME] [--json] "
     "<archive>\n"
     "Work (time tasks spend executing their own code), span (longest path\n"
     "through the task graph weighted by execution time), parallelism =\n"
     "work/span, burdened span (the longest path when every task pays the\n"
     "measured scheduling cost and every parallel region its fork and join\n"
     "time) and burdened parallelism, per parallel region too, and the\n"
     "critical path as a list of source constructs, each step with its\n"
     "tasks' label (otter_task_label) if the program names them. A program\n"
     "with phases (otter_phase_begin/end) gets a row per phase: each phase\n"
     "analysed alone, as with --phase NAME (one process's trace).\n"
     "A run of critical-path steps repeated back to back (a time-step loop,\n"
     "a recursion alternating between two tasks) is shown once, with the\n"
     "number of repeats and its totals; --full lists every step. --top N:\n"
     "the first N rows of the path (default 30, 0: all).\n"},
    {"diagnose",
     "usage: otter diagnose [--phase NAME] [--no-advice] [--json] <archive>\n"
     "Checks each source construct for: tasks too fine, low parallel benefit,\n"
     "imbalance among sibling tasks and among the threads of a team, time\n"
     "waiting at barriers/taskwaits/taskgroups, lock and critical contention;\n"
     "on an MPI job also each MPI call site for late sender, late receiver\n"
     "and wait at collective (Scalasca's wait states). Each finding shows its\n"
     "threshold and evidence; ranked by estimated thread time lost. Advice:\n"
     "what to change where (a recursion cut-off, fused parallel regions,\n"
     "dependences, a taskwait), with the run time predicted by replaying the\n"
     "program with the change applied on the traced number of cores\n"
     "(--no-advice: none).\n"},
    {"export",
     "usage: otter export --format perfetto|states|dot|csv [--aggregate]\n"
     "                    [--svg] [--phase NAME] [-o PATH] [--json] "
     "<archive>\n"
     "perfetto: Chrome trace-event JSON (open in ui.perfetto.dev): a track "
     "per\n"
     "  thread, a slice per task and construct, flow arrows for creation and\n"
     "  dependence edges; an MPI job: a process per rank, a slice per MPI\n"
     "  call, an arrow per message. Default -o otter.perfetto.json.\n"
     "states: each thread's state timeline, one row per interval: CSV\n"
     "  thread,start_ns,end_ns,state,construct,region_id,task,label (state:\n"
     "  running, waiting, scheduling, idle, tool; construct: what a waiting\n"
     "  task waits in); --json: the same as JSON, with per-thread totals.\n"
     "  Default -o states.csv (states.json); -o - writes to stdout.\n"
     "dot, csv: the full task graph, as 'otter graph' (-o DIR, default .), or\n"
     "  with --aggregate one node per source construct (instances, total "
     "time,\n"
     "  its tasks' most common label and how many labels they have) "
     "and\n"
     "  edges with counts (-o FILE for dot, default aggregate.gv; -o DIR\n"
     "  for csv). --svg also renders the dot file with Graphviz.\n"
     "--phase NAME (perfetto, states, --aggregate): only what happened inside\n"
     "  that phase; the full graph (dot, csv) is always the whole run's.\n"},
    {"dump",
     "usage: otter dump [--no-time] [--kind K1,K2,...] [--thread N,...]\n"
     "                  [--json] <archive>\n"
     "       otter dump --kinds\n"
     "The events the runtime recorded, one per line: thread by thread in\n"
     "ascending order (a line 'thread N' before each), each thread's events\n"
     "in the order it recorded them (a sync region's wait folded into it is\n"
     "shown as its own event, as OMPT reported it). A line: the time (ns,\n"
     "CLOCK_MONOTONIC), the kind's name, then its fields as label=value, e.g.\n"
     "  123 task_create creator=1099511627777 child=1099511627778\n"
     "      flags=explicit|untied code=prog.c:12:3\n"
     "Ids are decimal, code addresses their source file:line:col, OMPT's\n"
     "enumerations by OMPT's names. --no-time: without the time (output that\n"
     "does not change from run to run); --kind: only these kinds; --thread:\n"
     "only these threads; --json: one JSON object per event. --kinds lists\n"
     "every kind with its fields (docs/trace.md).\n"},
};

using cli::fail;
using cli::oneArchive;
using cli::usage;

struct Options {
  std::string Command, Archive, Output, Format;
  bool Json = false, Aggregate = false, Svg = false;
  bool FullPath = false; // parallelism --full
  bool NoAdvice = false; // diagnose --no-advice
  std::size_t Top = 30;
  // dump
  bool NoTime = false, ListKinds = false;
  std::string By; // summary --by: "construct" (default) or "phase"
  std::string Phase; // --phase NAME: the analysis restricted to it
  std::string Kinds, Threads;
};

/// What the analyses read: one process's archive, or an MPI job (every
/// rank's archive as one stream, job.h).
struct Input {
  cli::ArchiveInput *Archive = nullptr;
  cli::JobInput *Job = nullptr;
  std::string Path;
  bool streamOrdered(const cli::ArchiveInput::EventFn &Fn, std::string &Error) {
    return Job ? Job->streamOrdered(Fn, Error)
               : Archive->streamOrdered(Fn, Error);
  }
  SourceLabel label(std::uint64_t Code) const {
    return Job ? Job->label(Code) : Archive->label(Code);
  }
  /// The name table of the annotations (otter/otter.h).
  const std::vector<std::string> &names() const {
    return Job ? Job->names() : Archive->names();
  }
  const std::string &path() const { return Path; }
};

/// Streams the input through an Analyzer (with an optional observer);
/// Phase: only what is inside that phase (docs/utils.md, "One phase").
bool analyse(Input &In, Observer *Obs, Result &R, std::string &Error,
             const std::string &Phase = {}) {
  Analyzer A;
  A.setObserver(Obs);
  if (In.Job)
    A.setLinks(In.Job);
  if (Phase.empty())
    return cli::analyseStream(In, A, R, Error);
  PhaseRestriction P(phaseNameId(Phase, In.names()));
  cli::PhaseSource<Input> PI{In, P, {}};
  return cli::phaseOccurred(Phase, P, In.names(),
                            cli::analyseStream(PI, A, R, Error), Error);
}

/// `otter parallelism`'s table of phases: each phase of the program
/// (R.Phases) analysed alone, as --phase NAME would, all in one more pass
/// over the input (an analysis per phase beside each other).
bool phaseRows(Input &In, const Result &R, std::vector<PhaseParallelism> &Out,
               std::string &Error) {
  struct One {
    PhaseRestriction P;
    Analyzer A;
    std::vector<Event> Buf;
    explicit One(std::uint32_t Name) : P(Name) {}
  };
  std::vector<std::unique_ptr<One>> Ps;
  for (const PhaseStats &S : R.Phases)
    Ps.push_back(std::make_unique<One>(S.Name));
  bool Ok = In.streamOrdered(
      [&](std::uint32_t Th, const Event *E, std::size_t N) {
        for (auto &X : Ps) {
          X->Buf.clear();
          X->P.add(E, N, X->Buf);
          if (!X->Buf.empty())
            X->A.add(Th, X->Buf.data(), X->Buf.size());
        }
      },
      Error);
  if (!Ok)
    return false;
  for (auto &X : Ps) {
    Result PR = X->A.finish();
    PhaseParallelism Row;
    Row.Name = nameText(In.names(), R.Phases[&X - Ps.data()].Name);
    Row.Occurrences = X->P.occurrences();
    Row.WorkNs = PR.WorkNs;
    Row.SpanNs = PR.SpanNs;
    Row.Parallelism = PR.parallelism();
    Row.BurdenedSpanNs = PR.burdenedSpanNs();
    Row.BurdenedParallelism = PR.burdenedParallelism();
    Out.push_back(std::move(Row));
  }
  return true;
}

/// The reports' and exporters' label resolver: the archive's labels (read
/// with its definitions when it was opened), memoised per code address.
using Labels = cli::LabelCache<Input>;

bool isDir(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

bool runDot(const std::string &Gv, std::string &Svg, std::string &Error) {
  Svg = Gv;
  if (Svg.size() > 3 && Svg.compare(Svg.size() - 3, 3, ".gv") == 0)
    Svg.resize(Svg.size() - 3);
  Svg += ".svg";
  // fork + exec, not system(): the file names go to dot as arguments, never
  // through a shell.
  pid_t Pid = fork();
  if (Pid < 0) {
    Error = std::string("cannot run dot: ") + std::strerror(errno);
    return false;
  }
  if (Pid == 0) {
    execlp("dot", "dot", "-Tsvg", Gv.c_str(), "-o", Svg.c_str(),
           (char *)nullptr);
    // 127 as a shell's "command not found": read below as "no Graphviz".
    // _exit: the child must not flush the parent's stdio buffers again.
    _exit(127);
  }
  int St = 0;
  waitpid(Pid, &St, 0);
  if (!WIFEXITED(St) || WEXITSTATUS(St) != 0) {
    Error = WIFEXITED(St) && WEXITSTATUS(St) == 127
                ? "cannot run 'dot' (install Graphviz) to render " + Gv
                : "dot failed to render " + Gv;
    return false;
  }
  return true;
}

/// Directory of this executable (otter-graph is installed beside it).
std::string selfDir() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0)
    return ".";
  std::string P(Buf, std::size_t(N));
  std::size_t Slash = P.rfind('/');
  return Slash == std::string::npos ? "." : P.substr(0, Slash);
}

/// The full task graph: runs otter-graph (the trace reader + the runtime's
/// own graph builder and writers), so `otter graph` writes exactly the files
/// otter-graph and the runtime write. Its errors are already one line.
int runOtterGraph(const std::string &Archive, const std::string &Dir,
                  const std::string &Formats) {
  // The otter-graph installed beside this otter first (the same build or
  // installation, whatever PATH holds), else the one on PATH.
  std::string Exe = selfDir() + "/otter-graph";
  if (access(Exe.c_str(), X_OK) != 0)
    Exe = "otter-graph"; // from PATH
  // What we printed so far comes out before the child's output.
  std::fflush(stdout);
  pid_t Pid = fork();
  if (Pid < 0)
    return fail(std::string("cannot run otter-graph: ") + std::strerror(errno));
  if (Pid == 0) {
    execlp(Exe.c_str(), Exe.c_str(), Archive.c_str(), "-o", Dir.c_str(),
           "--format", Formats.c_str(), (char *)nullptr);
    std::fprintf(stderr, "otter: error: cannot run '%s': %s\n", Exe.c_str(),
                 std::strerror(errno));
    _exit(127);
  }
  int St = 0;
  while (waitpid(Pid, &St, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(St))
    return WEXITSTATUS(St);
  return fail("otter-graph was killed by signal " +
              std::to_string(WIFSIGNALED(St) ? WTERMSIG(St) : 0));
}

void printWritten(const Options &O, const std::vector<std::string> &Files) {
  if (O.Json) {
    std::cout << "{\"written\":[";
    for (std::size_t I = 0; I < Files.size(); ++I)
      std::cout << (I ? "," : "") << jsonString(Files[I]);
    std::cout << "]}\n";
  } else {
    for (const std::string &F : Files)
      std::cout << "wrote " << F << "\n";
  }
}

int cmdGraph(const Options &O) {
  std::string Fmt = O.Format.empty() ? "dot,csv" : O.Format;
  std::string Dir = O.Output.empty() ? "." : O.Output;
  int Rc = runOtterGraph(O.Archive, Dir, Fmt);
  if (Rc != 0)
    return Rc;
  // The files otter-graph wrote for Fmt (it has validated the list by now),
  // as writeGraphFiles names them.
  std::vector<std::string> Files;
  bool All = Fmt.find("all") != std::string::npos;
  if (All || Fmt.find("csv") != std::string::npos) {
    Files.push_back(Dir + "/nodes.csv");
    Files.push_back(Dir + "/graph.csv");
  }
  if (All || Fmt.find("dot") != std::string::npos)
    Files.push_back(Dir + "/graph.gv");
  if (All || Fmt.find("canon") != std::string::npos)
    Files.push_back(Dir + "/graph.txt");
  printWritten(O, Files);
  return 0;
}

/// `otter export --format states`: the per-thread state timeline
/// (state_timeline.h), CSV or (--json) JSON, into -o FILE (- : stdout).
int exportStates(Input &In, const Options &O, std::vector<std::string> &Files) {
  if (O.Aggregate || O.Svg)
    return usage("--aggregate and --svg apply to --format dot/csv");
  StateTimeline T;
  Result R;
  std::string Error;
  if (!analyse(In, &T, R, Error, O.Phase))
    return fail(Error);
  Labels L{In, {}};
  bool Stdout = O.Output == "-";
  std::string Out = !O.Output.empty() ? O.Output
                    : O.Json          ? "states.json"
                                      : "states.csv";
  std::ofstream File;
  if (!Stdout && (File.open(Out), !File))
    return fail("cannot write '" + Out + "': " + std::strerror(errno));
  std::ostream &OS = Stdout ? std::cout : File;
  if (O.Json)
    T.writeJson(OS, L.fn(), In.names());
  else
    T.writeCsv(OS, L.fn(), In.names());
  if (!OS.flush())
    return fail("error writing '" + Out + "'");
  if (!Stdout)
    Files.push_back(Out);
  return 0;
}

int cmdExport(const std::string &, const Options &O, Input *InP = nullptr) {
  std::string Error;
  std::vector<std::string> Files;
  if (O.Format.empty())
    return usage("export needs --format perfetto, states, dot or csv");
  if (O.Format == "states") {
    if (int Rc = exportStates(*InP, O, Files); Rc || Files.empty())
      return Rc;
  } else if (O.Format == "perfetto") {
    Input &In = *InP;
    Labels L{In, {}};
    if (O.Aggregate || O.Svg)
      return usage("--aggregate and --svg apply to --format dot/csv");
    std::string Out = O.Output.empty() ? "otter.perfetto.json" : O.Output;
    std::ofstream OS(Out);
    if (!OS)
      return fail("cannot write '" + Out + "': " + std::strerror(errno));
    PerfettoWriter W(OS, L.fn());
    W.setNames(In.names());
    if (In.Job)
      cli::perfettoRanks(*In.Job, W);
    Result R;
    if (!analyse(In, &W, R, Error, O.Phase)) {
      // The JSON is streamed as the trace is read: after a failed read it is
      // cut off mid-document, so it is removed rather than left to mislead.
      OS.close();
      std::remove(Out.c_str());
      return fail(Error);
    }
    if (In.Job)
      cli::perfettoMessages(*In.Job, W);
    W.finish(R.Threads);
    OS.flush();
    if (!OS)
      return fail("error writing '" + Out + "'");
    Files.push_back(Out);
  } else if (O.Format == "dot" || O.Format == "csv") {
    if (O.Svg && O.Format != "dot")
      return usage("--svg needs --format dot");
    if (O.Aggregate) {
      Input &In = *InP;
      Labels L{In, {}};
      AggregateGraph A;
      A.setNames(In.names());
      Result R;
      if (!analyse(In, &A, R, Error, O.Phase))
        return fail(Error);
      if (O.Format == "dot") {
        std::string Out = O.Output.empty() ? "aggregate.gv" : O.Output;
        std::ofstream OS(Out);
        if (!OS)
          return fail("cannot write '" + Out + "': " + std::strerror(errno));
        A.writeDot(R, L.fn(), OS);
        if (!OS.flush())
          return fail("error writing '" + Out + "'");
        Files.push_back(Out);
        if (O.Svg) {
          std::string Svg;
          if (!runDot(Out, Svg, Error))
            return fail(Error);
          Files.push_back(Svg);
        }
      } else {
        std::string Dir = O.Output.empty() ? "." : O.Output;
        if (!isDir(Dir))
          return fail("output directory '" + Dir + "' does not exist");
        std::ofstream N(Dir + "/aggregate_nodes.csv"),
            E(Dir + "/aggregate_edges.csv");
        if (!N || !E)
          return fail("cannot write into '" + Dir + "': " +
                      std::strerror(errno));
        A.writeCsv(R, L.fn(), N, E);
        Files.push_back(Dir + "/aggregate_nodes.csv");
        Files.push_back(Dir + "/aggregate_edges.csv");
      }
    } else {
      std::string Dir = O.Output.empty() ? "." : O.Output;
      int Rc = runOtterGraph(O.Archive, Dir, O.Format);
      if (Rc != 0)
        return Rc;
      if (O.Format == "dot") {
        Files.push_back(Dir + "/graph.gv");
        if (O.Svg) {
          std::string Svg;
          if (!runDot(Dir + "/graph.gv", Svg, Error))
            return fail(Error);
          Files.push_back(Svg);
        }
      } else {
        Files.push_back(Dir + "/nodes.csv");
        Files.push_back(Dir + "/graph.csv");
      }
    }
  } else {
    return usage("unknown export format '" + O.Format +
                 "' (expected perfetto, states, dot or csv)");
  }
  printWritten(O, Files);
  return 0;
}

/// Every rank's time, from the job's analysis.
JobInfo jobInfo(const cli::JobInput &Job, const Result &R) {
  JobInfo J;
  J.Dir = Job.dir();
  const JobGraph &M = Job.matching();
  J.Match = M.Stats;
  J.Messages = M.Stats.Messages;
  J.Collectives = M.Stats.Collectives;
  for (std::uint32_t Rk = 0; Rk < Job.ranks().size(); ++Rk) {
    const cli::JobInput::Rank &X = Job.ranks()[Rk];
    RankTime T;
    T.Rank = Rk;
    T.Read = X.Read;
    T.Complete = X.Complete;
    T.Note = X.Error;
    T.Threads = X.Read ? X.Threads : 0;
    bool Any = false;
    for (std::uint32_t Th = X.ThreadBase;
         X.Read && Th < X.ThreadBase + X.Threads && Th < R.PerThread.size();
         ++Th) {
      const ThreadTime &P = R.PerThread[Th];
      if (!P.Seen)
        continue;
      T.BusyNs += P.BusyNs;
      T.WaitNs += P.WaitNs;
      T.MpiNs += P.MpiNs;
      T.First = Any ? std::min(T.First, P.First) : P.First;
      T.Last = std::max(T.Last, P.Last);
      Any = true;
    }
    J.Ranks.push_back(T);
  }
  return J;
}

/// Any command on an MPI job: every rank's archive as one stream (job.h).
int runJob(const Options &O, const job::Layout &Layout) {
  cli::JobInput Job;
  std::string Error;
  if (!Job.open(Layout, Error))
    return fail(Error);
  cli::rankWarnings(Job);
  Input In{nullptr, &Job, Layout.Dir};
  if (O.Command == "export")
    return cmdExport(O.Archive, O, &In);
  Result R;
  if (!analyse(In, nullptr, R, Error, O.Phase))
    return fail(Error);
  Labels L{In, {}};
  JobInfo J = jobInfo(Job, R);
  if (O.Command == "summary" && O.By == "phase")
    printSummary(R, L.fn(), O.Json, std::cout, O.Top, Job.names(), true);
  else if (O.Command == "summary")
    printJobSummary(R, J, L.fn(), O.Json, std::cout, O.Top, Job.names());
  else if (O.Command == "parallelism")
    printJobParallelism(R, J, L.fn(), O.Json, std::cout, O.Top, Job.names());
  else
    printJobDiagnose(R, J, L.fn(), cli::jobMpiWaits(Job, R, L.fn()), O.Json,
                     std::cout, Job.names());
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

/// `otter dump`: the archive's events, thread by thread.
int cmdDump(const Options &O) {
  dump::Options D;
  D.Time = !O.NoTime;
  D.Json = O.Json;
  std::string Error;
  if (!O.Kinds.empty() && !dump::parseKinds(O.Kinds, D, Error)) {
    std::fprintf(stderr, "otter: error: %s\n", Error.c_str());
    return 2;
  }
  cli::ArchiveInput In;
  if (!In.open(O.Archive, Error))
    return fail(Error);
  if (!In.complete())
    std::fprintf(
        stderr,
        "otter: warning: the trace in '%s' was not closed (the "
        "program is still running, was killed, or the disk filled up): what "
        "follows "
        "covers the events each thread had written\n",
        O.Archive.c_str());
  cli::warnIfCut(In, O.Archive);
  std::vector<std::uint32_t> Threads = In.locations();
  std::sort(Threads.begin(), Threads.end());
  if (!O.Threads.empty()) {
    std::vector<std::uint32_t> Chosen;
    std::stringstream SS(O.Threads);
    for (std::string T; std::getline(SS, T, ',');) {
      char *End = nullptr;
      unsigned long N = std::strtoul(T.c_str(), &End, 10);
      if (T.empty() || *End)
        return usage("--thread needs thread numbers, not '" + T + "'");
      if (std::find(Threads.begin(), Threads.end(), N) == Threads.end())
        return fail("no thread " + T + " in '" + O.Archive + "'");
      Chosen.push_back(std::uint32_t(N));
    }
    std::sort(Chosen.begin(), Chosen.end());
    Chosen.erase(std::unique(Chosen.begin(), Chosen.end()), Chosen.end());
    Threads = Chosen;
  }
  Input Src{&In, nullptr, O.Archive};
  Labels L{Src, {}};
  D.Names = In.names();
  dump::Printer P(std::cout, L.fn(), D);
  auto print = [&](std::uint32_t, const Event *E, std::size_t N) {
    for (std::size_t I = 0; I < N; ++I)
      P.event(E[I]);
  };
  for (std::uint32_t T : Threads) {
    P.thread(T);
    if (!In.streamLocations({T}, print, Error)) {
      std::cout.flush();
      return fail(Error);
    }
  }
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the events");
  return 0;
}

/// Where a reader finds a page of the documentation: the installed copy
/// beside this program (<prefix>/share/doc/otter/docs/), else the source
/// tree's (an otter of a build tree), else the page's name in the source.
std::string docsPage(const std::string &Page) {
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  if (N > 0) {
    Exe[N] = 0;
    std::string Dir(Exe);
    Dir.resize(Dir.rfind('/'));
    std::string Installed = Dir + "/../share/doc/otter/docs/" + Page;
    if (char *Real = realpath(Installed.c_str(), nullptr)) {
      std::string Path = Real;
      std::free(Real);
      return Path;
    }
  }
  std::string Source = std::string(OTTER_SOURCE_DIR) + "/docs/" + Page;
  if (access(Source.c_str(), R_OK) == 0)
    return Source;
  return "docs/" + Page;
}

int run(int argc, char **argv) {
  if (argc < 2)
    return usage("no command given");
  Options O;
  O.Command = argv[1];
  if (O.Command == "--version" || O.Command == "version") {
    std::puts("otter (OTTER " OTTER_VERSION_STRING ")");
    return 0;
  }
  if (O.Command == "-h" || O.Command == "--help" || O.Command == "help") {
    std::fputs(MainHelp, stdout);
    std::fputs(cli::ReportCommandsHelp, stdout);
    std::fputs(MainHelpTail, stdout);
    std::printf("Documentation: %s\n", docsPage("utils.md").c_str());
    return 0;
  }
  if (int Rc; cli::runReportCommand(O.Command, argc, argv, Rc))
    return Rc;
  const CommandHelp *Help = nullptr;
  for (const CommandHelp &H : Helps)
    if (O.Command == H.Name)
      Help = &H;
  if (!Help)
    return usage("unknown command '" + O.Command + "'");
  for (int I = 2; I < argc; ++I) {
    std::string A = argv[I];
    auto value = [&](std::string &Out) {
      std::size_t Eq = A.find('=');
      if (A.rfind("--", 0) == 0 && Eq != std::string::npos) {
        Out = A.substr(Eq + 1);
        return true;
      }
      if (I + 1 >= argc)
        return false;
      Out = argv[++I];
      return true;
    };
    std::string Name = A.substr(0, A.find('='));
    if (A == "-h" || A == "--help") {
      std::fputs(Help->Text, stdout);
      return 0;
    } else if (A == "--json")
      O.Json = true;
    else if (A == "--aggregate")
      O.Aggregate = true;
    else if (A == "--svg")
      O.Svg = true;
    else if (Name == "--format" || A == "-f") {
      if (!value(O.Format))
        return usage(A + " needs a value");
    } else if (Name == "--output" || A == "-o") {
      if (!value(O.Output))
        return usage(A + " needs a value");
    } else if (Name == "--top") {
      std::string V;
      if (!value(V))
        return usage("--top needs a number");
      char *End = nullptr;
      unsigned long long N = std::strtoull(V.c_str(), &End, 10);
      if (V.empty() || *End)
        return usage("--top needs a number, not '" + V + "'");
      O.Top = std::size_t(N);
    } else if (Name == "--phase" &&
               (O.Command == "summary" || O.Command == "parallelism" ||
                O.Command == "diagnose" || O.Command == "export")) {
      if (!value(O.Phase) || O.Phase.empty())
        return usage("--phase needs a phase name");
    } else if (O.Command == "parallelism" && A == "--full") {
      O.FullPath = true;
    } else if (O.Command == "diagnose" && A == "--no-advice") {
      O.NoAdvice = true;
    } else if (O.Command == "summary" && Name == "--by") {
      if (!value(O.By) || (O.By != "phase" && O.By != "construct"))
        return usage("--by needs 'construct' or 'phase'");
    } else if (O.Command == "dump" && A == "--no-time") {
      O.NoTime = true;
    } else if (O.Command == "dump" && A == "--kinds") {
      O.ListKinds = true;
    } else if (O.Command == "dump" &&
               (Name == "--kind" || Name == "--thread")) {
      if (!value(Name == "--kind" ? O.Kinds : O.Threads))
        return usage(A + " needs a value");
    } else if (A.size() > 1 && A[0] == '-')
      return usage("unknown option '" + A + "' for '" + O.Command + "'");
    else if (O.Archive.empty())
      O.Archive = A;
    else
      return oneArchive(2); // a second one
  }
  if (O.ListKinds) {
    dump::listKinds(std::cout);
    return 0;
  }
  if (O.Archive.empty())
    return oneArchive(0);
  if (O.Command == "export" && O.Format.empty())
    return usage("export needs --format perfetto, states, dot or csv");
  if (O.Command == "export" && O.Format != "perfetto" && O.Format != "dot" &&
      O.Format != "csv" && O.Format != "states")
    return usage("unknown export format '" + O.Format +
                 "' (expected perfetto, states, dot or csv)");
  if (O.Command != "export" && O.Command != "graph" &&
      (!O.Format.empty() || O.Aggregate || O.Svg))
    return usage("--format/--aggregate/--svg apply to 'export'");
  if (!O.Phase.empty() && O.Command == "export" && O.Format != "perfetto" &&
      O.Format != "states" && !O.Aggregate)
    return usage("--phase applies to --format perfetto, states and "
                 "--aggregate (the full graph is the whole run's)");

  // The full graph goes to otter-graph, which opens the archive itself:
  // opening it here too would read its definitions twice for nothing.
  if (O.Command == "graph")
    return cmdGraph(O);
  if (O.Command == "dump")
    return cmdDump(O);
  if (O.Command == "export" && !O.Aggregate &&
      (O.Format == "dot" || O.Format == "csv"))
    return cmdExport(O.Archive, O);
  std::string Error;
  job::Layout Layout;
  if (job::findJob(O.Archive, Layout))
    return runJob(O, Layout);
  if (O.Command == "diagnose")
    return cli::diagnoseArchive(O.Archive, O.Json, O.Phase, O.NoAdvice);
  cli::ArchiveInput Archive;
  if (!Archive.open(O.Archive, Error))
    return fail(Error);
  if (!Archive.complete())
    std::fprintf(
        stderr,
        "otter: warning: the trace in '%s' was not closed (the "
        "program is still running, was killed, or the disk filled up): what "
        "follows "
        "covers the events each thread had written\n",
        O.Archive.c_str());
  cli::warnIfCut(Archive, O.Archive);
  if (!Archive.filter().empty())
    std::fprintf(stderr, "otter: filtered: %s\n", Archive.filter().c_str());
  Input In{&Archive, nullptr, O.Archive};
  if (O.Command == "export")
    return cmdExport(O.Archive, O, &In);
  Result R;
  if (!analyse(In, nullptr, R, Error, O.Phase))
    return fail(Error);
  Labels L{In, {}};
  if (O.Command == "summary")
    printSummary(R, L.fn(), O.Json, std::cout, O.Top, Archive.names(),
                 O.By == "phase");
  else if (O.Command == "parallelism") {
    std::vector<PhaseParallelism> Phases;
    // The whole run's report has a row per phase; --phase NAME is one.
    if (O.Phase.empty() && !R.Phases.empty() &&
        !phaseRows(In, R, Phases, Error))
      return fail(Error);
    printParallelism(R, L.fn(), O.Json, std::cout, O.Top, Archive.names(),
                     Phases, O.FullPath);
  } else
    printDiagnose(R, L.fn(), O.Json, std::cout, Archive.names());
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    return fail("out of memory");
  } catch (const std::exception &E) {
    return fail(E.what());
  }
}
