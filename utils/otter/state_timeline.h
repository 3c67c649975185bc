//===- otter/state_timeline.h - Export the state timeline -------*- C++ -*-===//
//
// `otter export --format states`: an observer of the streaming analysis
// that keeps every interval of every thread's state timeline (states.h;
// the analysis decides them as it charges time, so they are the times
// every other view reports), the totals per thread and state, and the
// writers of the CSV and JSON forms (docs/utils.md, "The state timeline").
// Memory: one interval (~64 bytes) per change of state or task on a thread.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_STATE_TIMELINE_H
#define OTTER_UTILS_STATE_TIMELINE_H

#include "analysis.h"
#include "report.h"
#include "states.h"

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace otter::analysis {

/// One thread's timeline summed: ns per state, waiting per construct kind.
struct StateTotals {
  std::uint64_t First = 0, Last = 0; // the first interval's start, last's end
  std::array<std::uint64_t, ThreadStateCount> Ns{};
  std::map<Kind, std::uint64_t> WaitingBy;
  std::uint64_t wallNs() const { return Last > First ? Last - First : 0; }
  std::uint64_t ns(ThreadState S) const { return Ns[std::size_t(S)]; }
  std::uint64_t sumNs() const;
};

/// Sums a thread's intervals.
StateTotals sumStates(const std::vector<StateInterval> &Intervals);

class StateTimeline final : public Observer {
public:
  void task(std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t,
            std::uint64_t, std::uint64_t) override {}
  void construct(std::uint32_t, Kind, std::uint64_t, std::uint64_t,
                 std::uint64_t) override {}
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void constructEdge(std::uint64_t, Kind, std::uint64_t, Kind,
                     const char *) override {}
  void taskLabel(std::uint64_t Id, std::uint32_t Name) override {
    TaskNames[Id] = Name;
  }
  void state(std::uint32_t Thread, const StateInterval &I) override;
  bool wantsStates() const override { return true; }

  /// Per thread (by index), its intervals in time order.
  const std::vector<std::vector<StateInterval>> &threads() const {
    return Threads;
  }
  /// The CSV (header thread,start_ns,end_ns,state,construct,region_id,task,
  /// label): one row per interval, by thread then start. Names: the trace's
  /// name table (task labels).
  void writeCsv(std::ostream &OS, const LabelFn &Label,
                const std::vector<std::string> &Names) const;
  /// The same rows as JSON objects ("intervals"), and per thread its totals
  /// ("threads").
  void writeJson(std::ostream &OS, const LabelFn &Label,
                 const std::vector<std::string> &Names) const;

private:
  /// The row's columns after the times: construct, region id, task, label
  /// (empty strings for an idle interval).
  struct Columns {
    std::string Construct, RegionId, Task, Label;
  };
  Columns columns(const StateInterval &I, const LabelFn &Label,
                  const std::vector<std::string> &Names) const;
  std::vector<std::vector<StateInterval>> Threads;
  std::unordered_map<std::uint64_t, std::uint32_t> TaskNames;
};

} // namespace otter::analysis

#endif // OTTER_UTILS_STATE_TIMELINE_H
