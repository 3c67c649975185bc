//===- otter/commands_job.cpp - simulate and report on an MPI job --------===//
//
// `otter simulate DIR` and `otter report DIR` on an MPI job's directory (or
// its merged archive): what a user asks of a job is "how fast would the
// job go with P threads per rank", and the answer is the job's, with each
// rank's beside it (docs/utils.md, "An MPI job").
//
// The replay is per rank: each rank's own archive (rank-<N>/trace) is
// replayed on P cores as a program of its own (sim_program.h), its MPI
// calls taking the time they took in the trace (the recorder charges a
// call to the calling task like its execution: the other ranks are taken
// to keep their pace), and the job's prediction on P cores per rank is
// its slowest rank's. Why not one replay of the whole job with its
// messages: a message's time on the wire and a receive's wait are not in
// the trace apart from each other (a receive that waited shows the
// sender's lateness and the transfer as one), so a replay that moved the
// sends would have to invent the network; ranks that wait for each other
// in the trace keep that wait in their MPI time here, which is right as
// long as the ranks scale alike (the load imbalance section shows when
// they do not).
//
// The report is the job's analysis (job.h: every rank's events as one
// program, the critical path across ranks), a section per rank, and the
// scalability of the per-rank replays.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "analysis.h"
#include "command_input.h"
#include "diff.h"
#include "export.h"
#include "html_report.h"
#include "input.h"
#include "job.h"
#include "mpi_waits.h"
#include "path_profile.h"
#include "picture.h"
#include "report.h"
#include "report_job.h"
#include "sim_program.h"
#include "simulate.h"
#include "stream.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace otter::cli {

