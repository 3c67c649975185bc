// The MPI + OpenMP example (docs/mpi.md): a 1-D heat equation split across
// the ranks of a ring. Each step, one OpenMP task exchanges the halo cells
// with the two neighbours (MPI_Isend/Irecv + MPI_Waitall) while tasks update
// the interior blocks; the edge blocks depend on the exchange. An
// MPI_Allreduce checks the total heat at the end.
//
//   mpicc -fopenmp examples/hybrid.c -o hybrid     # or with OTTER's plugin
//   mpirun -np 4 build/bin/otter-run ./hybrid
#include <mpi.h>
#include <stdio.h>

enum { N = 64, Blocks = 4, Steps = 3 };

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[N + 2], v[N + 2]; // u[0], u[N + 1]: halo cells
  for (int i = 0; i < N + 2; ++i)
    u[i] = rank == 0 && i == N / 2 ? 1000.0 : 0.0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int step = 0; step < Steps; ++step) {
#pragma omp task depend(out : u[0], u[N + 1])
    {
      MPI_Request r[4];
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[1]);
      MPI_Isend(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[2]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[3]);
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    }
    for (int b = 0; b < Blocks; ++b) {
      int lo = 1 + b * (N / Blocks), hi = lo + N / Blocks;
#pragma omp task depend(in : u[lo - 1], u[hi]) depend(out : v[lo])
      for (int i = lo; i < hi; ++i)
        v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
    }
#pragma omp taskwait
    for (int i = 1; i <= N; ++i)
      u[i] = v[i];
  }
  double local = 0, total = 0;
  for (int i = 1; i <= N; ++i)
    local += u[i];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("total heat %.1f on %d ranks\n", total, size);
  MPI_Finalize();
  return 0;
}
