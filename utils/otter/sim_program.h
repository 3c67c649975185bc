//===- otter/sim_program.h - The measured program, for replay --*- C++ -*-===//
//
// What `otter simulate` replays: every task of the trace as the sequence of
// what it did, in its own program order, with the execution time measured
// before each step: compute, create a task, taskwait, taskgroup begin/end,
// barrier, fork a team (and wait for its join), run a target region on a
// device (for its measured duration), end. Beside it: the creation
// tree, each team's members and measured fork and join times, and the
// dependence edges between sibling tasks (graph/rules.h, rule 5).
//
// Why a program and not the task graph: a schedule on P cores needs to know
// what each task does *when*, as a runtime would see it (a taskwait waits
// for the children created so far, a barrier for the team's tasks), not
// only which node precedes which. The recorder reads the same event stream
// as the analyses (time order) and charges time as they do (docs/utils.md,
// "Where time goes"), so the program's total compute is the analyses' work
// (checked by test/unit/simulate_test.cpp).
//
// Size: 8 bytes per step, 25 bytes per task (fib: ~2.5 steps per task, 45
// bytes per task; 11.4 M tasks: ~510 MB).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_SIM_PROGRAM_H
#define OTTER_UTILS_SIM_PROGRAM_H

#include "graph/rules.h"
#include "otter/events.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace otter::sim {

inline constexpr std::uint32_t NoTask = ~0u;

/// A step of a task. Word layout: tag (4 bits) | pre (28 bits: ns of
/// execution before the step) | arg (32 bits). A longer execution is a
/// Compute step of its own (tag | ns << 4).
enum class Step : std::uint8_t {
  Compute,    // ns: payload
  Create,     // arg: the child task
  Taskwait,   // wait for the children created so far; arg: release, ns
  GroupBegin, // open a taskgroup
  GroupEnd,   // wait for the open taskgroup's members, close it; arg too
  Barrier,    // the team's barrier; arg: its release time, ns
  Fork,       // arg: the team; the task waits for its join
  End,        // the task completes
  /// A target region (target_begin..target_end, docs/offload.md): the
  /// task waits while its device runs it for its measured duration. Word
  /// layout: tag | device (8 bits) | ns (52 bits); no execution before it
  /// (a Compute step of its own).
  Device,
};

inline constexpr unsigned PreBits = 28;
inline constexpr std::uint64_t MaxPre = (1ull << PreBits) - 1;
inline Step stepOf(std::uint64_t W) { return Step(W & 15); }
inline std::uint64_t preOf(std::uint64_t W) {
  if (stepOf(W) == Step::Device)
    return 0;
  return stepOf(W) == Step::Compute ? W >> 4 : (W >> 4) & MaxPre;
}
inline std::uint64_t deviceWord(std::int32_t Device, std::uint64_t Ns) {
  return std::uint64_t(Step::Device) | (std::uint64_t(Device & 0xff) << 4) |
         (std::min<std::uint64_t>(Ns, (1ull << 52) - 1) << 12);
}
/// A Device step's device (its OMPT device number, low 8 bits) and time.
inline unsigned deviceOf(std::uint64_t W) { return unsigned(W >> 4) & 0xff; }
inline std::uint64_t deviceNsOf(std::uint64_t W) { return W >> 12; }
inline std::uint32_t argOf(std::uint64_t W) { return std::uint32_t(W >> 32); }

enum TaskFlag : std::uint8_t {
  FInitial = 1,   // an initial task (a root)
  FImplicit = 2,  // a member of a team
  FImmediate = 4, // undeferred or included: run by its creator at once
  FUntied = 8,
  /// Undeferred only because its team had one thread: libomp serializes a
  /// team of one (OMP_NUM_THREADS=1), the program lets the task be
  /// deferred (not final, no if clause at its construct, a team that was
  /// asked for one thread). FImmediate is set too.
  FSerialized = 16,
  /// A `nowait` target task (task_create's target flag): replayed on its
  /// device, not on a core (docs/offload.md, "Simulate").
  FTarget = 32,
  /// Not the program's work, never replayed: the host plugin's kernel
  /// threads (a target region's league, its teams, what they create: the
  /// region's Device step stands for them) and libomp's hidden helper
  /// team (the threads that run target tasks: setRuntimeTeam).
  FDevice = 64,
};

