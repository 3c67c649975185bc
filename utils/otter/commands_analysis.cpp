//===- otter/commands_analysis.cpp - summary, parallelism, diagnose, dump -===//
//
// The commands that print what the analysis (analysis.h) found: summary,
// parallelism and diagnose, on one process's archive or on an MPI job
// (report_job.h), each one streaming pass over a time-ordered read
// (input.h); and `dump`, each thread's events as recorded (dump.h).
//
//===----------------------------------------------------------------------===//
#include "command_input.h"
#include "commands.h"

#include "dump.h"
#include "phase.h"
#include "report.h"
#include "report_job.h"
#include "otter/printable.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

namespace otter::cli {

using namespace otter::analysis;

bool openInput(const std::string &Path, Input &In, std::string &Error) {
  In.Path = Path;
  if (job::Layout Layout; job::findJob(Path, Layout)) {
    In.Path = Layout.Dir;
    In.Job = std::make_unique<JobInput>();
    if (!In.Job->open(Layout, Error))
      return false;
    rankWarnings(*In.Job);
    return true;
  }
  In.Archive = std::make_unique<ArchiveInput>();
  return openArchive(*In.Archive, Path, Error);
}

bool analyse(Input &In, Observer *Obs, Result &R, std::string &Error,
             const std::string &Phase) {
  Analyzer A;
  A.setObserver(Obs);
  A.setRuntimeTeam([&In](std::uint64_t Code) {
    return In.label(Code).Function == HiddenHelperTeam;
  });
  if (In.Job)
    A.setLinks(In.Job.get());
  if (Phase.empty())
    return analyseStream(In, A, R, Error);
  PhaseRestriction P(phaseNameId(Phase, In.names()));
  PhaseSource<Input> PI{In, P, {}};
  return phaseOccurred(Phase, P, In.names(), analyseStream(PI, A, R, Error),
                       Error);
}

namespace {

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
  for (const PhaseStats &S : R.Phases) {
    Ps.push_back(std::make_unique<One>(S.Name));
    Ps.back()->A.setRecordingCost(In.recordingCostNs());
  }
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

/// Every rank's time, from the job's analysis.
JobInfo jobInfo(const JobInput &Job, const Result &R) {
  JobInfo J;
  J.Dir = Job.dir();
  const JobGraph &M = Job.matching();
  J.Match = M.Stats;
  J.Messages = M.Stats.Messages;
  J.Collectives = M.Stats.Collectives;
  J.Comm = commMatrix(M);
  J.OneSided = oneSidedMatrix(M);
  J.Untraced = untracedCalls(M);
  J.Transfers = transferTotals(M);
  for (std::uint32_t Rk = 0; Rk < Job.ranks().size(); ++Rk) {
    const JobInput::Rank &X = Job.ranks()[Rk];
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

/// summary, parallelism, diagnose: the input analysed (with --phase), then
/// Print(In, R, Labels) on stdout; Print returns an exit status.
template <class PrintFn> int printAnalysis(const Options &O, PrintFn Print) {
  if (int Rc = oneArchive(O.Inputs.size()); Rc >= 0)
    return Rc;
  Input In;
  std::string Error;
  if (!openInput(O.Inputs[0], In, Error))
    return fail(Error);
  Result R;
  if (!analyse(In, nullptr, R, Error, O.Phase))
    return fail(Error);
  Labels L{In, {}};
  if (int Rc = Print(In, R, L); Rc != 0)
    return Rc;
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace

int cmdSummary(const Options &O) {
  if (!O.By.empty() && O.By != "phase" && O.By != "construct")
    return usage("--by needs 'construct' or 'phase'");
  bool ByPhase = O.By == "phase";
  return printAnalysis(O, [&](Input &In, const Result &R, Labels &L) {
    if (In.Job && !ByPhase)
      printJobSummary(R, jobInfo(*In.Job, R), L.fn(), O.Json, std::cout,
                      O.Top, In.names());
    else
      printSummary(R, L.fn(), O.Json, std::cout, O.Top, In.names(), ByPhase);
    return 0;
  });
}

int cmdParallelism(const Options &O) {
  return printAnalysis(O, [&](Input &In, const Result &R, Labels &L) {
    if (In.Job) {
      printJobParallelism(R, jobInfo(*In.Job, R), L.fn(), O.Json, std::cout,
                          O.Top, In.names(), O.Full);
      return 0;
    }
    std::vector<PhaseParallelism> Phases;
    std::string Error;
    // The whole run's report has a row per phase; --phase NAME is one.
    if (O.Phase.empty() && !R.Phases.empty() &&
        !phaseRows(In, R, Phases, Error))
      return fail(Error);
    printParallelism(R, L.fn(), O.Json, std::cout, O.Top, In.names(), Phases,
                     O.Full);
    return 0;
  });
}

int cmdDiagnose(const Options &O) {
  // One process's archive: the findings with their advice, replayed
  // (commands_advice.cpp); an MPI job: the findings and wait states.
  if (job::Layout Layout;
      O.Inputs.size() == 1 && !job::findJob(O.Inputs[0], Layout))
    return diagnoseArchive(O.Inputs[0], O.Json, O.Phase, O.NoAdvice);
  return printAnalysis(O, [&](Input &In, const Result &R, Labels &L) {
    if (In.Job)
      printJobDiagnose(R, jobInfo(*In.Job, R), L.fn(),
                       jobMpiWaits(*In.Job, R, L.fn()), O.Json, std::cout,
                       In.names());
    else
      printDiagnose(R, L.fn(), O.Json, std::cout, In.names());
    return 0;
  });
}

namespace {

/// dump --thread N,...: the threads chosen, sorted, each once. -1: go on;
/// else the exit status of the error printed.
int chooseThreads(const Options &O, std::vector<std::uint32_t> &Threads) {
  std::vector<std::uint32_t> Chosen;
  std::stringstream SS(O.Threads);
  for (std::string T; std::getline(SS, T, ',');) {
    char *End = nullptr;
    unsigned long N = std::strtoul(T.c_str(), &End, 10);
    if (T.empty() || *End)
      return usage("--thread needs thread numbers, not '" + T + "'");
    if (std::find(Threads.begin(), Threads.end(), N) == Threads.end())
      return fail("no thread " + T + " in '" + O.Inputs[0] + "'");
    Chosen.push_back(std::uint32_t(N));
  }
  std::sort(Chosen.begin(), Chosen.end());
  Chosen.erase(std::unique(Chosen.begin(), Chosen.end()), Chosen.end());
  Threads = Chosen;
  return -1;
}

} // namespace

/// `otter dump`: the archive's events, thread by thread.
int cmdDump(const Options &O) {
  if (O.ListKinds) { // no archive needed
    dump::listKinds(std::cout);
    return 0;
  }
  dump::Options D;
  D.Time = !O.NoTime;
  D.Json = O.Json;
  std::string Error;
  if (int Rc = oneArchive(O.Inputs.size()); Rc >= 0)
    return Rc;
  if (!O.Kinds.empty() && !dump::parseKinds(O.Kinds, D, Error)) {
    std::fprintf(stderr, "otter: error: %s\n", printable(Error).c_str());
    return 2;
  }
  Input Src;
  Src.Path = O.Inputs[0];
  Src.Archive = std::make_unique<ArchiveInput>();
  ArchiveInput &In = *Src.Archive;
  if (!openArchive(In, Src.Path, Error, /*NoteFilter=*/false))
    return fail(Error);
  std::vector<std::uint32_t> Threads = In.locations();
  std::sort(Threads.begin(), Threads.end());
  if (!O.Threads.empty())
    if (int Rc = chooseThreads(O, Threads); Rc >= 0)
      return Rc;
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

} // namespace otter::cli
