// The launcher ended with SIGTERM (a batch system at its time limit, a
// user's kill): every rank writes its graph and its trace, and the job's
// archive is assembled -- although mpirun kills the remaining ranks'
// process groups as soon as the first rank has ended (each rank's writer
// leaves its process group). One line says so, rank 0's (issue 27 item 5).
// The launcher alone is signalled, as `kill` of mpirun does (a signal to
// every process at once is not yet safe: docs/mpi.md).
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && sh %S/Inputs/term-job.sh %t.ready 3 %t %mpirun -np 3 otter-run -o %t %t.prog %t.ready
// RUN: grep -c "ended by SIGTERM" %t.err | FileCheck --check-prefix=ONCE %s
// RUN: test -s %t/rank-0/graph.gv && test -s %t/rank-1/graph.gv && test -s %t/rank-2/graph.gv
// RUN: test -s %t/rank-0/nodes.csv && test -s %t/rank-1/nodes.csv && test -s %t/rank-2/nodes.csv
// RUN: otter summary %t 2> %t.sum.err | FileCheck --check-prefix=SUMMARY %s
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int it = 0;; ++it) {
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task
      usleep(100);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (it == 5 && rank == 0)
      fclose(fopen(argv[1], "w"));
  }
  MPI_Finalize();
  return 0;
}

// ONCE: 1
// SUMMARY: MPI job: 3 ranks, 6 threads
