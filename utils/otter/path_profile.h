//===- otter/path_profile.h - A job's critical-path profile -----*- C++ -*-===//
//
// Scalasca's critical-path profile, for an MPI job (docs/mpi.md, "The
// utilities on a job"): per call path on the job's critical path -- a
// source construct (its kind and label) or an MPI call site (function and
// label), the key `otter parallelism`'s top contributors and the condensed
// path use, without the rank -- its time on the path, its share of the
// path, and its critical-path imbalance: that time minus the mean over the
// ranks of the time a rank spends in it. Positive: the path spends longer
// there than an average rank does, so making it shorter on the rank(s) the
// path runs through shortens the run; about zero: every rank spends as long
// (only a faster code helps); negative: other ranks spend longer there
// than the path, which waits elsewhere.
//
// A rank's time in a call path is measured as the path measures it (a
// task construct's execution, waiting excluded; an MPI call's time is
// waiting, never on the path: its steps there are the zero-length
// crossings) and taken per thread of the rank: its threads' time there
// summed, over its thread count. With one thread per rank that is the
// rank's time; a parallel region whose T threads each run t counts t, as
// it does on the path (the path goes through one of its threads). The MPI
// rows also give the mean over ranks of the time in the call (all of it
// waiting), which is what the path crossed there.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PATH_PROFILE_H
#define OTTER_UTILS_PATH_PROFILE_H

#include "analysis.h"
#include "report.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace otter::analysis {

/// A call path's time on one rank, summed over the rank's threads: Ns
/// counted as the path counts it (execution), MpiNs the time inside MPI
/// calls there.
struct RankCallPathTime {
  std::uint32_t Key = 0, Rank = 0;
  std::uint64_t Ns = 0, MpiNs = 0;
};

/// One call path of the profile.
struct PathProfileRow {
  std::uint32_t Key = 0;
  std::uint64_t PathNs = 0; // its time on the critical path
  std::uint64_t Steps = 0;  // the path's steps in it
  double Share = 0;         // PathNs / the path's length (0 to 1)
  double MeanNs = 0;        // mean over ranks of a rank's Ns per thread
  double ImbalanceNs = 0;   // PathNs - MeanNs
  double MeanMpiNs = 0;     // mean over ranks of a rank's MpiNs
};

/// The profile of Path (each step's call path and time, in path order)
/// against the ranks' Times. RankThreads: each rank's thread count, by
/// rank (0: the rank was not read, not in the means). Rows: the call paths
/// on the path, by time on the path (longest first), then by first
/// appearance on the path.
std::vector<PathProfileRow>
pathProfile(const std::vector<std::pair<std::uint32_t, std::uint64_t>> &Path,
            const std::vector<RankCallPathTime> &Times,
            const std::vector<std::uint32_t> &RankThreads);

/// A job's profile, its rows named.
struct JobPathProfile {
  struct Row : PathProfileRow {
    Kind K = Kind::Task;
    std::string Where;    // "file:line", "(program)", ...
    std::string Function; // MPI rows: the function
    SourceLabel L;
  };
  std::vector<Row> Rows;
  std::uint64_t PathNs = 0; // the path's length (its steps summed)
  std::uint32_t Ranks = 0;  // ranks in the means
};

/// The profile of R's critical path (R: a job's analysis, its codes tagged
/// with their rank). RankThreads as for pathProfile.
JobPathProfile jobPathProfile(const Result &R,
                              const std::vector<std::uint32_t> &RankThreads,
                              const LabelFn &Label);

/// As text: a heading, the Top rows (0: all), a legend defining the
/// columns.
void printPathProfileText(const JobPathProfile &P, std::size_t Top,
                          std::ostream &OS);
/// As a JSON object (no newline).
void printPathProfileJson(const JobPathProfile &P, std::ostream &OS);
/// As a section of the HTML report (id "path-profile"): the rows, at most
/// 100, and the legend.
std::string pathProfileHtml(const JobPathProfile &P);

} // namespace otter::analysis

#endif // OTTER_UTILS_PATH_PROFILE_H