namespace {

using namespace otter::analysis;

struct RankPrediction {
  std::uint32_t Rank = 0;
  bool Read = false;
  sim::Prediction P;
};

/// Every rank replayed on Cores, and the job's prediction: per core count
/// the slowest rank (Slowest[i]). Bounds: the largest rank's work/P, span
/// and burdened span (each rank has P cores of its own). Measured: the
/// longest rank's run, on its threads. False: no rank could be read.
struct JobPrediction {
  std::vector<RankPrediction> Ranks;
  sim::Prediction Job;
  std::vector<std::uint32_t> Slowest;
};

bool predictJob(const job::Layout &L, const std::vector<unsigned> &Cores,
                bool Ideal, const std::string &DispatchNs, JobPrediction &Out,
                std::string &Error) {
  for (std::uint32_t Rk = 0; Rk < L.RankDirs.size(); ++Rk) {
    RankPrediction X;
    X.Rank = Rk;
    std::string Err;
    if (L.RankDirs[Rk].empty()) {
      std::fprintf(stderr, "otter: warning: rank %u is missing: no rank-%u/\n",
                   Rk, Rk);
      Out.Ranks.push_back(std::move(X));
      continue;
    }
    ArchiveInput In;
    Result R;
    sim::Program G;
    if (!readArchive(In, L.RankDirs[Rk], R, &G, nullptr, Err)) {
      std::fprintf(stderr, "otter: warning: rank %u is missing: %s\n", Rk,
                   Err.c_str());
      Out.Ranks.push_back(std::move(X));
      continue;
    }
    sim::Options O;
    sim::DispatchSource From;
    if (!simOptions(Ideal, DispatchNs, R, O, From, Error))
      return false;
    sim::Calibration Cal = calibrateMeasured(G, R, O, From);
    X.P = sim::predict(G, R, Cores, O);
    X.P.ScheduleFrom = From;
    X.P.Calibrated = Cal;
    X.Read = true;
    Out.Ranks.push_back(std::move(X));
  }
  sim::Prediction &J = Out.Job;
  double One = 0;
  bool Any = false;
  for (const RankPrediction &X : Out.Ranks) {
    if (!X.Read || X.P.Points.empty())
      continue;
    Any = true;
    J.WorkNs = std::max(J.WorkNs, X.P.WorkNs);
    J.SpanNs = std::max(J.SpanNs, X.P.SpanNs);
    J.BurdenedSpanNs = std::max(J.BurdenedSpanNs, X.P.BurdenedSpanNs);
    J.Tasks += X.P.Tasks;
    J.Serialized += X.P.Serialized;
    J.SecondsSimulating += X.P.SecondsSimulating;
    if (X.P.MeasuredNs > J.MeasuredNs) {
      J.MeasuredNs = X.P.MeasuredNs;
      J.MeasuredThreads = X.P.MeasuredThreads;
    }
    const sim::Point &F = X.P.Points.front();
    One = std::max(One, F.Speedup * double(F.PredictedNs));
  }
  if (!Any) {
    Error = "no rank of the job '" + L.Dir + "' could be read";
    return false;
  }
  for (std::size_t I = 0; I < Cores.size(); ++I) {
    sim::Point P;
    P.Cores = Cores[I];
    std::uint32_t Slow = 0;
    for (const RankPrediction &X : Out.Ranks) {
      if (!X.Read)
        continue;
      const sim::Point &Y = X.P.Points[I];
      if (Y.PredictedNs >= P.PredictedNs) {
        P.PredictedNs = Y.PredictedNs;
        Slow = X.Rank;
      }
      P.SimulatedNs = std::max(P.SimulatedNs, Y.SimulatedNs);
      P.WorkBoundNs = std::max(P.WorkBoundNs, Y.WorkBoundNs);
      P.Seconds += Y.Seconds;
    }
    P.Speedup = P.PredictedNs ? One / double(P.PredictedNs) : 0;
    P.Efficiency = P.Speedup / P.Cores;
    J.Points.push_back(P);
    Out.Slowest.push_back(Slow);
  }
  return true;
}

void printJobPrediction(const job::Layout &L, const JobPrediction &JP,
                        bool Json, std::ostream &OS) {
  const sim::Prediction &J = JP.Job;
  char B[512];
  if (Json) {
    OS << "{\"job\":{\"dir\":" << jsonString(L.Dir)
       << ",\"ranks\":" << JP.Ranks.size() << "}";
    std::snprintf(B, sizeof B,
                  ",\"work_ns\":%" PRIu64 ",\"span_ns\":%" PRIu64
                  ",\"burdened_span_ns\":%.0f,\"tasks\":%" PRIu64
                  ",\"measured\":{\"threads\":%u,\"run_ns\":%" PRIu64
                  "},\"points\":[",
                  J.WorkNs, J.SpanNs, J.BurdenedSpanNs, J.Tasks,
                  J.MeasuredThreads, J.MeasuredNs);
    OS << B;
    for (std::size_t I = 0; I < J.Points.size(); ++I) {
      const sim::Point &X = J.Points[I];
      std::snprintf(B, sizeof B,
                    "%s{\"cores\":%u,\"predicted_ns\":%" PRIu64
                    ",\"simulated_ns\":%" PRIu64
                    ",\"speedup\":%.4f,\"efficiency\":%.4f,"
                    "\"work_bound_ns\":%.0f,\"slowest_rank\":%u}",
                    I ? "," : "", X.Cores, X.PredictedNs, X.SimulatedNs,
                    X.Speedup, X.Efficiency, X.WorkBoundNs, JP.Slowest[I]);
      OS << B;
    }
    OS << "],\"ranks\":[";
    bool First = true;
    for (const RankPrediction &X : JP.Ranks) {
      if (!X.Read)
        continue;
      std::ostringstream R;
      sim::printPrediction(X.P, true, R);
      std::string S = R.str();
      while (!S.empty() && S.back() == '\n')
        S.pop_back();
      // {"rank":N, then the rank's own object's members.
      OS << (First ? "" : ",") << "{\"rank\":" << X.Rank << "," << S.substr(1);
      First = false;
    }
    OS << "]}\n";
    return;
  }
  std::size_t Read = 0;
  for (const RankPrediction &X : JP.Ranks)
    Read += X.Read;
  OS << "job " << L.Dir << ": " << JP.Ranks.size() << " ranks";
  if (Read < JP.Ranks.size())
    OS << " (" << Read << " read)";
  OS << ", each replayed alone on P cores; its MPI calls take the time "
        "they took\n\n";
  for (const RankPrediction &X : JP.Ranks) {
    if (!X.Read)
      continue;
    OS << "rank " << X.Rank << "\n";
    sim::printPrediction(X.P, false, OS);
    OS << "\n";
  }
  OS << "job: the slowest rank on P cores per rank\n";
  OS << "measured        " << fmtNs(double(J.MeasuredNs))
     << " (the longest rank, on " << J.MeasuredThreads << " thread(s))\n\n";
  std::snprintf(B, sizeof B, "%6s %12s %8s %10s %8s %12s\n", "cores",
                "predicted", "speedup", "efficiency", "slowest", "work/P");
  OS << B;
  for (std::size_t I = 0; I < J.Points.size(); ++I) {
    const sim::Point &X = J.Points[I];
    std::snprintf(B, sizeof B, "%6u %12s %8.2f %9.1f%% %8s %12s\n", X.Cores,
                  fmtNs(double(X.PredictedNs)).c_str(), X.Speedup,
                  100 * X.Efficiency,
                  ("rank " + std::to_string(JP.Slowest[I])).c_str(),
                  fmtNs(X.WorkBoundNs).c_str());
    OS << B;
  }
}

/// The job as analyseStream's source (command_input.h's Input does the
/// same for every analysing command).
struct JobSource {
  JobInput &Job;
  std::string Path;
  bool streamOrdered(const ArchiveInput::EventFn &Fn, std::string &Error) {
    return Job.streamOrdered(Fn, Error);
  }
  SourceLabel label(std::uint64_t Code) const { return Job.label(Code); }
  const std::string &path() const { return Path; }
  std::uint64_t recordingCostNs() const { return Job.recordingCostNs(); }
};

/// A matrix as a heat map table: a cell per (from, to) rank, its colour the
/// bytes relative to the largest cell; up to 64 ranks (beyond: the 64 pairs
/// that moved most, as a list). \p Unit names what a cell counts besides
/// bytes.
void matrixTableHtml(std::ostringstream &OS, const std::vector<CommCell> &Cells,
                     std::uint32_t Ranks, const char *Id, const char *Unit) {
  std::uint64_t Max = 1;
  for (const CommCell &C : Cells)
    Max = std::max(Max, C.Bytes);
  auto cell = [&](const CommCell &C) {
    char B[64];
    std::snprintf(B, sizeof B, "rgba(214,96,77,%.2f)",
                  0.1 + 0.8 * double(C.Bytes) / double(Max));
    OS << "<td class=\"n\" data-bytes=\"" << C.Bytes << "\" data-" << Unit
       << "=\"" << C.Messages << "\" style=\"background:" << B
       << "\" title=\"rank " << C.From << " to rank " << C.To << ": " << C.Bytes
       << " bytes, " << C.Messages << " " << Unit << "\">" << C.Bytes
       << "<br><span class=\"muted\">" << C.Messages << "</span></td>";
  };
  if (Ranks <= 64) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, const CommCell *> At;
    for (const CommCell &C : Cells)
      At[{C.From, C.To}] = &C;
    OS << "<table id=\"" << Id << "\"><thead><tr><th>from \\ to</th>";
    for (std::uint32_t T = 0; T < Ranks; ++T)
      OS << "<th class=\"n\">" << T << "</th>";
    OS << "</tr></thead><tbody>\n";
    for (std::uint32_t F = 0; F < Ranks; ++F) {
      OS << "<tr><th class=\"n\">" << F << "</th>";
      for (std::uint32_t T = 0; T < Ranks; ++T) {
        auto It = At.find({F, T});
        if (It == At.end())
          OS << "<td></td>";
        else
          cell(*It->second);
      }
      OS << "</tr>\n";
    }
    OS << "</tbody></table>";
    return;
  }
  std::vector<const CommCell *> Order;
  for (const CommCell &C : Cells)
    Order.push_back(&C);
  std::stable_sort(
      Order.begin(), Order.end(),
      [](const CommCell *A, const CommCell *B) { return A->Bytes > B->Bytes; });
  OS << "<table id=\"" << Id
     << "\"><thead><tr><th>from</th><th>to</th><th "
        "class=\"n\">bytes, "
     << Unit << "</th></tr></thead><tbody>\n";
  for (std::size_t I = 0; I < Order.size() && I < 64; ++I) {
    OS << "<tr><td>" << Order[I]->From << "</td><td>" << Order[I]->To
       << "</td>";
    cell(*Order[I]);
    OS << "</tr>\n";
  }
  OS << "</tbody></table>";
}

