//===- otter/commands.cpp - simulate, report, diff -----------------------===//
//
// Option parsing, reading and output of the three commands (commands.h).
// Errors are one line, "otter: error: ...", exit status 2 for a usage error
// and 1 for bad input or output, as every otter command (docs/utils.md).
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "analysis.h"
#include "input.h"
#include "report.h"
#include "sim_program.h"
#include "simulate.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <unordered_map>
#include <vector>

namespace otter::cli {

const char *ReportCommandsHelp =
    "  simulate     predicted time on 1..256 cores: the trace's tasks "
    "replayed\n"
    "               by a work-first scheduler, with the work/span bounds\n";

namespace {

using namespace otter::analysis;

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", Msg.c_str());
  return 1;
}
int usage(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s (see 'otter --help')\n", Msg.c_str());
  return 2;
}

const char *SimulateHelp =
    "usage: otter simulate [--cores LIST] [--ideal] [--svg FILE] [--json]\n"
    "                      <archive>\n"
    "Replays the measured tasks (execution times, creations, dependences,\n"
    "taskwaits, taskgroups, barriers, teams) on simulated cores with a greedy\n"
    "work-first scheduler like libomp's (a core runs its own newest task,\n"
    "steals the oldest of another core otherwise), every task paying the\n"
    "measured scheduling cost and every parallel region its fork and join\n"
    "time, and prints per core count the predicted time, speed-up and\n"
    "efficiency beside the bounds work/P, span and burdened span.\n"
    "  --cores LIST  core counts: 1,2,8 or 1-256 (powers of two; default)\n"
    "  --ideal       no scheduling, fork or join cost\n"
    "  --svg FILE    also write the scalability plot\n"
    "  --json        {\"points\":[{\"cores\":P,\"predicted_ns\":...},...], "
    "bounds}\n";

struct Args {
  std::string Archive, Output, Svg, Cores;
  bool Json = false, Ideal = false;
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
    else if (X == "--ideal")
      A.Ideal = true;
    else if (Name == "--cores") {
      if (!value(A.Cores))
        return usage("--cores needs a list");
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

/// One streaming pass: the analysis, and the replayable program if Prog.
bool read(const std::string &Path, Result &R, sim::Program *Prog,
          std::unordered_map<std::uint64_t, SourceLabel> *Labels,
          std::string &Error) {
  ArchiveInput In;
  if (!In.open(Path, Error))
    return false;
  if (!In.complete())
    std::fprintf(stderr,
                 "otter: warning: the trace in '%s' was not closed (the "
                 "program was killed, or the disk filled up): what follows "
                 "covers the events each thread had written\n",
                 Path.c_str());
  Analyzer A;
  sim::Recorder Rec;
  Progress Bar("reading events");
  std::uint64_t N = 0;
  bool Ok = In.streamOrdered(
      [&](std::uint32_t Th, const Event *E, std::size_t K) {
        A.add(Th, E, K);
        if (Prog)
          Rec.add(Th, E, K);
        N += K;
        Bar.tick(K);
      },
      Error);
  Bar.done();
  if (!Ok)
    return false;
  if (N == 0) {
    Error = "'" + In.path() + "': the trace has no events";
    return false;
  }
  R = A.finish();
  if (Prog && !Rec.finish(*Prog, Error))
    return false;
  if (Labels) {
    auto want = [&](std::uint64_t Code) {
      if (Code && !Labels->count(Code))
        (*Labels)[Code] = In.label(Code);
    };
    for (const ConstructStats &S : R.Constructs)
      want(S.Code);
    for (const PathStep &S : R.CriticalPath)
      want(S.Code);
  }
  return true;
}

int cmdSimulate(int argc, char **argv) {
  Args A;
  std::vector<std::string> In;
  int Rc =
      parse(argc, argv, SimulateHelp, " --json --ideal --cores --svg ", A, In);
  if (Rc >= 0)
    return Rc;
  if (In.empty())
    return usage("no archive given");
  if (In.size() > 1)
    return usage("more than one archive given");
  std::vector<unsigned> Cores;
  std::string Error;
  if (A.Cores.empty())
    A.Cores = "1-256";
  if (!sim::parseCores(A.Cores, Cores, Error))
    return usage(Error);
  Result R;
  sim::Program G;
  if (!read(In[0], R, &G, nullptr, Error))
    return fail(Error);
  sim::Options O;
  O.ScheduleNs = A.Ideal ? 0 : R.dispatchMeanNs();
  O.Overheads = !A.Ideal;
  sim::Prediction P = sim::predict(G, R, Cores, O);
  sim::printPrediction(P, A.Json, std::cout);
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
  else
    return false;
  return true;
}

} // namespace otter::cli
