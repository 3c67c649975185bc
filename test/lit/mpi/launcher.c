// otter-run: its options set the OTTER_* variables, it refuses what it does
// not know in one line, and it preloads the MPI wrappers into an MPI program
// only, whether run by mpirun or alone (a singleton MPI process).
// REQUIRES: mpi
// RUN: otter-run --help | FileCheck --check-prefix=HELP %s
// RUN: not otter-run --frobnicate %t.prog 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: not otter-run 2>&1 | FileCheck --check-prefix=USAGE %s
// RUN: not otter-run ./no-such-program 2>&1 | FileCheck --check-prefix=MISSING %s
// RUN: %clang -fopenmp %mpi_cflags %s %mpi_libs -o %t.prog
// RUN: rm -rf %t && otter-run -o %t --formats canon --no-trace %t.prog | FileCheck --check-prefix=SINGLETON %s
// RUN: ls %t | FileCheck --check-prefix=ALONE %s
// RUN: rm -rf %t.j && %mpirun -np 2 otter-run -o %t.j %t.prog | sort | FileCheck --check-prefix=JOB %s
// RUN: rm -rf %t.n && otter-run --no-mpi -o %t.n %t.prog | FileCheck --check-prefix=NOMPI %s
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *P = getenv("LD_PRELOAD"), *F = getenv("OTTER_GRAPH_FORMAT"),
             *T = getenv("OTTER_TRACE");
  printf("rank %d wrappers %d formats %s trace %s\n", rank,
         P && strstr(P, "libotter-mpi.so") != NULL, F ? F : "-", T ? T : "-");
  MPI_Finalize();
  return 0;
}

// HELP: otter-run: run a program under OTTER, with or without MPI.
// HELP: -o, --output DIR
// BAD: otter-run: unknown option '--frobnicate'; otter-run --help lists the options
// USAGE: usage: otter-run
// MISSING: otter-run: cannot find the program './no-such-program'
// SINGLETON: rank 0 wrappers 1 formats canon trace 0
// ALONE: graph.txt
// ALONE-EMPTY:
// JOB: rank 0 wrappers 1 formats - trace -
// JOB: rank 1 wrappers 1 formats - trace -
// NOMPI: rank 0 wrappers 0