/// The report's communication matrices: the matched point-to-point
/// messages and, when the job used one-sided communication, its operations
/// (report_job.h, oneSidedMatrix).
std::string commMatrixHtml(const std::vector<CommCell> &Cells,
                           const std::vector<CommCell> &OneSided,
                           std::uint32_t Ranks) {
  std::ostringstream OS;
  OS << "<section id=\"comm-matrix\"><h2>Communication matrix</h2>";
  if (Cells.empty())
    OS << "<div class=\"muted\">no point-to-point message matched</div>";
  else {
    matrixTableHtml(OS, Cells, Ranks, "comm", "messages");
    OS << "<div class=\"muted\">Point-to-point messages matched "
          "(collectives not included): a cell is what the row's rank sent to "
          "the column's, bytes above, messages below; the darker, the more "
          "bytes.</div>";
  }
  if (!OneSided.empty()) {
    OS << "<h3>One-sided</h3>";
    matrixTableHtml(OS, OneSided, Ranks, "comm-one-sided", "operations");
    OS << "<div class=\"muted\">One-sided operations (MPI_Put, MPI_Get, the "
          "accumulates, ...): a cell is the bytes that left the row's rank's "
          "memory for the column's (MPI_Get: target to origin, the others: "
          "origin to target), bytes above, operations below.</div>";
  }
  OS << "</section>\n";
  return OS.str();
}

