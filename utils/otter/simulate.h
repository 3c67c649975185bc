//===- otter/simulate.h - Replaying a trace on P cores --------*- C++ -*-===//
//
// `otter simulate`: the measured program (sim_program.h) replayed on P
// simulated cores by a greedy list scheduler that behaves like libomp's
// (docs/utils.md, `otter simulate`): a core runs what it creates or finds
// on its own deque first (newest first), steals the oldest task of another
// core otherwise, and obeys the task scheduling constraint of tied tasks; a
// task that waits (taskwait, taskgroup, barrier, join) leaves its core to
// other work. Overheads as measured: every task started from a deque pays
// the scheduling cost, every region its fork and join times.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_SIMULATE_H
#define OTTER_UTILS_SIMULATE_H

#include "analysis.h"
#include "sim_program.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace otter::sim {

struct Options {
  double ScheduleNs = 0; // paid by every task started from a deque
  /// Paid beside it: the runtime's cost per task dispatched that the run
  /// shows and the replay does not (Calibration); 0: none.
  double ContentionNs = 0;
  /// A region's members start after its fork time, the encountering task
  /// resumes after its join time, a barrier releases its members after its
  /// release time (the least a member waited in it). Without: the fork
  /// time runs beside the members (as in the task graph) and the rest is
  /// free, so the replay on unlimited cores takes the span.
  bool Overheads = true;
  /// libomp runs a new task at once when its creator's deque holds this
  /// many (task throttling, its default deque size); 0: never.
  std::uint32_t DequeLimit = 256;
  /// On one core every task runs at once, without a scheduling cost:
  /// libomp serializes a team of one thread (its tasks are "included").
  bool SerialOneCore = true;
  /// On more than one core, a task the trace has as serialized by a team
  /// of one thread (FSerialized) is deferred: a run on more threads would
  /// have deferred it.
  bool Deserialize = true;
};

/// Where the dispatch cost (Options::ScheduleNs) came from.
enum class DispatchSource : std::uint8_t {
  Measured, // the trace's scheduling cost (analysis::schedulingCostNs)
  Given,    // --dispatch-ns
  Default,  // the trace has no deferred task: DefaultDispatchNs
  None,     // --ideal
};
/// The dispatch cost of a trace that has no deferred task to measure it
/// from (a run on one thread): as measured in a 2-thread trace on the
/// development machine (docs/utils.md, `otter simulate`).
inline constexpr double DefaultDispatchNs = 3000;
const char *dispatchSourceName(DispatchSource S);

/// The replay calibrated to the run (docs/utils.md, "Calibration"): the
/// time the replay on the traced thread count cannot place — the run's
/// time, less OTTER's own and the time the OS took away, beyond the
/// replay's — charged as the runtime's cost per task dispatched
/// (Options::ContentionNs): what libomp spends stealing and on its queues'
/// locks when tasks are fine. Only for a run of explicit tasks on more
/// than one thread with the measured (or default) dispatch cost, and only
/// when the replay places less than 95 % of the run.
struct Calibration {
  bool Applied = false;
  unsigned Threads = 0;
  std::uint64_t RunNs = 0;    // the run less OTTER's and the OS's time
  std::uint64_t ReplayNs = 0; // the replay on Threads cores, uncalibrated
  std::uint64_t CalibratedNs = 0; // and calibrated
  double ContentionNs = 0;        // per task dispatched
};
/// Calibrates O (its ContentionNs) to the run R of G, if it applies.
Calibration calibrate(const Program &G, const analysis::Result &R,
                      Options &O);
/// The calibration in one line ("" if not applied).
std::string calibrationText(const Calibration &C);

struct Run {
  unsigned Cores = 0;
  std::uint64_t MakespanNs = 0;
  std::uint64_t BusyNs = 0;     // compute + overheads, over all cores
  std::uint64_t OverheadNs = 0; // scheduling, fork and join
  std::uint64_t Dispatched = 0; // tasks started from a deque
  std::uint64_t Steals = 0;
  std::uint64_t Immediate = 0; // tasks run at once by their creator
};

/// Replays G on Cores cores.
Run simulate(const Program &G, unsigned Cores, const Options &O);

/// One row of `otter simulate`.
struct Point {
  unsigned Cores = 0;
  std::uint64_t SimulatedNs = 0; // this core count's replay
  std::uint64_t PredictedNs = 0; // the best replay on at most Cores cores
  double Speedup = 0, Efficiency = 0;
  double WorkBoundNs = 0; // work / cores
  double Seconds = 0;     // the replay's own run time
  Run R;
};

struct Prediction {
  std::vector<Point> Points;
  Calibration Calibrated;
  /// Work: the analysis' (with target offload: the host work replayed,
  /// DeviceNs apart: docs/offload.md, "Simulate").
  std::uint64_t WorkNs = 0, SpanNs = 0, DeviceNs = 0, DeviceSteps = 0;
  double BurdenedSpanNs = 0, ScheduleNs = 0;
  DispatchSource ScheduleFrom = DispatchSource::Measured;
  std::uint64_t Tasks = 0;
  std::uint64_t Serialized = 0; // tasks deferred on more than one core
  // The run itself: a measured point.
  unsigned MeasuredThreads = 0;
  std::uint64_t MeasuredNs = 0;
  double SecondsSimulating = 0;
  /// Points above this many cores say nothing of the program (0: all
  /// apply): without explicit tasks the replay can only place the traced
  /// threads' implicit tasks, so more cores than threads traced is flat by
  /// construction. Limit says why, in one line; the printers leave those
  /// points out.
  unsigned ApplyCores = 0;
  std::string Limit;
  bool applies(const Point &X) const {
    return !ApplyCores || X.Cores <= ApplyCores;
  }
};

/// Replays G for each core count (ascending), with the analysis' bounds.
Prediction predict(const Program &G, const analysis::Result &R,
                   const std::vector<unsigned> &Cores, const Options &O);

void printPrediction(const Prediction &P, bool Json, std::ostream &OS);

/// "1,2,4" or "1-256" (powers of two) into core counts; false: Error.
bool parseCores(const std::string &S, std::vector<unsigned> &Out,
                std::string &Error);

} // namespace otter::sim

#endif
