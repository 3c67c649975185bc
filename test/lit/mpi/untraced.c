// MPI calls OTTER counts but does not trace (one-sided communication
// here): the job's summary says how many, of which functions, and that
// their time counts as computation; the program's output is unchanged.
// The matched probe and receive (MPI_Mprobe, MPI_Mrecv) are traced: their
// messages match the sends.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
// RUN: otter summary --json %t | FileCheck --check-prefix=JSON %s
// RUN: otter dump %t/rank-0 | FileCheck --check-prefix=DUMP %s
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: FileCheck --check-prefix=MSG %s < %t/job/messages.csv
// RUN: FileCheck --check-prefix=GRAPH %s < %t/rank-0/graph.txt
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, *window;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // MPI_Win_allocate: Open MPI's shared-memory one-sided component serves
  // it with the test suite's transports (MPI_Win_create needs others).
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &window, &win);
  for (int i = 0; i < 4; ++i)
    window[i] = 0;
  MPI_Win_fence(0, win);
  for (int i = 0; i < 3; ++i) {
    int v = rank * 10 + i;
    MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, i, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
  }
  int x = rank, y = -1;
  MPI_Message m;
  MPI_Status st;
  MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Mprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &m, &st);
  MPI_Mrecv(&y, 1, MPI_INT, &m, &st);
  printf("rank %d got %d,%d,%d and %d\n", rank, window[0], window[1],
         window[2], y);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 got 10,11,12 and 1
// OUT: rank 1 got 0,1,2 and 0

// Over both ranks: 2 x (allocate, 4 fences, 3 puts, free).
// SUM: messages: 2 matched; collectives: 0
// SUM-NEXT: untraced MPI calls: 18 (MPI_Win_fence 8, MPI_Put 6, MPI_Win_allocate 2, MPI_Win_free 2): counted only; their time is part of the computation around them

// JSON: "untraced_calls":[{"function":"MPI_Win_fence","calls":8},{"function":"MPI_Put","calls":6},{"function":"MPI_Win_allocate","calls":2},{"function":"MPI_Win_free","calls":2}]

// Recorded at MPI_Finalize, one event per function called.
// DUMP-DAG: mpi_untraced_calls {{.*}} function=MPI_Win_allocate count=1
// DUMP-DAG: mpi_untraced_calls {{.*}} function=MPI_Win_fence count=4
// DUMP-DAG: mpi_untraced_calls {{.*}} function=MPI_Put count=3
// DUMP-DAG: mpi_untraced_calls {{.*}} function=MPI_Win_free count=1
// DUMP-NOT: mpi_untraced_calls

// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-27]]:3,1,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-25]]:3,world,3,4
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-28]]:3,0,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-26]]:3,world,3,4
// MSG-EMPTY:

// Function ids above 254 (MPI_Mprobe is 288) name their nodes too.
// GRAPH: mpi parent=n0 at={{.*}}untraced.c:[[#@LINE-31]]:3 flags=MPI_Mprobe
// GRAPH-NEXT: -> n{{[0-9]+}} scope
// GRAPH-NEXT: mpi parent=n0 at={{.*}}untraced.c:[[#@LINE-32]]:3 flags=MPI_Mrecv

