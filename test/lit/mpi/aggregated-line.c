// An MPI job whose ranks' graphs are above OTTER_DOT_MAX_NODES: every
// rank writes an aggregated graph.gv, and the job says so in one line
// (rank 0's, as for the "wrote" line), not one line per rank (issue 27
// item 6).
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && env OTTER_DOT_MAX_NODES=5 %mpirun -np 3 otter-run -o %t %t.prog > %t.out 2> %t.err
// RUN: grep -c "is aggregated" %t.err | FileCheck --check-prefix=ONCE %s
// RUN: FileCheck --check-prefix=LINE %s < %t.err
// RUN: grep -l "aggregated" %t/rank-0/graph.gv %t/rank-1/graph.gv %t/rank-2/graph.gv | wc -l | FileCheck --check-prefix=ALL %s
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 4; ++i) {
#pragma omp task shared(n)
    {
#pragma omp atomic
      n += 1;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return n == 4 ? 0 : 1;
}

// ONCE: 1
// LINE: otter: rank-0/graph.gv is aggregated, one node per construct ({{[0-9]+}} nodes > OTTER_DOT_MAX_NODES=5), as is every rank's above that many nodes; the full graphs are in nodes.csv and graph.csv
// ALL: 3
