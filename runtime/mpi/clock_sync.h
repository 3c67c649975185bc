//===- mpi/clock_sync.h - Clock offsets between hosts of a job ---*- C++
//-*-===//
//
// Timestamps are CLOCK_MONOTONIC nanoseconds of each host: comparable
// between the ranks of one host, not between hosts. At MPI_Init and at
// MPI_Finalize every rank learns which ranks share rank 0's host (one
// allgather of host ids on a private duplicate of MPI_COMM_WORLD); only when
// some do not, rank 0 measures each other rank's offset with a few
// ping-pongs (the one with the shortest round trip wins, as Score-P does)
// and each rank records it as an MpiClockOffset event. A single-host run
// measures nothing and needs no correction. OTTER_MPI_CLOCK_SYNC=1 measures
// even on one host (tests), =0 never.
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
