//===- otter/sim_predict.cpp - otter simulate's prediction and output ----===//
//
// The replays of simulate.cpp for each core count asked for (two at a
// time), turned into the prediction `otter simulate` prints: the best
// replay on at most P cores, speed-up, efficiency, beside the bounds
// (docs/utils.md, `otter simulate`); and the --cores parser.
//
//===----------------------------------------------------------------------===//
#include "simulate.h"

#include "report.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace otter::sim {
const char *dispatchSourceName(DispatchSource S) {
  switch (S) {
  case DispatchSource::Measured:
    return "measured";
  case DispatchSource::Given:
    return "given";
  case DispatchSource::Default:
    return "default";
  case DispatchSource::None:
    return "none";
  }
  return "?";
}

bool parseCores(const std::string &S, std::vector<unsigned> &Out,
                std::string &Error) {
  Out.clear();
  std::size_t I = 0;
  while (I <= S.size()) {
    std::size_t J = S.find(',', I);
    if (J == std::string::npos)
      J = S.size();
    std::string Item = S.substr(I, J - I);
    std::size_t Dash = Item.find('-');
    auto num = [&](const std::string &X, unsigned &V) {
      char *End = nullptr;
      unsigned long N = std::strtoul(X.c_str(), &End, 10);
      if (X.empty() || *End || N == 0 || N > 65535) {
        Error = "--cores: '" + X + "' is not a core count (1..65535)";
        return false;
      }
      V = unsigned(N);
      return true;
    };
    if (Dash != std::string::npos) {
      unsigned Lo, Hi;
      if (!num(Item.substr(0, Dash), Lo) || !num(Item.substr(Dash + 1), Hi))
        return false;
      if (Lo > Hi) {
        Error = "--cores: empty range '" + Item + "'";
        return false;
      }
      for (unsigned P = Lo; P <= Hi; P *= 2)
        Out.push_back(P);
    } else {
      unsigned V;
      if (!num(Item, V))
        return false;
      Out.push_back(V);
    }
    I = J + 1;
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return true;
}

Calibration calibrate(const Program &G, const analysis::Result &R,
                      Options &O) {
  Calibration C;
  C.Threads = R.Threads;
  if (R.Threads < 2 || !G.ExplicitTasks || !O.Overheads)
    return C;
  std::uint64_t Off = (R.ToolNs + R.DescheduledNs) / R.Threads;
  C.RunNs = R.runNs() > Off ? R.runNs() - Off : 0;
  Run First = simulate(G, R.Threads, O);
  C.ReplayNs = C.CalibratedNs = First.MakespanNs;
  if (!First.Dispatched || double(C.ReplayNs) >= 0.95 * double(C.RunNs))
    return C;
  // The makespan grows with the cost per dispatch, about by the tasks
  // dispatched per core: a few corrections reach the run within 2 %.
  double PerNs = double(First.Dispatched) / R.Threads, Extra = 0;
  std::uint64_t Got = C.ReplayNs;
  for (int I = 0; I < 8; ++I) {
    double Miss = double(C.RunNs) - double(Got);
    if (std::abs(Miss) <= 0.02 * double(C.RunNs))
      break;
    Extra = std::max(0.0, Extra + Miss / PerNs);
    O.ContentionNs = Extra;
    Run X = simulate(G, R.Threads, O);
    Got = X.MakespanNs;
    if (X.Dispatched)
      PerNs = double(X.Dispatched) / R.Threads;
  }
  C.Applied = Extra > 0;
  C.ContentionNs = O.ContentionNs = Extra;
  C.CalibratedNs = Got;
  return C;
}

std::string calibrationText(const Calibration &C) {
  if (!C.Applied)
    return "";
  using analysis::fmtNs;
  return "the replay on the traced " + std::to_string(C.Threads) +
         " threads placed " + fmtNs(double(C.ReplayNs)) + " of the run's " +
         fmtNs(double(C.RunNs)) +
         " (less OTTER's own time and the time the OS took away): the rest "
         "is charged as the runtime's cost per task dispatched, " +
         fmtNs(C.ContentionNs) +
         " (stealing, queue locks: fine tasks), in every replay on more "
         "than one core";
}

Prediction predict(const Program &G, const analysis::Result &R,
                   const std::vector<unsigned> &Cores, const Options &O) {
  Prediction P;
  P.WorkNs = R.WorkNs;
  P.SpanNs = R.SpanNs;
  if (G.DeviceSteps) {
    // Offload: the analyses' work holds the target regions, the kernels'
    // threads and libomp's hidden helper team; the host's is replayed.
    P.WorkNs = G.ComputeNs;
    P.DeviceNs = G.DeviceNs;
    P.DeviceSteps = G.DeviceSteps;
  }
  P.BurdenedSpanNs = R.burdenedSpanNs();
  P.ScheduleNs = O.ScheduleNs;
  P.Tasks = G.ExplicitTasks;
  P.Serialized = O.Deserialize ? G.SerializedTasks : 0;
  P.MeasuredThreads = R.Threads;
  P.MeasuredNs = R.runNs();
  if (G.ExplicitTasks == 0) {
    P.ApplyCores = std::max(1u, R.Threads);
    P.Limit = "no explicit tasks: the replay can only place the " +
              std::to_string(P.ApplyCores) +
              " traced thread(s)' implicit tasks, so it cannot predict more "
              "cores than that; a parallel loop's iterations are split "
              "among the threads it runs on: trace with more threads "
              "(OMP_NUM_THREADS) to see how it scales";
  }
  auto T0 = std::chrono::steady_clock::now();
  // The replays are independent: two at a time (a replay's state is 28
  // bytes per task; the program is shared, read only).
  std::vector<Point> Pts(Cores.size());
  std::atomic<std::size_t> Next{0};
  auto worker = [&] {
    for (std::size_t I; (I = Next++) < Cores.size();) {
      Point &X = Pts[I];
      X.Cores = Cores[I];
      auto T1 = std::chrono::steady_clock::now();
      X.R = simulate(G, Cores[I], O);
      X.Seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - T1)
              .count();
      X.SimulatedNs = X.R.MakespanNs;
      X.WorkBoundNs = double(P.WorkNs) / Cores[I];
    }
  };
  unsigned Threads =
      std::min<unsigned>(2, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> Pool;
  for (unsigned I = 1; I < Threads && I < Cores.size(); ++I)
    Pool.emplace_back(worker);
  worker();
  for (std::thread &T : Pool)
    T.join();
  std::uint64_t Best = ~0ull, One = 0;
  for (Point &X : Pts) {
    // A machine with more cores can always leave some idle: the best replay
    // on at most C cores (a greedy schedule can lose with more cores).
    Best = std::min(Best, X.SimulatedNs);
    X.PredictedNs = Best;
    if (P.Points.empty())
      One = X.Cores == 1 ? X.PredictedNs : 0;
    P.Points.push_back(X);
  }
  // Speed-up over the replay on one core (simulated when not asked for).
  if (!One && !Cores.empty())
    One = simulate(G, 1, O).MakespanNs;
  for (Point &X : P.Points) {
    X.Speedup = X.PredictedNs ? double(One) / double(X.PredictedNs) : 0;
    X.Efficiency = X.Speedup / X.Cores;
  }
  P.SecondsSimulating =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  return P;
}

void printPrediction(const Prediction &P, bool Json, std::ostream &OS) {
  using analysis::fmtNs;
  char B[512];
  if (Json) {
    OS << "{\"work_ns\":" << P.WorkNs << ",\"span_ns\":" << P.SpanNs
       << ",\"device_ns\":" << P.DeviceNs
       << ",\"target_regions\":" << P.DeviceSteps;
    std::snprintf(B, sizeof B,
                  ",\"burdened_span_ns\":%.0f,\"scheduling_cost_ns\":%.0f,"
                  "\"scheduling_cost_source\":\"%s\",\"tasks\":%" PRIu64
                  ",\"serialized_tasks\":%" PRIu64 ",\"measured\":{"
                  "\"threads\":%u,\"run_ns\":%" PRIu64 "},",
                  P.BurdenedSpanNs, P.ScheduleNs,
                  dispatchSourceName(P.ScheduleFrom), P.Tasks, P.Serialized,
                  P.MeasuredThreads, P.MeasuredNs);
    OS << B;
    const Calibration &C = P.Calibrated;
    std::snprintf(B, sizeof B,
                  "\"contention_ns\":%.0f,\"calibration\":{\"applied\":%s,"
                  "\"run_ns\":%" PRIu64 ",\"replay_ns\":%" PRIu64
                  ",\"calibrated_ns\":%" PRIu64 "},",
                  C.ContentionNs, C.Applied ? "true" : "false", C.RunNs,
                  C.ReplayNs, C.CalibratedNs);
    OS << B;
    // Every point is listed; those above applies_up_to_cores say nothing
    // of the program (why: limit).
    OS << "\"applies_up_to_cores\":" << P.ApplyCores
       << ",\"limit\":" << analysis::jsonString(P.Limit) << ",\"points\":[";
    for (std::size_t I = 0; I < P.Points.size(); ++I) {
      const Point &X = P.Points[I];
      std::snprintf(
          B, sizeof B,
          "%s{\"cores\":%u,\"predicted_ns\":%" PRIu64
          ",\"simulated_ns\":%" PRIu64 ",\"speedup\":%.4f,"
          "\"efficiency\":%.4f,\"work_bound_ns\":%.0f,\"lower_bound_ns\":%.0f,"
          "\"overhead_ns\":%" PRIu64 ",\"steals\":%" PRIu64
          ",\"immediate\":%" PRIu64 ",\"seconds\":%.3f}",
          I ? "," : "", X.Cores, X.PredictedNs, X.SimulatedNs, X.Speedup,
          X.Efficiency, X.WorkBoundNs,
          std::max(X.WorkBoundNs, double(P.SpanNs)), X.R.OverheadNs, X.R.Steals,
          X.R.Immediate, X.Seconds);
      OS << B;
    }
    OS << "]}\n";
    return;
  }
  OS << "work            " << fmtNs(double(P.WorkNs))
     << (P.DeviceSteps ? " on the host" : "") << "\n";
  if (P.DeviceSteps)
    OS << "device          " << fmtNs(double(P.DeviceNs)) << " in "
       << P.DeviceSteps
       << " target region(s), each replayed on its device for its "
          "measured time\n";
  OS << "span            " << fmtNs(double(P.SpanNs)) << "\n";
  OS << "burdened span   " << fmtNs(P.BurdenedSpanNs) << "\n";
  if (P.Tasks == 0)
    OS << "scheduling cost not used (no explicit tasks)";
  else
    OS << "scheduling cost " << fmtNs(P.ScheduleNs) << " per task ("
       << P.Tasks << " tasks)";
  switch (P.Tasks ? P.ScheduleFrom : DispatchSource::Measured) {
  case DispatchSource::Measured:
    if (P.Tasks)
      OS << ", " << analysis::schedulingCostDefinition();
    break;
  case DispatchSource::Given:
    OS << ", as given (--dispatch-ns)";
    break;
  case DispatchSource::Default:
    OS << ", the default: no task of this trace was deferred to measure "
          "it (--dispatch-ns)";
    break;
  case DispatchSource::None:
    OS << ", none (--ideal)";
    break;
  }
  OS << "\n";
  if (P.Calibrated.Applied)
    OS << "contention      " << fmtNs(P.Calibrated.ContentionNs)
       << " per task dispatched: " << calibrationText(P.Calibrated) << "\n";
  if (P.Serialized)
    OS << "serialized      " << P.Serialized
       << " tasks ran at once only because their team had one thread: "
          "deferred on more cores\n";
  OS << "measured        " << fmtNs(double(P.MeasuredNs)) << " on "
     << P.MeasuredThreads << " thread(s)\n\n";
  std::snprintf(B, sizeof B, "%6s %12s %8s %10s %12s %12s %12s\n", "cores",
                "predicted", "speedup", "efficiency", "work/P", "span",
                "burdened");
  OS << B;
  for (const Point &X : P.Points) {
    if (!P.applies(X))
      continue;
    std::snprintf(B, sizeof B, "%6u %12s %8.2f %9.1f%% %12s %12s %12s%s\n",
                  X.Cores, fmtNs(double(X.PredictedNs)).c_str(), X.Speedup,
                  100 * X.Efficiency, fmtNs(X.WorkBoundNs).c_str(),
                  fmtNs(double(P.SpanNs)).c_str(),
                  fmtNs(P.BurdenedSpanNs).c_str(),
                  X.SimulatedNs > X.PredictedNs ? "  *" : "");
    OS << B;
  }
  if (!P.Limit.empty())
    OS << "not predicted beyond " << P.ApplyCores << " core(s): " << P.Limit
       << "\n";
  bool Star = false;
  for (const Point &X : P.Points)
    Star |= P.applies(X) && X.SimulatedNs > X.PredictedNs;
  if (Star)
    OS << "* the replay on this many cores took longer than on fewer: the "
          "prediction is the best on at most this many\n";
}

} // namespace otter::sim
