// A job's critical path that repeats: a ping-pong between two ranks, each
// working 2 ms before it answers, twenty times. `otter parallelism` shows
// the repeated run once, with its repeats, each step with its rank and
// "->" where the path crosses to the other rank (issue 27 item 6: LULESH's
// path had 18,969 rows); --full lists every step.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog > /dev/null
// RUN: otter parallelism %t | FileCheck %s
// RUN: otter parallelism --full --top 0 %t | grep -c -- '-> rank' | FileCheck --check-prefix=FULL %s
#include <mpi.h>
#include <time.h>

static void work(void) {
  struct timespec T0, T;
  clock_gettime(CLOCK_MONOTONIC, &T0);
  do
    clock_gettime(CLOCK_MONOTONIC, &T);
  while ((T.tv_sec - T0.tv_sec) * 1000000000L + (T.tv_nsec - T0.tv_nsec) <
         2000000L);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(1)
  {
  }
  for (int i = 0; i < 20; ++i) {
    if (rank == 0) {
      work();
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      work();
      MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}

// CHECK: critical path ({{[0-9]+}} steps, crossing ranks {{[0-9]+}} times; a run of steps repeated back to back is shown once
// CHECK: {{[12][0-9]}} times, {{[0-9]+}} steps each:
// CHECK-DAG: -> rank 1 mpi {{.*}}path-condensed.c:[[#@LINE-11]] 0 ns MPI_Recv
// CHECK-DAG: -> rank 0 mpi {{.*}}path-condensed.c:[[#@LINE-14]] 0 ns MPI_Recv
// FULL: {{[3-4][0-9]}}
