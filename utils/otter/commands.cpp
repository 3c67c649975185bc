//===- otter/commands.cpp - simulate, report, diff -----------------------===//
//
// Option parsing, reading and output of the three commands (commands.h).
// Errors are one line, "otter: error: ...", exit status 2 for a usage error
// and 1 for bad input or output, as every otter command (docs/utils.md).
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "advice.h"
#include "analysis.h"
#include "diff.h"
#include "export.h"
#include "graph/builder.h"
#include "graph/writers.h"
#include "html_report.h"
#include "input.h"
#include "job_input.h"
#include "stream.h"
#include "picture.h"
#include "report.h"
#include "sim_program.h"
#include "simulate.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace otter::cli {

const char *ReportCommandsHelp =
    "  simulate     predicted time on 1..256 cores: the tasks replayed\n"
    "               by a work-first scheduler, beside the bounds\n"
    "  picture      the task graph as SVG (aggregated when too big to read)\n"
    "  report       one self-contained HTML report of the run\n"
    "  diff         two runs compared per construct (otter diff A B)\n";

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", Msg.c_str());
  return 1;
}
int usage(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s (see 'otter --help')\n", Msg.c_str());
  return 2;
}
int oneArchive(std::size_t Given) {
  if (Given == 0)
    return usage("no archive given");
  if (Given > 1)
    return usage("more than one archive given");
  return -1;
}