/// The report's section on the ranks: each rank's threads, busy, MPI and
/// other waiting time and run time (as `otter summary DIR`), and its
/// predicted time per core count.
std::string ranksHtml(const JobInput &Job, const Result &R,
                      const JobPrediction *JP) {
  using picture::xmlEscape;
  std::ostringstream OS;
  OS << "<section id=\"ranks\"><h2>MPI ranks</h2><table class=\"sort\">"
        "<thead><tr><th class=\"n\">rank</th><th class=\"n\">threads</th>"
        "<th class=\"n\">busy</th><th class=\"n\">MPI</th><th class=\"n\">"
        "other waiting</th><th class=\"n\">run</th>";
  if (JP)
    for (const sim::Point &X : JP->Job.Points)
      OS << "<th class=\"n\">" << X.Cores << (X.Cores == 1 ? " core" : " cores")
         << "</th>";
  OS << "</tr></thead><tbody>\n";
  for (std::uint32_t Rk = 0; Rk < Job.ranks().size(); ++Rk) {
    const JobInput::Rank &X = Job.ranks()[Rk];
    OS << "<tr class=\"rank\" id=\"rank-" << Rk << "\"><td class=\"n\">" << Rk
       << (X.Read && !X.Complete ? " (cut off)" : "") << "</td>";
    if (!X.Read) {
      OS << "<td colspan=\"5\">missing: " << xmlEscape(X.Error)
         << "</td></tr>\n";
      continue;
    }
    std::uint64_t Busy = 0, Mpi = 0, Wait = 0, First = ~0ull, Last = 0;
    for (std::uint32_t Th = X.ThreadBase;
         Th < X.ThreadBase + X.Threads && Th < R.PerThread.size(); ++Th) {
      const ThreadTime &P = R.PerThread[Th];
      if (!P.Seen)
        continue;
      Busy += P.BusyNs;
      Mpi += P.MpiNs;
      Wait += P.WaitNs;
      First = std::min(First, P.First);
      Last = std::max(Last, P.Last);
    }
    auto cell = [&](double Ns) {
      OS << "<td class=\"n\" data-v=\"" << std::uint64_t(Ns) << "\">"
         << xmlEscape(fmtNs(Ns)) << "</td>";
    };
    OS << "<td class=\"n\">" << X.Threads << "</td>";
    cell(double(Busy));
    cell(double(Mpi));
    cell(double(Wait - std::min(Wait, Mpi))); // WaitNs holds the MPI time
    cell(Last > First ? double(Last - First) : 0);
    if (JP) {
      const RankPrediction *RP = nullptr;
      for (const RankPrediction &Y : JP->Ranks)
        if (Y.Rank == Rk && Y.Read)
          RP = &Y;
      for (std::size_t I = 0; I < JP->Job.Points.size(); ++I) {
        if (RP)
          OS << "<td class=\"n\" data-ns=\"" << RP->P.Points[I].PredictedNs
             << "\">" << xmlEscape(fmtNs(double(RP->P.Points[I].PredictedNs)))
             << "</td>";
        else
          OS << "<td></td>";
      }
    }
    OS << "</tr>\n";
  }
  const JobGraph &M = Job.matching();
  OS << "</tbody></table><div class=\"muted\">" << Job.ranks().size()
     << " ranks; " << M.Stats.Messages << " messages and "
     << M.Stats.Collectives
     << " collectives matched. The rest of this report is the job as one "
        "program (every rank's events, docs/utils.md \"An MPI job\"); "
        "predicted: each rank replayed alone on P cores, its MPI calls "
        "taking the time they took.</div>";
  std::ostringstream Untraced;
  untracedLine(untracedCalls(M), Untraced);
  if (!Untraced.str().empty())
    OS << "<div class=\"muted\">" << xmlEscape(Untraced.str()) << "</div>";
  if (std::vector<TransferTotal> T = transferTotals(M); !T.empty()) {
    OS << "<h3>One-sided, file I/O and neighbourhood bytes</h3><table "
          "class=\"sort\">"
          "<thead><tr><th>function</th><th>calls</th><th>bytes</th></tr>"
          "</thead><tbody>";
    for (const TransferTotal &X : T)
      OS << "<tr><td>" << mpi::functionName(X.Function)
         << "</td><td class=\"n\">" << X.Calls << "</td><td class=\"n\">"
         << X.Bytes << "</td></tr>";
    OS << "</tbody></table><div class=\"muted\">bytes: the origin buffer's "
          "(one-sided operations), the file access's or, to every "
          "neighbour, the send buffer's (neighbourhood collectives) count "
          "times its datatype's size, summed over the ranks' calls</div>";
  }
  OS << "</section>\n";
  OS << commMatrixHtml(commMatrix(M), oneSidedMatrix(M),
                       std::uint32_t(Job.ranks().size()));
  return OS.str();
}

} // namespace

