//===- mpi/clock_sync.h - Clock offsets between hosts of a job ---*- C++
//-*-===//
//
// A trace's timestamps are the time-stamp counter scaled by a calibration
// over ~2 ms at start (core/recorder.cpp): close to the host's
// CLOCK_MONOTONIC, but off by up to a few us/s, differently in every
// process. At MPI_Init and at MPI_Finalize every rank records one
// MpiClockOffset: what to add to its trace's clock to read rank 0's
// CLOCK_MONOTONIC, i.e. its own clock error (sampled locally,
// otter_source_clock_error) plus its host's offset to rank 0's host. The
// readers interpolate linearly between the two, which puts every rank of a
// host on that host's CLOCK_MONOTONIC. Host offsets: every rank learns
// which ranks share rank 0's host (one allgather of host ids on a private
// duplicate of MPI_COMM_WORLD); rank 0 measures each rank of another host
// with a few ping-pongs (the shortest round trip wins, as Score-P does).
// OTTER_MPI_CLOCK_SYNC=1 ping-pongs even on one host (tests), =0 records
// nothing.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_CLOCK_SYNC_H
#define OTTER_MPI_CLOCK_SYNC_H

#include "mpi/handlers.h"

namespace otter::mpi::clock_sync {

void atInit(wrap::Call &C, std::uint64_t HostId);
void atFinalize(wrap::Call &C);

} // namespace otter::mpi::clock_sync

#endif // OTTER_MPI_CLOCK_SYNC_H
