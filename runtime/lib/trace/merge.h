//===- trace/merge.h - One OTF2 archive for an MPI job ------------*- C++
//-*-===//
//
// Every rank of an MPI job writes its own, complete OTF2 archive
// (<job>/rank-<N>/trace/, written and checkpointed exactly as for a process
// without MPI: no rank waits for another, and a rank that dies leaves what
// it had written readable). The job's archive, <job>/trace/, is assembled
// from them by mergeJob():
//
//  - one anchor and one set of global definitions, unified: the same string,
//    region, attribute, parameter or communicator (same name and members) is
//    one definition for the whole job; a system-tree node per host, a
//    location group per rank ("MPI rank N") under its host, a location per
//    thread (rank << 16 | thread), the MPI COMM_LOCATIONS group mapping each
//    rank to its first thread;
//  - per location, a local definition file with OTF2's mapping tables from
//    the rank's own references to the job's, and the rank's measured clock
//    offsets (MpiClockOffset, as ClockOffset definitions);
//  - the event files themselves are the ranks' (hard links, or symbolic
//    ones where the file system has none): nothing is copied or rewritten,
//    so assembling costs a read of the ranks' definitions only.
//
// No collective operation, no MPI: it runs at the end of whichever rank
// closes its archive last (counted by marker files, under a lock file, so
// concurrent runs serialise and a rank killed while holding the lock frees
// it), or later by hand (otter-merge) when a rank never finished. Ranks whose
// archive was not closed (killed) are included up to what they wrote and
// listed in the job archive's OTTER::INCOMPLETE_RANKS property.
//
// OTTER's own readers read the ranks' archives (lossless, and in parallel,
// one per rank); the job archive is for OTF2 tools (otf2-print, Vampir).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_MERGE_H
#define OTTER_TRACE_MERGE_H

#include <cstdint>
#include <string>

namespace otter::trace {

/// Anchor property of the job archive: comma list of ranks whose own
/// archive was not closed (killed) or that left none that reads (killed
/// before its first checkpoint), in rank order; absent when every rank
/// closed its own.
inline constexpr const char *IncompleteRanksProperty =
    "OTTER::INCOMPLETE_RANKS";
/// Anchor property of a rank's archive: "time:offset:roundtrip;..." (ns), the
/// clock offsets to rank 0 measured at MPI_Init and MPI_Finalize.
inline constexpr const char *ClockOffsetsProperty = "OTTER::CLOCK_OFFSETS";

struct MergeResult {
  std::uint32_t Ranks = 0; // rank archives merged
  std::uint32_t Locations = 0;
  std::uint32_t IncompleteRanks = 0; // their archive was not closed
  std::uint32_t MissingRanks = 0;    // of the world, no readable archive
};

/// Builds (or rebuilds) <JobDir>/trace from <JobDir>/rank-*/trace (with
/// JobSize > 0, of ranks below it only: a rank-N/ of a larger earlier job
/// in the same directory is not this job's). False: Error says why in one
/// line (nothing of a previous job archive is lost unless the new one is
/// complete).
bool mergeJob(const std::string &JobDir, MergeResult &Result,
              std::string &Error, int JobSize = 0);

/// Called when rank Rank opens its archive: it has not closed it in this
/// run (a mark left by an earlier run of the job is removed).
void rankOpened(const std::string &JobDir, int Rank);

/// Called when rank Rank has closed its archive: marks it so, and when
/// every one of WorldSize ranks has (or WorldSize is unknown, 0), merges.
/// Returns true and fills Result when it merged.
bool rankClosed(const std::string &JobDir, int Rank, int WorldSize,
                MergeResult &Result, std::string &Error);

/// A utility that reads job directory JobDir calls this first: when the
/// job's archive is missing (no rank assembled it: the job ended by a
/// SIGKILL, MPI_Abort or Ctrl-C before its last rank closed), assembles it
/// from whatever the ranks left, under the closing ranks' lock. True and
/// Result filled when it did.
bool assembleIfMissing(const std::string &JobDir, MergeResult &Result,
                       std::string &Error);

} // namespace otter::trace

#endif // OTTER_TRACE_MERGE_H
