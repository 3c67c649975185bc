// A hybrid MPI + OpenMP job of a fixed size per rank, for bench/job_scale.py
// (how the utilities' time and memory on a job grow with its ranks: weak
// scaling, the same events on every rank at every job size).
//   job_gen STEPS TASKS
// Every step, on every rank: a halo exchange with both neighbours of a ring
// (two MPI_Irecv, two MPI_Isend, one MPI_Waitall), a parallel region whose
// single thread makes TASKS tasks of a little arithmetic and waits for them
// (taskwait), and an MPI_Allreduce of one double. So per rank and step:
// 6 MPI calls (4 messages, 1 collective instance) and TASKS tasks; the
// number of threads is OMP_NUM_THREADS. Rank 0 prints "events: ..." with
// the counts per rank, to be quoted with the measurements.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int Seed) {
  double X = Seed;
  for (int I = 0; I < 2000; ++I)
    X = X * 0.999 + 1.0 / (1.0 + I);
  return X;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int Steps = argc > 1 ? atoi(argv[1]) : 100;
  int Tasks = argc > 2 ? atoi(argv[2]) : 8;
  int Left = (rank + size - 1) % size, Right = (rank + 1) % size;
  double Halo[2] = {0, 0}, Edge[2] = {rank, rank}, Total = 0;
  for (int S = 0; S < Steps; ++S) {
    MPI_Request Req[4];
    MPI_Irecv(&Halo[0], 1, MPI_DOUBLE, Left, 1, MPI_COMM_WORLD, &Req[0]);
    MPI_Irecv(&Halo[1], 1, MPI_DOUBLE, Right, 2, MPI_COMM_WORLD, &Req[1]);
    MPI_Isend(&Edge[1], 1, MPI_DOUBLE, Right, 1, MPI_COMM_WORLD, &Req[2]);
    MPI_Isend(&Edge[0], 1, MPI_DOUBLE, Left, 2, MPI_COMM_WORLD, &Req[3]);
    MPI_Waitall(4, Req, MPI_STATUSES_IGNORE);
    double Sum = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int T = 0; T < Tasks; ++T) {
#pragma omp task shared(Sum) firstprivate(T)
        {
          double V = work(T + S);
#pragma omp atomic
          Sum += V;
        }
      }
#pragma omp taskwait
    }
    Edge[0] = Halo[0] + Sum;
    Edge[1] = Halo[1] + Sum;
    double Local = Edge[0] + Edge[1];
    MPI_Allreduce(&Local, &Total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("events: %d ranks, per rank %d steps: %d MPI calls, %d tasks, "
           "%d parallel regions; total %.6g\n",
           size, Steps, Steps * 6, Steps * Tasks, Steps, Total);
  MPI_Finalize();
  return 0;
}
