// Clock offsets: every rank records two MpiClockOffset events (parameter
// otter:event, value 43), at MPI_Init and MPI_Finalize: its trace clock's
// error, plus its host's offset to rank 0's, which is measured with
// ping-pongs only when the rank is on another host than rank 0 or when
// asked with OTTER_MPI_CLOCK_SYNC=1; =0 records none. They do not change
// the graph.
// REQUIRES: mpi
// RUN: %clang -fopenmp %mpi_cflags %s %mpi_libs -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f canon %t.prog
// RUN: otf2-print %t/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: otf2-print %t/rank-0/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: rm -rf %t.n && %mpirun -np 2 -x OTTER_MPI_CLOCK_SYNC=0 otter-run -o %t.n -f canon %t.prog
// RUN: otf2-print %t.n/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=NONE %s
// RUN: rm -rf %t.s && %mpirun -np 2 -x OTTER_MPI_CLOCK_SYNC=1 otter-run -o %t.s -f canon %t.prog
// RUN: otf2-print %t.s/rank-1/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: otf2-print %t.s/rank-0/trace/traces.otf2 | awk '/Value: 43$/ {n++} END {print n+0}' | FileCheck --check-prefix=TWO %s
// RUN: diff %t/rank-1/graph.txt %t.s/rank-1/graph.txt
// RUN: diff %t/rank-1/graph.txt %t.n/rank-1/graph.txt
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

// NONE: 0
// TWO: 2
