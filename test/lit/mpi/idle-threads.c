// OpenMP idle threads in a master-only hybrid code (docs/utils.md, "Idle
// threads"): after each parallel loop, rank 0's primary thread waits in
// MPI_Barrier for rank 1, which runs serial code first. Rank 0's other
// thread has no work meanwhile: that is idle time blamed on the
// MPI_Barrier call, not waiting in the loop's implicit barrier. (After
// the last loop the idle time runs on through MPI_Finalize, which on a
// loaded machine can take longer than the barriers: the finding names the
// largest cause, so the checks accept either first.)
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && env OMP_NUM_THREADS=2 %mpirun -np 2 otter-run -o %t %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t/rank-0 | FileCheck --check-prefix=SUMMARY %s
// RUN: otter diagnose %t/rank-0 | FileCheck --check-prefix=DIAG %s
// RUN: %check-states %t/rank-0
// SUMMARY: idle: {{ *}}{{[0-9.]+ [mun]?s}} of the thread time is OpenMP idle threads
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

static void spin_ms(double ms) {
  double t0 = omp_get_wtime();
  while ((omp_get_wtime() - t0) * 1e3 < ms) {
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double s = 0;
  for (int it = 0; it < 3; ++it) {
    // SUMMARY: {{^ +[0-9.]+% in MPI_Barrier at .*}}idle-threads.c:[[@LINE+9]], after the parallel region at {{.*}}idle-threads.c:[[@LINE+2]]{{$}}
    // DIAG: idle_threads: mpi at {{.*}}idle-threads.c:{{[0-9]+}}
#pragma omp parallel for num_threads(2) reduction(+ : s)
    for (int i = 0; i < 2; ++i) {
      spin_ms(1);
      s += i;
    }
    if (rank == 1)
      spin_ms(40); // rank 0 waits for this in its barrier
    MPI_Barrier(MPI_COMM_WORLD);
  }
  printf("rank %d s %g\n", rank, s);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 s 3
// OUT: rank 1 s 3
// DIAG: evidence: {{.*}}while the primary thread was {{.*}}in MPI_Barrier at {{.*}}idle-threads.c:[[@LINE-9]], {{.*}}Overlap the MPI call
