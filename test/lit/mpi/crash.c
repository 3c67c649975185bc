// A rank crashes (SIGSEGV): its trace is saved from a forked copy as for a
// process without MPI, and the launcher's SIGTERM makes the other rank
// write its trace and graph. Both read back; the crash ends the job as without OTTER.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && not %mpirun -np 2 otter-run -o %t %t.prog 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: otter-graph %t/rank-1 -o %t/re1 --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t/re1/graph.txt
// RUN: otter-graph %t/rank-0 -o %t/re0 --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t/re0/graph.txt
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    volatile int *p = 0;
    *p = 1;
  }
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

// ERR-DAG: otter: the program crashed; saved the trace in {{.*}}/rank-1/trace/
// ERR-DAG: otter: the program was ended by SIGTERM; writing what was recorded
// ERR-DAG: otter: wrote {{.*}}/rank-0/ (
// ERR-DAG: exited on signal 11

// GRAPH: n1 mpi parent=n0 at={{.*}}crash.c:[[#@LINE-18]]:3 flags=MPI_Init
// GRAPH: n2 mpi parent=n0 at={{.*}}crash.c:[[#@LINE-16]]:3 flags=MPI_Barrier
// GRAPH-EMPTY:
