// A one-sided epoch where one rank is late: rank 1 works 300 ms before its
// MPI_Put, so rank 0 waits in the closing MPI_Win_fence. The fences are
// barrier instances on the window, so the wait is found (Wait at Barrier at
// the fence), and its delay cost is charged to rank 1's work since the
// previous call that could have waited -- the opening fence, not the
// MPI_Put, which returns at once.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose %t | FileCheck --check-prefix=DIAG %s
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, *base;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &base, &win);
  MPI_Win_fence(0, win);
  if (rank == 1)
    usleep(300000);
  int v = 10 + rank;
  MPI_Put(&v, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  printf("rank %d got %d\n", rank, *base);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 got 11
// OUT: rank 1 got 10

// DIAG: wait_at_collective: mpi at {{.*}}fence-wait.c:[[#@LINE-10]] MPI_Win_fence
// DIAG: Wait at Barrier
// DIAG: ranks: rank 0 {{[0-9.]+ m?s}}
// DIAG: delay_cost: mpi at rank 1's work from {{.*}}fence-wait.c:[[#@LINE-18]] MPI_Win_fence to {{.*}}fence-wait.c:[[#@LINE-13]] MPI_Win_fence
