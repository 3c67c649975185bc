//===- core/session.h - One traced run: start, sinks, finish ------*- C++ -*-===//
//
// Owns what lives for the whole traced run: the configuration, the sinks
// that flushed buffers go to, and the work done at tool finalize (build the
// graph, write the files, print the one-line summary). Everything here runs
// off the hot path and must never crash, hang or abort the application.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_SESSION_H
#define OTTER_CORE_SESSION_H

#include <string>
#include <vector>

namespace otter::session {

void noteRuntime(const char *Version);
/// How the callbacks were registered (ompt/registration.h): Report for
/// OTTER_VERBOSE at the end (replacing an earlier registration's: libomp
/// may start again after omp_pause_resource), Warnings printed now.
void noteCallbacks(std::vector<std::string> Report,
                   const std::vector<std::string> &Warnings);
/// Reads the configuration and installs the sinks. False: do not trace.
/// Once started, true until finished.
bool start();
/// Flush, build, write, report. Idempotent.
void finish();
/// The OpenMP runtime finalized the tool. At exit this is finish(); before
/// it (omp_pause_resource(omp_pause_hard) shuts libomp down and starts it
/// again at the next construct) the run goes on: buffers are flushed and
/// the next initialize() continues the same output.
void runtimeFinalized();
/// Sampling alone (OTTER_SAMPLE with no trace and no graph file): no event
/// needs recording, only samples (docs/sampling.md). Valid after start().
bool samplingAlone();
/// True once start() succeeded.
bool started();
/// The MPI rank and job size MPI_Init reported (checked against the
/// launcher's environment the output directory was chosen from).
void noteRank(int Rank, int Size);
/// omp_control_tool flush: every event recorded so far is written out and
/// the trace on disk reads up to here while the program runs (the calling
/// thread's events only, inside an active parallel region: other threads
/// may be recording).
void flushNow();
/// omp_control_tool end: recording ends for the rest of the run and
/// everything recorded so far is written as at exit (from a forked copy
/// inside an active parallel region).
void endNow();
/// The process ends now without returning (MPI_Abort): finish as at exit,
/// from a forked copy (other threads may still run). Idempotent with
/// finish().
void finishNow();

} // namespace otter::session

#endif // OTTER_CORE_SESSION_H
