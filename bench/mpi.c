// MPI benchmark program for bench/mpi.py (the wrapper's cost per call and
// the job archive's close time).
//   mpi pingpong N   rank 0 and 1 bounce an 8-byte message N times
//   mpi allreduce N  every rank: N MPI_Allreduce of one double
//   mpi put N        every rank: N MPI_Put of one double into the next
//                    rank's window, in one fence epoch (a one-sided call
//                    that does not wait)
//   mpi work N       every rank: N rounds of 16 OpenMP tasks and a ring
//                    exchange, then an allreduce (a realistic small trace)
// Prints "loop_ns=<ns per iteration>" (rank 0) and, from every rank,
// "end=<CLOCK_MONOTONIC ns>" as main returns: what is after that is the
// tool's finish (and the job archive's assembly) and process exit.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *Mode = argc > 1 ? argv[1] : "pingpong";
  long N = argc > 2 ? atol(argv[2]) : 10000;
  double x = rank, y = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  long long T0 = nowNs();
  if (!strcmp(Mode, "pingpong")) {
    for (long I = 0; I < N && rank < 2; ++I) {
      if (rank == 0) {
        MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      }
    }
  } else if (!strcmp(Mode, "allreduce")) {
    for (long I = 0; I < N; ++I)
      MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(Mode, "put")) {
    double *Base;
    MPI_Win Win;
    MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &Base, &Win);
    MPI_Win_fence(0, Win);
    T0 = nowNs();
    for (long I = 0; I < N; ++I)
      MPI_Put(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, 1, MPI_DOUBLE, Win);
    MPI_Win_fence(0, Win);
    MPI_Win_free(&Win);
  } else {
    for (long I = 0; I < N; ++I) {
      double Sum = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
      for (int T = 0; T < 16; ++T) {
#pragma omp task shared(Sum)
        {
#pragma omp atomic
          Sum += T;
        }
      }
      MPI_Sendrecv(&Sum, 1, MPI_DOUBLE, (rank + 1) % size, 1, &y, 1,
                   MPI_DOUBLE, (rank + size - 1) % size, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  long long T1 = nowNs();
  if (rank == 0)
    printf("loop_ns=%.1f\n", (double)(T1 - T0) / (double)N);
  MPI_Finalize();
  printf("end=%lld\n", nowNs());
  fflush(stdout);
  return 0;
}
