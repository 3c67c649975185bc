//===- job/job_input.h - An MPI job's output directory, for the utils ----===//
//
// An MPI job traced by OTTER leaves one directory: rank-<N>/ per rank (its
// graph files and its own OTF2 archive, rank-<N>/trace/) and the job's
// merged archive, trace/, for OTF2 tools. OTTER's utilities read the ranks'
// own archives (lossless, independent, so they can be read in parallel);
// this module finds them from whatever the user names -- the job's
// directory, its merged archive or that archive's anchor -- and rebuilds
// each rank's graph and the job's (job_graph.h).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_JOB_INPUT_H
#define OTTER_UTILS_JOB_INPUT_H

#include "job_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace otter::job {

struct Layout {
  std::string Dir; // the job's output directory
  /// rank-<N>/ for N = 0 .. the highest found ("" where none was).
  std::vector<std::string> RankDirs;
};

/// True when Path is an MPI job: a directory with rank-<N>/ subdirectories,
/// or the job's archive (<dir>/trace, or its traces.otf2) beside them.
bool findJob(const std::string &Path, Layout &L);

/// When the job holds samples alone (its ranks ran OTTER_SAMPLE with
/// OTTER_TRACE=0: the job's archive says so, trace/codec.h), the one-line
/// message for a command that needs events, naming `otter profile DIR`;
/// else "".
std::string samplesOnlyJobMessage(const Layout &L);

/// What rebuilding one rank's graph gave.
struct RankStatus {
  bool Read = false;     // its archive was read
  bool Complete = false; // ... and had been closed (not killed)
  std::string Error;     // why it was not read
};

/// Rebuilds every rank's graph from its archive (up to Threads at a time)
/// and joins them. Ranks that cannot be read become missing ranks of the
/// job graph; Status says why, per rank. The job has as many ranks as the
/// highest rank directory or any rank's MPI_Init says. False (Error) only
/// when no rank could be read at all.
bool rebuildJobGraph(const Layout &L, unsigned Threads, JobGraph &J,
                     std::vector<RankStatus> &Status, std::string &Error);

/// One line per rank that was not read or was cut off (for stderr).
std::vector<std::string> rankNotes(const std::vector<RankStatus> &Status);

} // namespace otter::job

#endif // OTTER_UTILS_JOB_INPUT_H
