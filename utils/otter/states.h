//===- otter/states.h - The state timeline's vocabulary ---------*- C++ -*-===//
//
// OTTER's one time model (docs/utils.md, "The state timeline"): every
// nanosecond of a thread, from its first event to its last, is in exactly
// one state, in one interval of its timeline. The streaming analysis
// (analysis.h) decides the state of each interval between a thread's
// events as it charges that time (to a task's execution, to a wait, to
// nobody), and reports the intervals to its observer; every view's times
// (summary's waiting per construct, parallelism's work, the report's
// timeline, `export --format states`) come from that one decision.
//
// This header holds only the vocabulary (no dependency on the analysis):
// the states and what an interval says.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_STATES_H
#define OTTER_UTILS_STATES_H

#include "graph/rules.h"

#include <cstdint>

namespace otter::analysis {

/// What a thread does in an interval.
enum class ThreadState : std::uint8_t {
  /// A task's own code (explicit, implicit or initial task): its execution
  /// time. The runtime's work of creating and dispatching tasks is in here
  /// too (the events do not tell it apart; see Scheduling).
  Running,
  /// A task waits in a construct: taskwait, taskgroup, barrier (explicit or
  /// implicit), lock/critical/ordered acquisition, an MPI call. Time the
  /// runtime spends there looking for tasks to run is waiting too.
  Waiting,
  /// The runtime creating or dispatching tasks. Defined, never produced:
  /// OMPT reports no event between the runtime's entry and the task's code,
  /// so that time is folded into Running (creation) or Waiting (dispatch
  /// inside a wait).
  Scheduling,
  /// No task on the thread: before the first parallel region on a worker,
  /// between regions, from a region's implicit task end to the region's
  /// end.
  Idle,
  /// OTTER's own time on the thread: a full event buffer written out (the
  /// runtime's ToolBegin..ToolEnd), and the recording of each event where
  /// it weighs (recordingCostIn). Never the program's time: no construct,
  /// task or wait is charged with it.
  Tool,
};
inline constexpr unsigned ThreadStateCount = 5;

/// OTTER's cost of recording the event that starts an interval of Dt ns,
/// as the analyses take it out of that interval (docs/utils.md, "OTTER's
/// own time"): CostNs (the run's measured cost per event, 0: unknown) where
/// it is at least 5 % of the interval, nothing where it is less: there the
/// correction would be smaller than the measurement's own spread.
inline std::uint64_t recordingCostIn(std::uint64_t Dt, std::uint64_t CostNs) {
  if (!CostNs || CostNs * 20 < Dt)
    return 0;
  return CostNs < Dt ? CostNs : Dt;
}

inline const char *stateName(ThreadState S) {
  switch (S) {
  case ThreadState::Running:
    return "running";
  case ThreadState::Waiting:
    return "waiting";
  case ThreadState::Scheduling:
    return "scheduling";
  case ThreadState::Idle:
    return "idle";
  case ThreadState::Tool:
    return "tool";
  }
  return "?";
}

/// One interval of a thread's timeline, [Start, End) in ns of the trace's
/// clock. Task: the task on the thread (0 when Idle), TaskCode/TaskKind its
/// construct; Construct/Code: for Waiting the construct waited in, for
/// Running the task's own construct (= TaskKind/TaskCode).
struct StateInterval {
  std::uint64_t Start = 0, End = 0;
  ThreadState State = ThreadState::Idle;
  rules::Construct Construct = rules::Construct::Task;
  std::uint64_t Code = 0;
  std::uint64_t Task = 0;
  rules::Construct TaskKind = rules::Construct::Task;
  std::uint64_t TaskCode = 0;
  std::uint64_t ns() const { return End > Start ? End - Start : 0; }
  /// Same state, construct and task: the two can be one interval.
  bool sameAs(const StateInterval &O) const {
    return State == O.State && Construct == O.Construct && Code == O.Code &&
           Task == O.Task;
  }
};

} // namespace otter::analysis

#endif // OTTER_UTILS_STATES_H
