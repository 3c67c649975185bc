//===- otter/commands.cpp - simulate, picture, report, diff ---------------===//
//
// The commands that answer "how would it scale", "show me" and "what
// changed" on one process's archive (an MPI job: commands_job.cpp), and
// the pass they share (readArchive: the analysis and the replayable
// program at once). Their options come parsed from the command table
// (commands.h); errors are one line, "otter: error: ...", exit status 2
// for a usage error and 1 for bad input or output (docs/utils.md).
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
#include "profile.h"
#include "report.h"
#include "report_sections.h"
#include "sim_program.h"
#include "simulate.h"
#include "trace/sample_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <unordered_map>
#include <unistd.h>
#include <vector>

namespace otter::cli {

namespace {

using namespace otter::analysis;

const char *PhaseJobError =
    "--phase on an MPI job applies to summary, parallelism, diagnose and "
    "export; simulate, picture, report and diff take a job whole";

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

/// One streaming pass: the analysis (with Obs), and the replayable program
/// if Prog. In: the archive, opened here.
bool readArchive(ArchiveInput &In, const std::string &Path, Result &R,
                 sim::Program *Prog, Observer *Obs, std::string &Error,
                 const std::function<void(std::uint64_t)> &OnFirst,
                 const std::string &Phase, bool Sites) {
  if (!openArchive(In, Path, Error))
    return false;
  Analyzer A;
  A.setObserver(Obs);
  A.setRuntimeTeam([&In](std::uint64_t Code) {
    return In.label(Code).Function == HiddenHelperTeam;
  });
  sim::Recorder Rec;
  Rec.setRecordingCost(In.recordingCostNs());
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
  // libomp's hidden helper team (target tasks' threads): not replayed.
  Rec.setRuntimeTeam([&In](std::uint64_t Code) {
    return In.label(Code).Function == HiddenHelperTeam;
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

/// The options of the replay: the dispatch cost as given, measured in the
/// trace, or the default for a trace with no deferred task.
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

sim::Calibration calibrateMeasured(const sim::Program &G, const Result &R,
                                   sim::Options &O,
                                   sim::DispatchSource From) {
  if (From != sim::DispatchSource::Measured &&
      From != sim::DispatchSource::Default)
    return {};
  return sim::calibrate(G, R, O);
}

namespace {

bool argsOptions(const Options &A, const Result &R, sim::Options &O,
                 sim::DispatchSource &From, std::string &Error) {
  return simOptions(A.Ideal, A.DispatchNs, R, O, From, Error);
}

/// The archive's labels, memoised per code address.
using Labels = LabelCache<ArchiveInput>;

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

} // namespace

int cmdPicture(const Options &A) {
  const std::vector<std::string> &In = A.Inputs;
  if (int Rc = oneArchive(In.size()); Rc >= 0)
    return Rc;
  if (A.Full && A.Aggregate)
    return usage("--full and --aggregate exclude each other");
  if (A.Full && !A.Phase.empty())
    return usage("--phase draws the aggregated graph (the full graph is the "
                 "whole run's)");
  if (job::Layout L; job::findJob(In[0], L))
    return A.Phase.empty() ? pictureJob(A) : usage(PhaseJobError);
  std::string Out = outputFile(A.Output, "graph.svg");
  std::string Error;
  ArchiveInput Input;
  Result R;
  AggregateGraph Agg;
  if (!readArchive(Input, In[0], R, nullptr, &Agg, Error, {}, A.Phase))
    return fail(Error);
  Labels L{Input, {}};
  Agg.setNames(Input.names()); // its nodes name their tasks' labels
  picture::GraphPicture Pic;
  if (!graphPicture(Input, R, Agg, L.fn(), A.Full,
                    A.Aggregate || !A.Phase.empty(), Pic, Error))
    return fail(Error);
  if (!writeOutputText(Out, Pic.Svg, Error))
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

int cmdSimulate(const Options &A) {
  const std::vector<std::string> &In = A.Inputs;
  if (int Rc = oneArchive(In.size()); Rc >= 0)
    return Rc;
  std::vector<unsigned> Cores;
  std::string Error;
  if (!sim::parseCores(A.Cores.empty() ? "1-256" : A.Cores, Cores, Error))
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
    return simulateJob(L, Cores, A.Ideal, A.DispatchNs, A.Json, A.SvgFile);
  }
  sim::Options O;
  sim::DispatchSource From;
  if (!argsOptions(A, R, O, From, Error)) // a bad --dispatch-ns: before reading
    return usage(Error);
  if (!readArchive(Input, In[0], R, &G, nullptr, Error, {}, A.Phase))
    return fail(Error);
  if (!argsOptions(A, R, O, From, Error))
    return usage(Error);
  sim::Calibration Cal = calibrateMeasured(G, R, O, From);
  sim::Prediction P = sim::predict(G, R, Cores, O);
  P.ScheduleFrom = From;
  P.Calibrated = Cal;
  if (!A.SvgFile.empty() &&
      !writeOutputText(A.SvgFile, picture::scalabilitySvg(P), Error))
    return fail(Error);
  sim::printPrediction(P, A.Json, std::cout);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

int writeHtmlFile(const std::string &Out, bool Json, const std::string &Note,
                  const std::function<void(std::ostream &)> &Write) {
  std::ofstream OS;
  std::string Error;
  if (!openOutputFile(Out, OS, Error))
    return fail(Error);
  Write(OS);
  if (!OS.flush())
    return fail("error writing '" + Out + "'");
  OS.close();
  if (Json)
    std::cout << "{\"written\":[" << jsonString(Out) << "]}\n";
  else
    std::cout << "wrote " << Out << Note << "\n";
  return 0;
}

/// The report of a run or job sampled without a trace: its profile.
static int reportSamplesAlone(const std::string &Input, const std::string &Out,
                              bool Json) {
  profile::Profile Prof;
  std::string Dir, Why;
  if (loadProfile(Input, Prof, Dir, Why) != ProfileLoad::Ok)
    return fail(Why);
  return writeHtmlFile(
      Out, Json,
      " (the sampled profile alone: the run was sampled without a trace)",
      [&](std::ostream &OS) {
        html::writeProfileReport(Input, html::profileSection(Prof, Dir), OS);
      });
}

int cmdReport(const Options &A) {
  const std::vector<std::string> &In = A.Inputs;
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
  std::string Out = outputFile(A.Output, "report.html");
  if (A.Phase.empty() && samplesAlone(In[0]))
    return reportSamplesAlone(In[0], Out, A.Json);
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
  if (!readArchive(
          Input, In[0], R, A.NoSimulate ? nullptr : &G, &Both, Error,
          [&](std::uint64_t T) { Times.setOrigin(T); }, A.Phase,
          /*Sites=*/true))
    return fail(Error);
  Times.finish(R.runNs());
  Agg.setNames(Input.names());
  Labels L{Input, {}};
  // The tables' paths relative to the directory the constructs share, as
  // in the picture (which is given the full labels and says so itself).
  std::string Dir = picture::constructDirectory(R, L.fn());
  analysis::LabelFn Rel = picture::relativeLabels(L.fn(), Dir);
  sim::Prediction P;
  std::vector<analysis::Advice> Advice; // diagnose's, replayed
  if (!A.NoSimulate) {
    sim::Options O;
    sim::DispatchSource From;
    argsOptions(A, R, O, From, Error);
    sim::Calibration Cal = calibrateMeasured(G, R, O, From);
    P = sim::predict(G, R, Cores, O);
    P.ScheduleFrom = From;
    P.Calibrated = Cal;
    Advice = advice::advise(G, R, O, Rel, std::max(1u, R.Threads));
    G = sim::Program(); // its memory is not needed any more
  }
  html::ReportInput RI;
  RI.RelativeTo = Dir;
  RI.Advice = std::move(Advice);
  RI.Archive = In[0];
  RI.Phase = A.Phase;
  RI.R = &R;
  RI.Label = Rel;
  RI.Names = &Input.names();
  RI.Scaling = A.NoSimulate ? nullptr : &P;
  RI.Times = &Times;
  std::string GErr;
  picture::GraphPicture Pic;
  // A phase's picture is aggregated: the full graph is the whole run's.
  if (graphPicture(Input, R, Agg, L.fn(), false, !A.Phase.empty(), Pic,
                   GErr)) {
    RI.GraphSvg = std::move(Pic.Svg);
    RI.GraphFull = Pic.Full;
    RI.GraphNote = "Drawn: " + Pic.Why + ".";
  } else
    RI.GraphNote = "No picture: " + GErr + ".";
  // A run sampled too: its profile (the whole run's; none for a phase).
  if (A.Phase.empty()) {
    profile::Profile Prof;
    std::string ProfDir, ProfWhy;
    const ProfileLoad Got = loadProfile(In[0], Prof, ProfDir, ProfWhy);
    if (Got == ProfileLoad::Ok)
      RI.ProfileHtml = html::profileSection(Prof, ProfDir);
    else if (Got == ProfileLoad::Error)
      std::cerr << "otter: warning: no profile section: " << ProfWhy << "\n";
  }
  return writeHtmlFile(Out, A.Json, "",
                       [&](std::ostream &OS) { html::writeReport(RI, OS); });
}

int cmdDiff(const Options &A) {
  const std::vector<std::string> &In = A.Inputs;
  if (In.size() != 2)
    return usage("diff needs two archives, A and B");
  // Two sampled runs, one at least without a trace (an archive of samples
  // alone is none): their profiles.
  auto HasTrace = [](const std::string &X) {
    for (const char *Tail : {"", "/traces.otf2", "/trace/traces.otf2"})
      if (const std::string P = X + Tail;
          P.size() > 5 && P.compare(P.size() - 5, 5, ".otf2") == 0 &&
          access(P.c_str(), F_OK) == 0)
        return !trace::archiveHoldsSamplesOnly(P);
    return false;
  };
  if (A.Phase.empty() && hasProfiles(In) &&
      (!HasTrace(In[0]) || !HasTrace(In[1])))
    return cmdProfileDiff(A);
  std::size_t Top = A.Top;
  std::string Error;
  ArchiveInput IA, IB;
  Result RA, RB;
  bool Jobs = false;
  for (const std::string &X : In)
    if (job::Layout L; job::findJob(X, L)) {
      if (!A.Phase.empty())
        return usage(PhaseJobError);
      Jobs = true;
    }
  if (Jobs)
    return diffRuns(A);
  // Both runs restricted to the same phase; an error names the run that
  // has no such phase.
  if (!readArchive(IA, In[0], RA, nullptr, nullptr, Error, {}, A.Phase))
    return fail(A.Phase.empty() ? Error : "'" + In[0] + "': " + Error);
  if (!readArchive(IB, In[1], RB, nullptr, nullptr, Error, {}, A.Phase))
    return fail(A.Phase.empty() ? Error : "'" + In[1] + "': " + Error);
  Labels LA{IA, {}}, LB{IB, {}};
  diff::Result D = diff::compare(RA, LA.fn(), RB, LB.fn());
  diff::print(D, A.Json, std::cout, Top, In[0], In[1]);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace otter::cli
