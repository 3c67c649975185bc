// MPI calls OTTER counts but does not trace (MPI_Comm_disconnect, a
// dynamic-process call, here): the job's summary says how many, of which functions, and that
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
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Disconnecting waits for the communicator's pending messages (counted:
  // dynamic-process calls are not traced).
  for (int i = 0; i < 3; ++i) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_disconnect(&c);
  }
  int x = rank, y = -1;
  MPI_Message m;
  MPI_Status st;
  MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
  MPI_Mprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &m, &st);
  MPI_Mrecv(&y, 1, MPI_INT, &m, &st);
  printf("rank %d got %d\n", rank, y);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 got 1
// OUT: rank 1 got 0

// Over both ranks: 2 x 3 disconnects.
// SUM: messages: 2 matched; collectives: 0
// SUM-NEXT: untraced MPI calls: 6 (MPI_Comm_disconnect 6): counted only; their time is part of the computation around them

// JSON: "untraced_calls":[{"function":"MPI_Comm_disconnect","calls":6}]

// Recorded at MPI_Finalize, one event per function called.
// DUMP: mpi_untraced_calls {{.*}} function=MPI_Comm_disconnect count=3
// DUMP-NOT: mpi_untraced_calls

// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-22]]:3,1,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-20]]:3,world,3,4
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-23]]:3,0,{{[0-9]+}},{{.*}}untraced.c:[[#@LINE-21]]:3,world,3,4
// MSG-EMPTY:

// Function ids above 254 (MPI_Mprobe is 288) name their nodes too.
// GRAPH: mpi parent=n0 at={{.*}}untraced.c:[[#@LINE-26]]:3 flags=MPI_Mprobe
// GRAPH-NEXT: -> n{{[0-9]+}} scope
// GRAPH-NEXT: mpi parent=n0 at={{.*}}untraced.c:[[#@LINE-27]]:3 flags=MPI_Mrecv

