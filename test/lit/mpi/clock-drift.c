// Ranks on one host share a time base: each rank's trace clock (the
// time-stamp counter, calibrated over ~2 ms at start, off by a few us/s
// differently in every process) is put on the host's CLOCK_MONOTONIC by the
// clock errors every rank records at MPI_Init and MPI_Finalize (two
// MpiClockOffset events, parameter otter:event value 43, on every rank).
// A 2-second ping-pong then has no message received before it was sent
// (uncorrected, most of them were), the controlled logical clock has nothing
// to move, and the skew between the two ranks drifts by at most 0.1 us/s.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f canon %t.prog 2
// RUN: otf2-print %t/rank-0/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: otf2-print %t/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: otter summary %t > %t.sum 2> %t.err
// RUN: FileCheck --check-prefix=CLEAN --allow-empty %s < %t.err
// RUN: otter export --format perfetto -o %t.json %t
// RUN: python3 %S/Inputs/clock-drift.py %t.json 0.1 | FileCheck --check-prefix=DRIFT %s
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, go = 1;
  double seconds = atof(argv[1]), start = MPI_Wtime();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  while (go) {
    if (rank == 0) {
      go = MPI_Wtime() - start < seconds;
      MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}

// TWO: 2
// CLEAN-NOT: received before
// CLEAN-NOT: arrived after
// DRIFT: received before sent: 0
// DRIFT: drift within 0.1 us/s: yes
