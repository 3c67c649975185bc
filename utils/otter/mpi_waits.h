//===- otter/mpi_waits.h - Scalasca's MPI wait states of a job --*- C++ -*-===//
//
// `otter diagnose` on an MPI job: the time ranks lose waiting for each
// other in MPI, as Scalasca defines its wait states, per call site, from
// the job's matching (job_graph.h) and the calls' begin and end
// times on one clock:
//
//  - late_sender: a blocking receive (MPI_Recv, MPI_Sendrecv, or the
//    Wait* that completes an MPI_Irecv) began before the send it receives:
//    lost = min(end of the receiving call, begin of the send) - its begin;
//  - late_receiver: a blocking send (MPI_Send, MPI_Ssend, MPI_Rsend,
//    MPI_Sendrecv), or the Wait* that completes an MPI_Isend, began before
//    its receive was posted: lost = min(end of the call, begin of the call
//    that posted the receive) - its begin;
//  - wait_at_collective: in a blocking collective, Wait at N x N (and Wait
//    at Barrier) is a member's wait for the last to arrive, min(its end,
//    last begin) - its begin; Late Broadcast (Bcast, Scatter) a non-root's
//    wait for the root; Early Reduce (Reduce, Gather) the root's wait for
//    the first of the others.
//
// A call that receives several messages counts the latest send once; a
// call that both sends and receives (MPI_Sendrecv) counts its wait once,
// as late sender or late receiver, whichever is longer. A pattern (late
// sender, late receiver, each collective pattern) is one finding: its loss
// summed over every call and rank, reported when the total exceeds 1% of the
// job's thread time, like the other checks (report.h), and split by call site
// (a site is its source line), by rank, and by thread (rank.thread) for the
// ranks where more than one thread waited (MPI_THREAD_MULTIPLE, or calls made
// in tasks on any thread).
//
// Delay costs, the waits' causes (mpi_delay.cpp): each wait is charged to
// the call it waited for (the late send, the late receive's post, the
// collective's last arrival, its root, ...) and so to the work its rank did
// since its previous MPI call on that thread that could have waited (not a
// non-blocking post, a one-sided operation or a poll): Scalasca's
// short-term delay costs, over MPI call intervals.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_MPI_WAITS_H
#define OTTER_UTILS_MPI_WAITS_H

#include "job_graph.h"
#include "report.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace otter::analysis {

/// A rank's local time on the job's clock.
using JobTimeFn =
    std::function<std::uint64_t(std::uint32_t Rank, std::uint64_t Time)>;

/// The waits one call caused on other ranks (mpiWaitFindings).
struct DelayCause {
  std::uint64_t LostNs = 0, Waits = 0;
};

/// Delay costs (mpi_delay.cpp): the `delay_cost` finding, or none when the
/// waits with a known cause lose no more than 1% of ThreadTimeNs. Causes:
/// by (rank, node) of the call waited for.
std::optional<Finding>
delayCostFinding(const JobGraph &M,
                 const std::map<std::pair<std::uint32_t, NodeId>, DelayCause>
                     &Causes,
                 const LabelFn &Label, double ThreadTimeNs);

/// The findings; Label takes a job's code ((rank + 1) << CodeRankShift |
/// the call's site). ThreadTimeNs: the job's run time x threads.
std::vector<Finding> mpiWaitFindings(const JobGraph &M, const JobTimeFn &Time,
                                     const LabelFn &Label, double ThreadTimeNs);

} // namespace otter::analysis

#endif