void rankWarnings(const JobInput &Job) {
  for (std::uint32_t Rk = 0; Rk < Job.ranks().size(); ++Rk) {
    const JobInput::Rank &X = Job.ranks()[Rk];
    if (!X.Read)
      std::fprintf(stderr, "otter: warning: rank %u is missing: %s\n", Rk,
                   X.Error.c_str());
    else if (!X.Complete)
      std::fprintf(stderr,
                   "otter: warning: rank %u's trace was not closed (the rank "
                   "was killed?): what follows covers the events each of its "
                   "threads had written\n",
                   Rk);
  }
  for (const std::string &W : Job.matching().Warnings)
    std::fprintf(stderr, "otter: warning: %s\n", W.c_str());
  const job::ClockCondition &C = Job.clockCondition();
  if (C.Corrected) {
    std::string Ranks;
    for (std::uint32_t R : C.Ranks)
      Ranks += (Ranks.empty() ? "" : ", ") + std::to_string(R);
    std::fprintf(stderr,
                 "otter: warning: %zu of %llu messages were received before "
                 "they were sent by the ranks' clocks: moved by a controlled "
                 "logical clock (the times of rank(s) %s, by at most %.3f "
                 "us)\n",
                 C.Corrected,
                 static_cast<unsigned long long>(Job.matching().Stats.Messages),
                 Ranks.c_str(), double(C.MaxMoveNs) / 1000.0);
  }
}