namespace {

using namespace otter::analysis;

const char *SimulateHelp =
    "usage: otter simulate [--cores LIST] [--ideal] [--dispatch-ns NS]\n"
    "                      [--svg FILE] [--phase NAME] [--json] <archive>\n"
    "Replays the measured tasks (execution times, creations, dependences,\n"
    "taskwaits, taskgroups, barriers, teams) on simulated cores with a greedy\n"
    "work-first scheduler like libomp's (a core runs its own newest task,\n"
    "steals the oldest of another core otherwise), every task paying the\n"
    "measured scheduling cost and every parallel region its fork and join\n"
    "time, and prints per core count the predicted time, speed-up and\n"
    "efficiency beside the bounds work/P, span and burdened span.\n"
    "  --cores LIST  core counts: 1,2,8 or 1-256 (powers of two; default)\n"
    "  --ideal       no scheduling, fork or join cost\n"
    "  --dispatch-ns NS  the cost of starting a deferred task (default: the\n"
    "                mean measured in the trace; a trace with no deferred\n"
    "                task, such as a run on one thread, 3000)\n"
    "  --svg FILE    also write the scalability plot\n"
    "  --phase NAME  replay only what happened inside that phase of the\n"
    "                program (otter_phase_begin; docs/utils.md \"One phase\")\n"
    "  --json        {\"points\":[{\"cores\":P,\"predicted_ns\":...},...], "
    "bounds}\n"
    "A run on one thread has its tasks serialized (its team has one thread):\n"
    "on more cores they are replayed as deferred, unless final or created\n"
    "at a construct with an if clause.\n"
    "An MPI job (its directory or archive): each rank replayed alone on P\n"
    "cores, its MPI calls as long as they took; the job's time on P cores\n"
    "per rank is its slowest rank's.\n";

const char *PictureHelp =
    "usage: otter picture [-o FILE] [--full|--aggregate] [--phase NAME]\n"
    "                     [--json] <archive>\n"
    "Draws the task graph as SVG (default -o graph.svg), laid out by\n"
    "Graphviz, with a legend: the full graph (the one `otter graph` writes)\n"
    "when its picture stays within 20,000 pt tall and wide and 2 MB, else\n"
    "the aggregated graph: one node per source construct (instances, total\n"
    "time, shaded by its share of the run), edges with counts, the\n"
    "constructs and steps of the critical path in red. It says which graph\n"
    "it drew and why. --full, --aggregate: choose. --phase NAME: the\n"
    "aggregated graph of what happened inside that phase of the program.\n";

const char *ReportHelp =
    "usage: otter report [-o FILE] [--cores LIST] [--window FROM:TO]\n"
    "                    [--no-simulate] [--phase NAME] [--json] <archive>\n"
    "Writes one self-contained HTML file (default -o report.html; no\n"
    "network, no external script): the run's overview and key numbers (as\n"
    "otter parallelism), time per construct and source line (as otter\n"
    "summary), per-region parallelism and the critical path, diagnostics\n"
    "with their evidence (as otter diagnose), the scalability plot and\n"
    "table (as otter simulate, --cores), the task graph (as otter picture)\n"
    "and per-thread timelines of a window, binned.\n"
    "  --window FROM:TO  in ms from the run's first event (default: all)\n"
    "  --no-simulate     leave out the scalability section (faster)\n"
    "  --phase NAME      the report of what happened inside that phase of\n"
    "                    the program (the graph aggregated)\n"
    "An MPI job (its directory or archive): one page for the job as one\n"
    "program, with a section per rank; scalability as otter simulate's.\n";

const char *DiffHelp =
    "usage: otter diff [--top N] [--phase NAME] [--json] <archive A> <archive "
    "B>\n"
    "Compares two traces of one program (before and after a change, 2\n"
    "against 4 threads): the totals (run time, work, span, burdened span,\n"
    "parallelism), and per source construct its time, instances, work,\n"
    "time on the critical path (span) and waiting in A and in B, sorted by\n"
    "impact (the largest change of time, span or waiting); constructs only\n"
    "in one run apart. Constructs match by the plugin's region id, else by\n"
    "kind and file:line, else by kind and location. --top N: first N rows\n"
    "(default 30; 0 = all; --json always lists all). --phase NAME: both\n"
    "runs restricted to that phase of the program (it must occur in both).\n";

const char *PhaseJobError =
    "--phase on an MPI job applies to summary, parallelism, diagnose and "
    "export; simulate, picture, report and diff take a job whole";

struct Args {
  std::string Archive, Output, Svg, Cores, Window, Top, DispatchNs, Phase;
  bool Json = false, Ideal = false, Full = false, Aggregate = false,
       NoSimulate = false;
};

/// Parses the options every command of this file shares; Allowed lists
/// the ones Command takes. Returns -1 to go on, else an exit status.
int parse(int argc, char **argv, const char *Help, const std::string &Allowed,
          Args &A, std::vector<std::string> &Inputs) {
  for (int I = 2; I < argc; ++I) {
    std::string X = argv[I];
    std::string Name = X.substr(0, X.find('='));
    auto value = [&](std::string &Out) {
      std::size_t Eq = X.find('=');
      if (X.rfind("--", 0) == 0 && Eq != std::string::npos) {
        Out = X.substr(Eq + 1);
        return true;
      }
      if (I + 1 >= argc)
        return false;
      Out = argv[++I];
      return true;
    };
    auto takes = [&](const char *Opt) {
      return Allowed.find(std::string(" ") + Opt + " ") != std::string::npos;
    };
    if (X == "-h" || X == "--help") {
      std::fputs(Help, stdout);
      return 0;
    }
    if (X.size() > 1 && X[0] == '-' && !takes(Name.c_str()))
      return usage("unknown option '" + X + "' for '" + argv[1] + "'");
    if (X == "--json")
      A.Json = true;
    else if (X == "--full")
      A.Full = true;
    else if (X == "--aggregate")
      A.Aggregate = true;
    else if (X == "--no-simulate")
      A.NoSimulate = true;
    else if (Name == "--top") {
      if (!value(A.Top))
        return usage("--top needs a number");
    } else if (Name == "--window") {
      if (!value(A.Window))
        return usage("--window needs FROM:TO (ms)");
    } else if (X == "--ideal")
      A.Ideal = true;
    else if (Name == "--cores") {
      if (!value(A.Cores))
        return usage("--cores needs a list");
    } else if (Name == "--dispatch-ns") {
      if (!value(A.DispatchNs))
        return usage("--dispatch-ns needs a time in ns");
    } else if (Name == "--phase") {
      if (!value(A.Phase) || A.Phase.empty())
        return usage("--phase needs a phase name");
    } else if (Name == "--svg") {
      if (!value(A.Svg))
        return usage("--svg needs a file name");
    } else if (Name == "-o" || Name == "--output") {
      if (!value(A.Output))
        return usage(X + " needs a file name");
    } else
      Inputs.push_back(X);
  }
  return -1;
}

} // namespace

