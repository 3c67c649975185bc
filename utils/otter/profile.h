//===- otter/profile.h - `otter profile`: samples into a profile -*- C++
//-*-===//
//
// What `otter profile` computes from the samples a run wrote
// (samples.csv, docs/sampling.md), once they are symbolized
// (profile_input.cpp): each sample's user-model call path (the OMPT
// report's appendix B: the OpenMP runtime's frames between user frames
// removed, the outlined region or task function shown as its construct),
// then the time per construct and per function, inclusive and exclusive,
// split by the state class the sample was in; and the printers (table,
// folded stacks, JSON). No I/O but the printers' stream: unit tested on
// synthetic samples (test/unit/profile_test.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PROFILE_H
#define OTTER_UTILS_PROFILE_H

#include "otter/sample_states.h"

#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace otter::profile {

/// Where a frame's code is: the program (and its own libraries), a system
/// library (libc, libm, ...), or the OpenMP runtime (and OTTER).
enum class Origin : std::uint8_t { User, System, Runtime };

/// One symbolized frame, innermost first in a stack; an address that
/// inlined calls give several, innermost first.
struct SymFrame {
  std::string Function; // demangled; empty: unknown
  std::string File;     // the line's file; empty: unknown
  std::uint32_t Line = 0;
  std::string StartFile; // the function's definition (its first line)
  std::uint32_t StartLine = 0;
  Origin From = Origin::User;
};

/// One frame of a user-model call path.
struct PathFrame {
  std::string Name;     // a function's name, or a construct's label
  std::string Location; // a function's definition "file:line"; empty
  bool Construct = false;
};

/// A sample with its user-model call path, outermost frame first.
struct PathSample {
  unsigned Thread = 0;
  std::uint64_t TimeNs = 0;
  StateClass Class = StateClass::Work;
  std::uint64_t Weight = 1;
  std::vector<PathFrame> Frames;
};

/// True when Function is one clang outlines a region or task into
/// (".omp_outlined.", "f.omp_outlined_debug__", ".omp_task_entry.", ...);
/// Task: a task's entry.
bool isOutlined(const std::string &Function, bool &Task);

/// The user-model path of a stack (innermost first, inlined frames
/// expanded): outermost first; the runtime's frames (and the system
/// frames they call, or that start the program) removed; each run of
/// outlined frames one construct frame, labelled by Label(kind, file,
/// line) where kind is "task" or "parallel" from the function's name.
/// Current: the label of the sampled task's construct, as the runtime
/// recorded it (empty: not known); it names the innermost construct when
/// that one's frame is gone (TailCallLabel).
std::vector<PathFrame> userPath(
    const std::vector<SymFrame> &Stack,
    const std::function<std::string(const std::string &, const std::string &,
                                    std::uint32_t)> &Label,
    const std::string &Current = {});

/// Time split by state class (ns), StateClassCount entries.
using ClassNs = std::array<std::uint64_t, StateClassCount>;

/// One row of a table: a construct or a function.
struct Row {
  std::string Name, Location;
  std::uint64_t InclusiveNs = 0, ExclusiveNs = 0;
  /// Other threads' idle or waiting time charged to this row: a worker
  /// idle while the primary thread ran this, a thread waiting at a
  /// barrier, for a lock or in a taskwait while another ran this (blame
  /// shifting, docs/sampling.md).
  std::uint64_t BlamedNs = 0;
  ClassNs ByClass{}; // the inclusive time, by the samples' state class
};

struct Profile {
  std::uint64_t PeriodNs = 0; // one timer period
  std::uint64_t Samples = 0;  // rows
  std::uint64_t TotalNs = 0;  // every sample's weight x period
  unsigned Threads = 0;
  unsigned Ranks = 0; // an MPI job's profile: the ranks merged (merge)
  /// Timer periods per sample (TotalNs / PeriodNs / Samples): 1 when every
  /// tick came as asked; more when the kernel merged ticks into one.
  double periodsPerSample() const {
    return Samples && PeriodNs ? double(TotalNs) / double(PeriodNs) /
                                     double(Samples)
                               : 0;
  }
  ClassNs ByClass{};          // all samples
  /// Of TotalNs, the samples whose path holds an MPI function (a frame
  /// named MPI_* or mpi_*: OTTER's wrapper, docs/sampling.md "MPI calls");
  /// OMPT has no MPI state, so they are in the class of the code around.
  std::uint64_t MpiNs = 0;
  std::uint64_t IdleNs = 0;   // the workers' idle samples (aggregate)
  std::uint64_t BlamedNs = 0; // of which blamed on the primary's code
  /// The waits other than idle workers, by state class (barrier, lock,
  /// taskwait; the other entries 0): the time waited, and of it the
  /// time blamed on the other threads' code (aggregate).
  ClassNs WaitNs{}, WaitBlamedNs{};
  std::vector<Row> Constructs; // by inclusive time, largest first
  std::vector<Row> Functions;  // by exclusive time, then inclusive
  /// Folded stacks: "frame;frame;... COUNT" (COUNT: timer periods),
  /// sorted by the stack's text.
  std::vector<std::pair<std::string, std::uint64_t>> Folded;
  std::set<std::string> ConstructNames; // the labels of constructs
};

