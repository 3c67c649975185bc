//===- otter/phase.h - An analysis restricted to one phase -----*- C++ -*-===//
//
// `--phase NAME` (docs/utils.md, "One phase"): the event stream of a run cut
// down to what happened inside a phase of the program (otter_phase_begin /
// otter_phase_end, otter/otter.h), so that every analysis (summary,
// parallelism, diagnose, the exports) runs unchanged over it.
//
// Inside the phase are: a task from a begin of the phase to its end (the
// phase's occurrences in that task; nested ones count once), and every task
// and parallel region that such a task creates or forks while inside, with
// all their descendants, wholly. A task in which the phase is begun while it
// is not already inside is a *root*: the analysis sees it begin, as a task of
// its own (an initial task: a team of one), at its first begin of the phase,
// suspended at each end (its time outside is nobody's), resumed at the next
// begin (so the occurrences of one task follow each other in its program
// order, on one path), and end where it really ends. Every other event of a
// task outside is dropped; a task switch to or from one is kept as a switch
// from or to no task. The stream stays in time order: the synthesized
// events have the time of the event that causes them.
//
// Memory: one entry per task inside that is still live, one per root.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PHASE_H
#define OTTER_UTILS_PHASE_H

#include "otter/events.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace otter::analysis {

class PhaseRestriction {
public:
  /// Name: the phase's id in the trace's name table (~0u: none there, then
  /// nothing is inside and occurrences() stays 0).
  explicit PhaseRestriction(std::uint32_t Name) : Name(Name) {}

  /// The events of In (one thread's run, in global time order) that are
  /// inside, with the synthesized ones, appended to Out.
  void add(const Event *In, std::size_t N, std::vector<Event> &Out);

  /// Begins of the phase seen while not already inside (its occurrences).
  std::uint64_t occurrences() const { return Occurrences; }
  /// The name ids of every phase begun in the stream (for the error that
  /// lists them when NAME has no occurrence).
  const std::set<std::uint32_t> &phasesSeen() const { return Seen; }

private:
  struct TaskSt {
    std::uint32_t Open = 0; // occurrences of the phase open in it
    bool Inherited = false; // created or forked by a task inside
    bool Root = false;      // begun as a root, not yet ended
  };
  bool inside(TaskId T) const;
  void one(const Event &E, std::vector<Event> &Out);
  void endRoot(const Event &E, TaskId T, std::vector<Event> &Out);

  std::uint32_t Name;
  std::unordered_map<TaskId, TaskSt> Tasks;
  std::unordered_set<ParallelId> Regions; // forked inside, not yet ended
  std::uint64_t Occurrences = 0;
  std::set<std::uint32_t> Seen;
};

/// The one-line error for a phase name with no occurrence: "no phase 'X' in
/// the trace; its phases: a, b" (or "it has no phases").
std::string unknownPhaseError(const std::string &Phase,
                              const std::set<std::uint32_t> &Seen,
                              const std::vector<std::string> &Names);

/// The id of Phase in the name table Names, ~0u if absent.
std::uint32_t phaseNameId(const std::string &Phase,
                          const std::vector<std::string> &Names);

} // namespace otter::analysis

#endif // OTTER_UTILS_PHASE_H
