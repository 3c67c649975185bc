// A rank killed with SIGKILL long before its first 4 MiB OTF2 chunk is
// full keeps what it recorded up to its last periodic flush
// (OTTER_FLUSH_INTERVAL): 100 barriers, 2 s of sleep, then the first
// events after the interval put them on disk, and the SIGKILL loses only
// what followed. The killed rank's trace reads, says it was not closed,
// and its graph has every one of the first 100 barriers; the job's archive
// is assembled with it cut off. (mpi/kill.c: a rank that wrote full
// chunks.)
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && not %mpirun -np 2 -x OTTER_FLUSH_INTERVAL=1 otter-run -o %t %t.prog 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: otter-graph %t/rank-1 -o %t/re1 --format canon 2> %t/re1.err
// RUN: FileCheck --check-prefix=WARN %s < %t/re1.err
// RUN: head -1 %t/re1/graph.txt | awk '{print ($6 >= 102 && $6 < 106)}' | FileCheck --check-prefix=KEPT %s
// RUN: otter-merge %t | FileCheck --check-prefix=MERGE %s
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 100; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  sleep(2); // past the interval
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    raise(SIGKILL);
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

// ERR: process rank 1 {{.*}} exited on signal 9
// WARN: the trace in '{{.*}}rank-1' was not closed
// Initial task, MPI_Init, the first 100 barriers, and no more than what
// the last flush caught of the two after the sleep.
// KEPT: 1
// MERGE: otter-merge: wrote {{.*}}/trace/ (2 ranks, 2 threads, 1 rank(s) cut off: their archives were not closed)