/// Adds the profile of one more process (an MPI job's rank, sampled at
/// the same period) to Into: every total, row, folded stack and class
/// summed, rows matched by name and location and sorted again. Blame was
/// shifted within each process (a rank's workers on its own primary
/// thread), before the merge. Into.Ranks counts the merged profiles.
void merge(Profile &Into, const Profile &From);

/// The label of a sample outside every construct, and of one whose path
/// is empty (wholly in the runtime: an idle worker).
inline constexpr const char *SerialLabel = "(outside any construct)";
/// The construct of a user frame the runtime called directly (after its
/// frames) that is not an outlined function: the region's or task's body
/// was tail-called from it (common at -O2), so its frame, which names the
/// construct, is gone (docs/sampling.md).
inline constexpr const char *TailCallLabel =
    "(a construct whose frame is gone: tail call)";
std::string runtimeLabel(StateClass C); // "[idle]", "[barrier]", ...

/// Aggregates Samples (paths made) with timer period PeriodNs. Blame: a
/// worker's idle sample (class idle, or barrier with an empty path: libomp
/// keeps workers between regions in the region's implicit barrier) is
/// charged to the path of the primary thread's (thread 0) sample nearest
/// in time (to the span of periods it stands for: weight - 1 before its
/// time), within the idle sample's periods and one more on each side,
/// if that sample is work with a path (for a barrier: outside every
/// construct, the region over; otherwise it is a barrier wait). The
/// other waits -- a barrier sample not so blamed, a lock sample, a
/// taskwait sample -- are blamed on what the other threads ran meanwhile:
/// each other thread's sample nearest in time within the same window, if
/// it is work with a path holding a construct (barrier: the late
/// arrivers, still in the region), any path (lock: the holder), or a path
/// holding a task construct (taskwait: the awaited tasks); the wait is
/// split evenly between those threads.
Profile aggregate(const std::vector<PathSample> &Samples,
                  std::uint64_t PeriodNs);

/// The printers: the tables (Top rows each; 0: all), folded stacks, JSON.
void printTable(const Profile &P, std::size_t Top, std::ostream &OS);
/// One line saying the samples are coarse (the kernel delivered one tick
/// for CoarsePeriodsPerSample or more timer periods) and why, or "".
inline constexpr double CoarsePeriodsPerSample = 8;
std::string coarseSamplesNote(const Profile &P);
void printFolded(const Profile &P, std::ostream &OS);
void printJson(const Profile &P, std::ostream &OS);
/// Two profiles compared (profile_diff.cpp): a row of A and B matched by
/// name and location (a row only in one run: zeros in the other).
struct DiffRow {
  std::string Name, Location;
  bool InA = false, InB = false;
  Row A, B;
  std::int64_t inclusiveDelta() const; // B - A, ns
  std::int64_t exclusiveDelta() const;
};
struct ProfileDiff {
  /// Sorted by the largest change of exclusive time, then of inclusive.
  std::vector<DiffRow> Constructs, Functions;
};
ProfileDiff compare(const Profile &A, const Profile &B);
/// The comparison as two tables (Top rows each; 0: all) or JSON.
void printDiff(const Profile &A, const Profile &B, const std::string &NameA,
               const std::string &NameB, std::size_t Top, bool Json,
               std::ostream &OS);

/// The folded stacks as a flame graph, a self-contained SVG 1200 px wide
/// (profile_svg.cpp).
std::string flameGraphSvg(const Profile &P, const std::string &Title);

} // namespace otter::profile

#endif