std::vector<Finding> jobMpiWaits(const JobInput &Job, const Result &R,
                                 const LabelFn &Label) {
  return mpiWaitFindings(
      Job.matching(),
      [&Job](std::uint32_t Rank, std::uint64_t T) {
        return Rank < Job.ranks().size() ? Job.ranks()[Rank].toJobTime(T) : T;
      },
      Label, double(R.runNs()) * std::max<std::uint32_t>(R.Threads, 1));
}

int simulateJob(const job::Layout &L, const std::vector<unsigned> &Cores,
                bool Ideal, const std::string &DispatchNs, bool Json,
                const std::string &Svg) {
  JobPrediction JP;
  std::string Error;
  if (!predictJob(L, Cores, Ideal, DispatchNs, JP, Error))
    return fail(Error);
  if (!Svg.empty() &&
      !writeOutputText(Svg, picture::scalabilitySvg(JP.Job), Error))
    return fail(Error);
  printJobPrediction(L, JP, Json, std::cout);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

int reportJob(const job::Layout &L, const std::string &Arg,
              const std::vector<unsigned> &Cores, bool NoSimulate,
              std::uint64_t WindowFrom, std::uint64_t WindowTo,
              const std::string &Out, bool Json) {
  JobInput Job;
  std::string Error;
  if (!Job.open(L, Error))
    return fail(Error);
  rankWarnings(Job);
  html::Timeline Times(WindowFrom, WindowTo, 1000);
  {
    std::vector<std::uint32_t> Rank, Local;
    Job.threadPlaces(Rank, Local);
    Times.setRanks(std::move(Rank), std::move(Local));
  }
  AggregateGraph Agg;
  TeeObserver Tee(Agg, Times);
  Analyzer A;
  A.setObserver(&Tee);
  A.setLinks(&Job);
  A.setRuntimeTeam([&Job](std::uint64_t Code) {
    return Job.label(Code).Function == HiddenHelperTeam;
  });
  Result R;
  bool First = true;
  JobSource Src{Job, L.Dir};
  if (!analyseStream(Src, A, R, Error,
                     [&](std::uint32_t, const Event *E, std::size_t K) {
                       if (First && K)
                         Times.setOrigin(E[0].Time);
                       First = First && !K;
                     }))
    return fail(Error);
  Times.finish(R.runNs());
  LabelCache<JobSource> Labels{Src, {}};
  JobPrediction JP;
  if (!NoSimulate && !predictJob(L, Cores, false, "", JP, Error))
    return fail(Error);
  html::ReportInput RI;
  RI.Archive = Arg;
  RI.R = &R;
  // The tables' paths relative to the directory the constructs share, as
  // in the picture (given the full labels: it says so itself).
  RI.RelativeTo = picture::constructDirectory(R, Labels.fn());
  RI.Label = picture::relativeLabels(Labels.fn(), RI.RelativeTo);
  RI.Names = &Job.names();
  RI.Scaling = NoSimulate ? nullptr : &JP.Job;
  RI.ScalingNote =
      "Each rank's tasks replayed alone on P cores by a work-first scheduler "
      "with the overheads measured, its MPI calls taking the time they "
      "took; the job's time is its slowest rank's (otter simulate; "
      "docs/utils.md, \"An MPI job\").";
  RI.Times = &Times;
  RI.JobHtml = ranksHtml(Job, R, NoSimulate ? nullptr : &JP);
  {
    // The critical path's profile (path_profile.h), after the ranks.
    std::vector<std::uint32_t> RankThreads;
    for (const JobInput::Rank &X : Job.ranks())
      RankThreads.push_back(X.Read ? std::max<std::uint32_t>(X.Threads, 1) : 0);
    RI.JobHtml += pathProfileHtml(jobPathProfile(R, RankThreads, RI.Label));
  }
  RI.MpiFindings = jobMpiWaits(Job, R, RI.Label);
  // The aggregated graph: a job's full graph is otter-graph's (the job's
  // graph, with its messages), not one picture of every task.
  std::string GErr;
  if (picture::renderDot(picture::aggregateDot(Agg, R, Labels.fn()), RI.GraphSvg,
                         GErr))
    RI.GraphNote = "One node per source construct of every rank: instances, "
                   "total time (shaded by its share of the run), edges with "
                   "counts; red: the critical path's constructs and steps.";
  else
    RI.GraphNote = "No picture: " + GErr + ".";
  return writeHtmlFile(Out, Json, "",
                       [&](std::ostream &OS) { html::writeReport(RI, OS); });
}

int pictureJob(const Options &O) {
  if (O.Full)
    return usage("--full: the full graph of an MPI job is the job's graph "
                 "with its messages, which otter-graph writes (otter-graph "
                 "JOB -o DIR; dot -Tsvg DIR/job/graph.gv)");
  std::string Out = outputFile(O.Output, "graph.svg");
  std::string Error;
  Input In;
  if (!openInput(O.Inputs[0], In, Error))
    return fail(Error);
  AggregateGraph Agg;
  Agg.setNames(In.names()); // its nodes name their tasks' labels
  Result R;
  if (!analyse(In, &Agg, R, Error))
    return fail(Error);
  Labels L{In, {}};
  picture::GraphPicture Pic;
  auto NoFull = [](Graph &, std::string &Err) {
    Err = "an MPI job's full graph is otter-graph's";
    return false;
  };
  if (!picture::drawGraph(NoFull, R, Agg, L.fn(), picture::GraphMode::Aggregate,
                          Pic, Error))
    return fail(Error);
  Pic.Why = "an MPI job: one node per source construct of every rank (the "
            "job's full graph, with its messages: otter-graph JOB)";
  if (!writeOutputText(Out, Pic.Svg, Error))
    return fail(Error);
  if (O.Json)
    std::cout << "{\"written\":[" << jsonString(Out)
              << "],\"graph\":\"aggregate\",\"why\":" << jsonString(Pic.Why)
              << "}\n";
  else
    std::cout << "wrote " << Out << " (aggregated graph): " << Pic.Why << "\n";
  return 0;
}

int diffRuns(const Options &O) {
  Input In[2];
  Result R[2];
  for (int I = 0; I < 2; ++I) {
    std::string Error;
    if (!openInput(O.Inputs[I], In[I], Error) ||
        !analyse(In[I], nullptr, R[I], Error))
      return fail("'" + O.Inputs[I] + "': " + Error);
  }
  Labels LA{In[0], {}}, LB{In[1], {}};
  diff::Result D = diff::compare(R[0], LA.fn(), R[1], LB.fn());
  diff::print(D, O.Json, std::cout, O.Top, O.Inputs[0], O.Inputs[1]);
  std::cout.flush();
  if (!std::cout)
    return fail("error writing the report");
  return 0;
}

} // namespace otter::cli
