// Clock offsets: measured at MPI_Init and MPI_Finalize only when some rank
// is on another host than rank 0 (never on one host), or when asked with
// OTTER_MPI_CLOCK_SYNC=1: then every rank but 0 records two MpiClockOffset
// events (parameter otter:event, value 43), which do not change the graph.
// REQUIRES: mpi
// RUN: %clang -fopenmp %mpi_cflags %s %mpi_libs -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f canon %t.prog
// RUN: otf2-print %t/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=NONE %s
// RUN: rm -rf %t.s && %mpirun -np 2 -x OTTER_MPI_CLOCK_SYNC=1 otter-run -o %t.s -f canon %t.prog
// RUN: otf2-print %t.s/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: otf2-print %t.s/rank-0/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=NONE %s
// RUN: diff %t/rank-1/graph.txt %t.s/rank-1/graph.txt
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

// NONE: 0
// TWO: 2