bool phaseOccurred(const std::string &Phase, const PhaseRestriction &P,
                   const std::vector<std::string> &Names, bool Ok,
                   std::string &Error) {
  if (!P.occurrences()) {
    Error = unknownPhaseError(Phase, P.phasesSeen(), Names);
    return false;
  }
  if (Ok)
    std::fprintf(stderr, "otter: phase '%s': %llu occurrence%s\n",
                 Phase.c_str(), (unsigned long long)P.occurrences(),
                 P.occurrences() == 1 ? "" : "s");
  return Ok;
}

void warnIfCut(const ArchiveInput &In, const std::string &Path) {
  if (In.cutAtLimit())
    std::fprintf(stderr,
                 "otter: warning: the trace in '%s' was cut at its size limit "
                 "(OTTER_MAX_TRACE_SIZE=%llu): the program ran on, what "
                 "follows covers the run up to that point\n",
                 Path.c_str(), (unsigned long long)In.cutAtLimit());
}

/// One streaming pass: the analysis (with Obs), and the replayable program
/// if Prog. In: the archive, opened here.
bool readArchive(ArchiveInput &In, const std::string &Path, Result &R,
                 sim::Program *Prog, Observer *Obs, std::string &Error,
                 const std::function<void(std::uint64_t)> &OnFirst,
                 const std::string &Phase, bool Sites) {
  if (!In.open(Path, Error))
    return false;
  if (!In.complete())
    std::fprintf(
        stderr,
        "otter: warning: the trace in '%s' was not closed (the "
        "program is still running, was killed, or the disk filled up): what "
        "follows "
        "covers the events each thread had written\n",
        Path.c_str());
  warnIfCut(In, Path);
  // Filtered constructs are not in the trace: every figure leaves them out.
  if (!In.filter().empty())
    std::fprintf(stderr, "otter: filtered: %s\n", In.filter().c_str());
  Analyzer A;
  A.setObserver(Obs);
  sim::Recorder Rec;
  if (Sites)
    Rec.recordSites();
  // Which task constructs have an if clause (the plugin's clause text),
  // memoised per code address: their undeferred tasks may be if(0).
  std::unordered_map<std::uint64_t, bool> HasIf;
  Rec.setIfClause([&In, &HasIf](std::uint64_t Code) {
    auto [It, New] = HasIf.try_emplace(Code, false);
    if (New)
      It->second = sim::hasIfClause(In.label(Code).Clauses);
    return It->second;
  });
  bool First = true;
  auto Tap = [&](std::uint32_t Th, const Event *E, std::size_t K) {
    if (First && K && OnFirst)
      OnFirst(E[0].Time);
    First = First && !K;
    if (Prog)
      Rec.add(Th, E, K);
  };
  if (Phase.empty()) {
    if (!analyseStream(In, A, R, Error, Tap))
      return false;
  } else {
    // Everything (analysis, replay, timeline) sees the phase only.
    PhaseRestriction P(phaseNameId(Phase, In.names()));
    PhaseSource<ArchiveInput> PS{In, P, {}};
    if (!phaseOccurred(Phase, P, In.names(),
                       analyseStream(PS, A, R, Error, Tap), Error))
      return false;
  }
  if (Prog && !Rec.finish(*Prog, Error))
    return false;
  return true;
}

namespace {

bool read(ArchiveInput &In, const std::string &Path, Result &R,
          sim::Program *Prog, Observer *Obs, std::string &Error,
          const std::function<void(std::uint64_t)> &OnFirst = {},
          const std::string &Phase = {}, bool Sites = false) {
  return readArchive(In, Path, R, Prog, Obs, Error, OnFirst, Phase, Sites);
}

/// The options of the replay: the dispatch cost as given, measured in the
/// trace, or the default for a trace with no deferred task.
} // namespace

bool simOptions(bool Ideal, const std::string &DispatchNs, const Result &R,
                sim::Options &O, sim::DispatchSource &From,
                std::string &Error) {
  O.Overheads = !Ideal;
  if (Ideal) {
    O.ScheduleNs = 0;
    From = sim::DispatchSource::None;
  } else if (!DispatchNs.empty()) {
    char *End = nullptr;
    O.ScheduleNs = std::strtod(DispatchNs.c_str(), &End);
    if (*End || End == DispatchNs.c_str() || !(O.ScheduleNs >= 0) ||
        O.ScheduleNs > 1e12) {
      Error = "--dispatch-ns needs a time in ns, not '" + DispatchNs + "'";
      return false;
    }
    From = sim::DispatchSource::Given;
  } else if (R.ScheduleSamples) {
    O.ScheduleNs = R.ScheduleCostNs;
    From = sim::DispatchSource::Measured;
  } else {
    O.ScheduleNs = sim::DefaultDispatchNs;
    From = sim::DispatchSource::Default;
  }
  return true;
}

namespace {

bool argsOptions(const Args &A, const Result &R, sim::Options &O,
                 sim::DispatchSource &From, std::string &Error) {
  return simOptions(A.Ideal, A.DispatchNs, R, O, From, Error);
}

/// The archive's labels, memoised per code address.
using Labels = LabelCache<ArchiveInput>;

bool writeFile(const std::string &Path, const std::string &Text,
               std::string &Error) {
  std::ofstream OS(Path, std::ios::binary);
  if (OS)
    OS << Text;
  if (!OS.flush()) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

/// The graph picture (picture::drawGraph): the full graph (read again, in
/// the reader's order, into the runtime's graph builder) when it is legible
/// or asked for, else the aggregated one.
bool graphPicture(ArchiveInput &In, const Result &R, const AggregateGraph &Agg,
                  const LabelFn &Label, bool WantFull, bool WantAggregate,
                  picture::GraphPicture &Pic, std::string &Error) {
  auto Full = [&](Graph &G, std::string &Err) {
    GraphBuilder B([&](std::uint64_t Code) { return Label(Code); });
    if (!In.streamRaw([&](std::uint32_t Th, const Event *E,
                          std::size_t N) { B.addEvents(Th, E, N); },
                      Err))
      return false;
    G = B.build();
    G.Names = In.names();
    return true;
  };
  return picture::drawGraph(Full, R, Agg, Label,
                            WantFull        ? picture::GraphMode::Full
                            : WantAggregate ? picture::GraphMode::Aggregate
                                            : picture::GraphMode::Auto,
                            Pic, Error);
}

int cmdPicture(int argc, char **argv) {
  Args A;
  std::vector<std::string> In;
  int Rc = parse(argc, argv, PictureHelp,
                 " --json --full --aggregate --phase -o ", A, In);
  if (Rc >= 0)
    return Rc;
  if (int Rc = oneArchive(In.size()); Rc >= 0)
    return Rc;
  if (A.Full && A.Aggregate)
    return usage("--full and --aggregate exclude each other");
  if (A.Full && !A.Phase.empty())
    return usage("--phase draws the aggregated graph (the full graph is the "
                 "whole run's)");
  if (job::Layout L; !A.Phase.empty() && job::findJob(In[0], L))
    return usage(PhaseJobError);
  std::string Out = A.Output.empty() ? "graph.svg" : A.Output;
  std::string Error;
  ArchiveInput Input;
  Result R;
  AggregateGraph Agg;
  if (!read(Input, In[0], R, nullptr, &Agg, Error, {}, A.Phase))
    return fail(Error);
  Labels L{Input, {}};
  Agg.setNames(Input.names()); // its nodes name their tasks' labels
  picture::GraphPicture Pic;
  if (!graphPicture(Input, R, Agg, L.fn(), A.Full,
                    A.Aggregate || !A.Phase.empty(), Pic, Error))
    return fail(Error);
  if (!writeFile(Out, Pic.Svg, Error))
    return fail(Error);
  if (A.Json)
    std::cout << "{\"written\":[" << jsonString(Out)
              << "],\"graph\":" << jsonString(Pic.Full ? "full" : "aggregate")
              << ",\"why\":" << jsonString(Pic.Why) << "}\n";
  else
    std::cout << "wrote " << Out << " (" << (Pic.Full ? "full" : "aggregated")
              << " graph): " << Pic.Why << "\n";
  return 0;
}

int cmdSimulate(int argc, char **argv) {
  Args A;
  std::vector<std::string> In;
  int Rc = parse(argc, argv, SimulateHelp,
                 " --json --ideal --cores --svg --dispatch-ns --phase ", A, In);
  if (Rc >= 0)
    return Rc;
  if (int Rc = oneArchive(In.size()); Rc >= 0)
    return Rc;
  std::vector<unsigned> Cores;
  std::string Error;
  if (A.Cores.empty())
    A.Cores = "1-256";
  if (!sim::parseCores(A.Cores, Cores, Error))
    return usage(Error);
  Result R;
  sim::Program G;
  ArchiveInput Input;
  if (job::Layout L; job::findJob(In[0], L)) {
    if (!A.Phase.empty())
      return usage(PhaseJobError);
    sim::Options O;
    sim::DispatchSource From;
    if (!argsOptions(A, R, O, From, Error))
      return usage(Error);
    return simulateJob(L, Cores, A.Ideal, A.DispatchNs, A.Json, A.Svg);
  }
  sim::Options O;
  sim::DispatchSource From;
  if (!argsOptions(A, R, O, From, Error)) // a bad --dispatch-ns: before reading
    return usage(Error);
  if (!read(Input, In[0], R, &G, nullptr, Error, {}, A.Phase))
    return fail(Error);
  if (!argsOptions(A, R, O, From, Error))
    return usage(Error);
  sim::Prediction P = sim::predict(G, R, Cores, O);
  P.ScheduleFrom = From;
  if (!A.Svg.empty() && !writeFile(A.Svg, picture::scalabilitySvg(P), Error))
    return fail(Error);
  sim::printPrediction(P, A.Json, std::cout);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

int cmdReport(int argc, char **argv) {
  Args A;
  std::vector<std::string> In;
  int Rc = parse(argc, argv, ReportHelp,
                 " --json --cores --window --no-simulate --phase -o ", A, In);
  if (Rc >= 0)
    return Rc;
  if (int Rc = oneArchive(In.size()); Rc >= 0)
    return Rc;
  std::string Error;
  std::vector<unsigned> Cores;
  if (!sim::parseCores(A.Cores.empty() ? "1-256" : A.Cores, Cores, Error))
    return usage(Error);
  double WFrom = 0, WTo = 0;
  if (!A.Window.empty()) {
    char *E1 = nullptr, *E2 = nullptr;
    std::size_t Colon = A.Window.find(':');
    if (Colon != std::string::npos) {
      WFrom = std::strtod(A.Window.c_str(), &E1);
      WTo = std::strtod(A.Window.c_str() + Colon + 1, &E2);
    }
    if (Colon == std::string::npos || E1 != A.Window.c_str() + Colon || *E2 ||
        WFrom < 0 || WTo <= WFrom)
      return usage("--window needs FROM:TO in ms, FROM < TO, not '" + A.Window +
                   "'");
  }
  std::string Out = A.Output.empty() ? "report.html" : A.Output;
  if (job::Layout L; job::findJob(In[0], L)) {
    if (!A.Phase.empty())
      return usage(PhaseJobError);
    return reportJob(L, In[0], Cores, A.NoSimulate, std::uint64_t(WFrom * 1e6),
                     std::uint64_t(WTo * 1e6), Out, A.Json);
  }
  ArchiveInput Input;
  // Bins per thread: 1000, fewer for many threads (the page stays small).
  html::Timeline Times(std::uint64_t(WFrom * 1e6), std::uint64_t(WTo * 1e6),
                       1000);
  AggregateGraph Agg;
  TeeObserver Both(Agg, Times);
  Result R;
  sim::Program G;
  if (!read(
          Input, In[0], R, A.NoSimulate ? nullptr : &G, &Both, Error,
          [&](std::uint64_t T) { Times.setOrigin(T); }, A.Phase,
          /*Sites=*/true))
    return fail(Error);
  Times.finish(R.runNs());
  Agg.setNames(Input.names());
  Labels L{Input, {}};
  sim::Prediction P;
  std::vector<analysis::Advice> Advice; // diagnose's, replayed
  if (!A.NoSimulate) {
    sim::Options O;
    sim::DispatchSource From;
    argsOptions(A, R, O, From, Error);
    P = sim::predict(G, R, Cores, O);
    P.ScheduleFrom = From;
    Advice = advice::advise(G, R, O, L.fn(), std::max(1u, R.Threads));
    G = sim::Program(); // its memory is not needed any more
  }
  html::ReportInput RI;
  RI.Advice = std::move(Advice);
  RI.Archive = In[0];
  RI.Phase = A.Phase;
  RI.R = &R;
  RI.Label = L.fn();
  RI.Names = &Input.names();
  RI.Scaling = A.NoSimulate ? nullptr : &P;
  RI.Times = &Times;
  std::string GErr;
  picture::GraphPicture Pic;
  // A phase's picture is aggregated: the full graph is the whole run's.
  if (graphPicture(Input, R, Agg, RI.Label, false, !A.Phase.empty(), Pic,
                   GErr)) {
    RI.GraphSvg = std::move(Pic.Svg);
    RI.GraphFull = Pic.Full;
    RI.GraphNote = "Drawn: " + Pic.Why + ".";
  } else
    RI.GraphNote = "No picture: " + GErr + ".";
  std::ofstream OS(Out, std::ios::binary);
  if (!OS)
    return fail("cannot write '" + Out + "': " + std::strerror(errno));
  html::writeReport(RI, OS);
  if (!OS.flush())
    return fail("error writing '" + Out + "'");
  OS.close();
  if (A.Json)
    std::cout << "{\"written\":[" << jsonString(Out) << "]}\n";
  else
    std::cout << "wrote " << Out << "\n";
  return 0;
}

int cmdDiff(int argc, char **argv) {
  Args A;
  std::vector<std::string> In;
  int Rc = parse(argc, argv, DiffHelp, " --json --top --phase ", A, In);
  if (Rc >= 0)
    return Rc;
  if (In.size() != 2)
    return usage("diff needs two archives, A and B");
  std::size_t Top = 30;
  if (!A.Top.empty()) {
    char *End = nullptr;
    unsigned long long N = std::strtoull(A.Top.c_str(), &End, 10);
    if (*End)
      return usage("--top needs a number, not '" + A.Top + "'");
    Top = std::size_t(N);
  }
  std::string Error;
  ArchiveInput IA, IB;
  Result RA, RB;
  for (const std::string &X : In)
    if (job::Layout L; !A.Phase.empty() && job::findJob(X, L))
      return usage(PhaseJobError);
  // Both runs restricted to the same phase; an error names the run that
  // has no such phase.
  if (!read(IA, In[0], RA, nullptr, nullptr, Error, {}, A.Phase))
    return fail(A.Phase.empty() ? Error : "'" + In[0] + "': " + Error);
  if (!read(IB, In[1], RB, nullptr, nullptr, Error, {}, A.Phase))
    return fail(A.Phase.empty() ? Error : "'" + In[1] + "': " + Error);
  Labels LA{IA, {}}, LB{IB, {}};
  diff::Result D = diff::compare(RA, LA.fn(), RB, LB.fn());
  diff::print(D, A.Json, std::cout, Top, In[0], In[1]);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace

bool runReportCommand(const std::string &Command, int argc, char **argv,
                      int &Rc) {
  if (Command == "simulate")
    Rc = cmdSimulate(argc, argv);
  else if (Command == "picture")
    Rc = cmdPicture(argc, argv);
  else if (Command == "report")
    Rc = cmdReport(argc, argv);
  else if (Command == "diff")
    Rc = cmdDiff(argc, argv);
  else
    return false;
  return true;
}

} // namespace otter::cli
