// Neighbourhood collectives record the bytes they send to their
// topology's neighbours (docs/mpi.md): a distributed graph where each of
// the 2 ranks sends to the other (out-degree 1) and a 2-D periodic
// Cartesian grid (2 neighbours per dimension: 4), through the blocking,
// v-, w- and non-blocking forms; `otter summary` sums them per function
// over the ranks, and each rank's mpi.csv has a transfer line per call.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
// RUN: FileCheck --check-prefix=CSV %s < %t/rank-1/mpi.csv
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  MPI_Comm pair;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &other, MPI_UNWEIGHTED,
                                 1, &other, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &pair);
  // v-form: 3 ints to the one neighbour (12 bytes).
  int sv[3] = {rank, rank, rank}, rv[3];
  int counts[1] = {3}, displs[1] = {0};
  MPI_Neighbor_alltoallv(sv, counts, displs, MPI_INT, rv, counts, displs,
                         MPI_INT, pair);
  // w-form: 2 doubles (16 bytes).
  double sw[2] = {rank, rank}, rw[2];
  int wc[1] = {2};
  MPI_Aint wd[1] = {0};
  MPI_Datatype wt[1] = {MPI_DOUBLE};
  MPI_Neighbor_alltoallw(sw, wc, wd, wt, rw, wc, wd, wt, pair);
  // Non-blocking: one int (4 bytes).
  int one = rank, got = -1;
  MPI_Request req;
  MPI_Ineighbor_allgather(&one, 1, MPI_INT, &got, 1, MPI_INT, pair, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  // A 2 x 1 periodic grid: 4 neighbours, one int to each (16 bytes).
  MPI_Comm grid;
  int dims[2] = {2, 1}, periods[2] = {1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int sg[4] = {rank, rank, rank, rank}, rg[4];
  MPI_Neighbor_alltoall(sg, 1, MPI_INT, rg, 1, MPI_INT, grid);
  printf("rank %d got %d %d %g %d\n", rank, rv[0], got, rw[1], rg[0]);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&pair);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 got 1 1 1 1
// OUT: rank 1 got 0 0 0 0

// SUM: one-sided, file I/O and neighbourhood bytes per function
// SUM-NEXT: function calls bytes
// SUM-NEXT: MPI_Neighbor_alltoall 2 32
// SUM-NEXT: MPI_Neighbor_alltoallw 2 32
// SUM-NEXT: MPI_Neighbor_alltoallv 2 24
// SUM-NEXT: MPI_Ineighbor_allgather 2 8
// SUM-EMPTY:

// CSV: MPI_Neighbor_alltoallv,transfer,world/1,-,-,,12,,,,
// CSV: MPI_Neighbor_alltoallw,transfer,world/1,-,-,,16,,,,
// CSV: MPI_Ineighbor_allgather,transfer,world/1,-,-,,4,,,,
// CSV: MPI_Neighbor_alltoall,transfer,world/2,-,-,,16,,,,