struct TeamRec {
  std::uint32_t Enc = NoTask;    // the encountering task
  std::uint32_t FirstMember = 0; // into Program::Members (primary first)
  std::uint32_t Members = 0;
  std::uint64_t ForkNs = 0, JoinNs = 0;
};

/// The replayable program (docs/utils.md, `otter simulate`).
struct Program {
  std::vector<std::uint64_t> Steps;
  // Per task (structure of arrays: no padding).
  // Tasks are numbered in pre-order of the creation tree (the tasks a task
  // creates and the members of the teams it forks are its children): Size
  // is the subtree's.
  std::vector<std::uint32_t> StepBegin, Parent, Team, Size;
  std::vector<std::uint32_t> Pre; // (while recording: the pre-order numbers)
  std::vector<std::uint8_t> Flags;
  std::vector<TeamRec> Teams;
  std::vector<std::uint32_t> Members;
  std::vector<std::uint32_t> MemberDelay; // ns after the primary it began
  // Dependence successors, CSR: SuccBegin[T]..SuccBegin[T+1] in Succ;
  // NPreds[T]: predecessors of T.
  std::vector<std::uint32_t> SuccBegin, Succ, NPreds;
  std::vector<std::uint32_t> Roots; // initial tasks
  /// Where each step comes from (Recorder::recordSites; empty otherwise):
  /// per step, an index into Sites, the code addresses of the constructs
  /// (a Create: the task construct; a Fork: the parallel construct; a
  /// Taskwait, GroupBegin, GroupEnd or Barrier: the sync construct). Sites[0]
  /// is 0: no site. `otter diagnose` names advice by them (advice.h).
  std::vector<std::uint32_t> StepSite;
  std::vector<std::uint64_t> Sites;
  std::uint64_t ComputeNs = 0;      // every step's execution + fork times
  /// Target offload: the Device steps' time, and how many (0: none).
  std::uint64_t DeviceNs = 0, DeviceSteps = 0;
  std::uint64_t ExplicitTasks = 0;
  std::uint64_t SerializedTasks = 0; // flagged FSerialized
  std::size_t tasks() const { return Flags.size(); }
  /// T is a descendant of A in the creation tree (tasks created, teams
  /// forked), or A itself.
  bool descendant(std::uint32_t T, std::uint32_t A) const {
    return T >= A && T - A < Size[A];
  }
  std::uint64_t memoryBytes() const;
};

/// Whether a construct's clause text (the plugin's, otter/label.h) has an
/// if clause: "if(0)", "if(task: c)".
bool hasIfClause(std::string_view Clauses);

/// Reads events in global time order (like analysis::Analyzer) into a
/// Program.
class Recorder {
public:
  Recorder();
  ~Recorder();
  void add(std::uint32_t Thread, const Event *E, std::size_t N);
  /// Whether the task construct at a code address has an if clause (the
  /// plugin's clause text, otter/label.h): its undeferred tasks may be
  /// if(0), so they are never taken as serialized (FSerialized). Without
  /// one (no plugin), no construct has.
  void setIfClause(std::function<bool(std::uint64_t Code)> HasIf);
  /// Whether the parallel region at a code address is libomp's own team of
  /// hidden helper threads (its label, sites/site_index.h), asked for the
  /// regions of an initial task other than the first: that initial task
  /// and its team are not replayed (FDevice). Without: none is.
  void setRuntimeTeam(std::function<bool(std::uint64_t Code)> IsRuntime);
  /// OTTER's measured cost per event (the trace's): taken out of task
  /// times as the analysis takes it (states.h, recordingCostIn).
  void setRecordingCost(std::uint64_t Ns);
  /// Records each step's site (Program::StepSite): 4 bytes per step more.
  void recordSites();
  /// Ends the program: tasks that did not end (a truncated trace) end with
  /// what was seen. False (Error set) if the program is too large to
  /// replay (more than 2^32 steps or tasks).
  bool finish(Program &Out, std::string &Error);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace otter::sim

#endif
