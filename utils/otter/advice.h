//===- otter/advice.h - Advice replayed with the change applied -*- C++ -*-===//
//
// `otter diagnose`'s advice (docs/utils.md, "Advice"): for a problem that
// has a remedy, what to change, where (the construct's file:line), and the
// gain predicted by replaying the program (sim_program.h) with the change
// applied on the traced number of cores (simulate.h). Each kind of advice
// is a transformation of the replayable program, never a scaled curve:
//  - cutoff: the tasks of recursive task constructs at recursion depth d
//    become one task each with their subtree's work, less the creation
//    cost of every task removed (a cut-off depth, a final or if clause);
//  - fuse_regions: consecutive parallel regions of one encountering task
//    become one region: one fork and one join, each member running its
//    parts of every region in turn, the sequential code between them
//    replicated;
//  - dependences: a chain of sibling tasks each depending on the one
//    created before it loses the chain's edges (an `inout` that
//    serialises a loop); an edge implied by others is removed;
//  - taskwait: a taskwait with nothing to wait for (every child since the
//    previous one ran undeferred, or none was created), or that is the
//    last thing its task does, is removed.
//
// The transformations work on a Draft, the program with each task's steps
// as a vector of their own, and build a new Program from it.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_ADVICE_H
#define OTTER_UTILS_ADVICE_H

#include "report.h"
#include "simulate.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace otter::advice {

/// A program under transformation: Program's tasks, each with its own
/// steps. Task ids are the Program's (pre-order of the creation tree, so a
/// creator's id is below its children's); Create arguments are task ids,
/// Fork arguments team ids.
struct Draft {
  struct Task {
    std::vector<std::uint64_t> Steps;
    std::vector<std::uint32_t> Sites; // per step (Program::StepSite) or empty
    std::vector<std::uint32_t> Succ;  // dependence successors
    std::uint8_t Flags = 0;
    std::uint32_t Team = sim::NoTask; // as recorded (kept if unreachable)
    bool Dead = false;
  };
  struct Team {
    std::uint32_t Enc = sim::NoTask;
    std::uint64_t ForkNs = 0, JoinNs = 0;
    std::vector<std::uint32_t> Members, Delay;
  };
  std::vector<Task> Tasks;
  std::vector<Team> Teams;
  std::vector<std::uint32_t> Roots;
  std::vector<std::uint64_t> Sites;
};

Draft draftOf(const sim::Program &G);
/// The program of D's live tasks, renumbered in pre-order of the creation
/// tree; creators, teams, dependence counts and totals recomputed.
sim::Program build(const Draft &D);

/// The site index of each task: its Create step's (0: an initial or
/// implicit task, or no sites recorded); and its creator (NoTask if none).
void taskSites(const Draft &D, std::vector<std::uint32_t> &Site,
               std::vector<std::uint32_t> &Creator);

// The transformations. Each returns how many things it changed (tasks,
// regions, edges or taskwaits removed); 0: the draft is unchanged.

/// The recursive families of task constructs: sites whose tasks create,
/// directly or through one another, tasks of the same site (fib's two task
/// constructs are one family). Sorted site lists, most tasks first.
std::vector<std::vector<std::uint32_t>> recursiveFamilies(const Draft &D);
/// Tasks of a family at recursion depth Depth (the number of their
/// ancestors in the family) run their whole subtree themselves: one
/// Compute of its work less CreateNs per task removed, then End. A subtree
/// that forks a team is left alone. Returns the tasks removed.
std::uint64_t cutOff(Draft &D, const std::vector<std::uint32_t> &Family,
                     unsigned Depth, double CreateNs);
/// The deepest recursion depth in a family (0: not recursive).
unsigned recursionDepth(const Draft &D,
                        const std::vector<std::uint32_t> &Family);

/// A run of consecutive regions forked by one task: the Fork steps at
/// these indices of Task's steps, with only Compute steps between them.
struct RegionRun {
  std::uint32_t Task = 0;
  std::vector<std::uint32_t> ForkSteps;
};
/// Runs of at least two regions with teams of equal size.
std::vector<RegionRun> regionRuns(const Draft &D);
/// Each run becomes its first region (see the file comment). Returns the
/// regions removed.
std::uint64_t fuseRegions(Draft &D, const std::vector<RegionRun> &Runs);

/// Dependence edges (predecessor, successor) among siblings.
using Edge = std::pair<std::uint32_t, std::uint32_t>;
/// Chains of at least MinChain sibling tasks of one construct, each the
/// only predecessor of the next: the edges between them.
std::vector<Edge> chainEdges(const Draft &D, unsigned MinChain);
/// Edges implied by a path of others (transitive reduction), among the
/// dependences of each task's children (creators with more than Limit
/// children with dependences are skipped).
std::vector<Edge> redundantEdges(const Draft &D, std::size_t Limit = 4096);
std::uint64_t removeEdges(Draft &D, const std::vector<Edge> &Edges);

/// A taskwait step: task and step index.
using StepRef = std::pair<std::uint32_t, std::uint32_t>;
/// Taskwaits with nothing to wait for: every child created since the
/// task's previous taskwait ran undeferred (included, if(0), final; not
/// merely serialized by a team of one), or there was none.
std::vector<StepRef> idleTaskwaits(const Draft &D);
/// Taskwaits followed by the task's end within TrailNs of execution.
std::vector<StepRef> trailingTaskwaits(const Draft &D, std::uint64_t TrailNs);
/// Removes the taskwaits (their execution before them stays, as Compute).
std::uint64_t removeTaskwaits(Draft &D, std::vector<StepRef> Steps);

/// The advice for a program (G recorded with sites), replayed on Cores
/// cores with O. Label names the sites as diagnose names constructs.
std::vector<analysis::Advice> advise(const sim::Program &G,
                                     const analysis::Result &R,
                                     const sim::Options &O,
                                     const analysis::LabelFn &Label,
                                     unsigned Cores);

/// Each advice onto the finding of its construct that it answers (same
/// place, a related check), else a finding of its own; re-sorted.
void attachAdvice(std::vector<analysis::Finding> &F,
                  const std::vector<analysis::Advice> &A);

/// Programs with more tasks than this get no advice (each replay costs
/// about as much as `otter simulate` on one core count).
inline constexpr std::size_t AdviceTaskLimit = 2000000;
/// A cut-off or a fusion is advised when it gains at least this share.
inline constexpr double MinAdviceGain = 0.01;
/// A taskwait followed by its task's end within this much execution is
/// the task's last action.
inline constexpr std::uint64_t TrailingTaskwaitNs = 1000;
/// A dependence chain this long serialises a loop.
inline constexpr unsigned MinChainTasks = 4;

} // namespace otter::advice

#endif
