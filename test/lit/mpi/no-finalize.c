// OpenMP before MPI_Init (libomp starts the tool first: the MPI calls join
// the same initial task, after the parallel region), MPI inside a later
// parallel region, and no MPI_Finalize at all: the process still writes its
// trace and graph at exit, per rank. (The launcher ends the job when the
// first rank exits without MPI_Finalize: a rank still exiting then saves
// its trace on the SIGTERM, so the graphs are checked as rebuilt from the
// traces, which is the same either way.)
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && sh -c '%mpirun -np 2 otter-run -o %t -f all %t.prog > %t.out 2> %t.err; echo status=$?'
// RUN: sort %t.out | FileCheck --check-prefix=OUT %s
// RUN: otter-graph %t/rank-0 -o %t/re0 --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t/re0/graph.txt
// RUN: otter-graph %t/rank-1 -o %t/re1 --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t/re1/graph.txt
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int threads = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  threads++;
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
#pragma omp masked
  MPI_Allreduce(MPI_IN_PLACE, &threads, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d threads %d\n", rank, threads);
  return 0; // no MPI_Finalize
}

// OUT: rank 0 threads 4
// OUT: rank 1 threads 4

// GRAPH: n0 initial_task
// GRAPH: n{{[0-9]+}} parallel_begin parent=n0 at={{.*}}no-finalize.c:[[#@LINE-17]]:1
// GRAPH: n[[P:[0-9]+]] parallel_end parent=n0
// GRAPH: n{{[0-9]+}} mpi parent=n0 at={{.*}}no-finalize.c:[[#@LINE-15]]:3 flags=MPI_Init_thread
// GRAPH: n{{[0-9]+}} parallel_begin parent=n0 at={{.*}}no-finalize.c:[[#@LINE-14]]:1
// GRAPH: n[[M:[0-9]+]] masked_begin
// GRAPH: n{{[0-9]+}} mpi parent=n{{[0-9]+}} at={{.*}}no-finalize.c:[[#@LINE-14]]:3 flags=MPI_Allreduce
// GRAPH-NOT: MPI_Finalize
