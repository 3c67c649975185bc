// Persistent requests: a ring of 3 ranks, each posting MPI_Recv_init and
// MPI_Send_init once and starting them 3 times with MPI_Startall, completed
// by MPI_Waitall; one more round started with MPI_Start and completed by an
// MPI_Test loop. Every start is a message (9 + 3 matched), sent from the
// MPI_Startall / MPI_Start that posted it to the call that completed its
// receive; an inactive persistent request in a Waitall records nothing.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 3 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=CSV0 --match-full-lines %s < %t/rank-0/mpi.csv
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 3
// RUN: sh %S/Inputs/job-graph.sh %t 3
// RUN: FileCheck --check-prefix=MSG %s < %t/job/messages.csv
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, in = -1, out, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request r[2];
  MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD,
                &r[0]);
  MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &r[1]);
  for (int step = 0; step < 3; ++step) {
    out = rank * 10 + step;
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    sum += in;
  }
  // Both inactive now: a Waitall returns at once and completes nothing.
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  out = 100 + rank;
  MPI_Start(&r[1]);
  MPI_Start(&r[0]);
  int flag = 0;
  while (!flag)
    MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  printf("rank %d sum=%d last=%d\n", rank, sum, in);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 sum=63 last=102
// OUT: rank 1 sum=3 last=100
// OUT: rank 2 sum=33 last=101

// CSV0: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV0-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV0-NEXT: 2,MPI_Recv_init,call,,,,,,,,,
// CSV0-NEXT: 3,MPI_Send_init,call,,,,,,,,,
// CSV0-NEXT: 4,MPI_Startall,irecv_request,world,2,2,7,4,,,,4
// CSV0-NEXT: 4,MPI_Startall,isend,world,1,1,7,4,,,,4
// CSV0-NEXT: 5,MPI_Waitall,{{irecv|isend_complete}},world,{{.*}}
// CSV0-NEXT: 5,MPI_Waitall,{{irecv|isend_complete}},world,{{.*}}
// CSV0-NEXT: 6,MPI_Startall,irecv_request,world,2,2,7,4,,,,6
// CSV0-NEXT: 6,MPI_Startall,isend,world,1,1,7,4,,,,6
// CSV0: 10,MPI_Waitall,call,,,,,,,,,
// CSV0-NEXT: 11,MPI_Start,isend,world,1,1,7,4,,,,11
// CSV0-NEXT: 12,MPI_Start,irecv_request,world,2,2,7,4,,,,12
// CSV0-NEXT: 13,MPI_Test,irecv,world,2,2,7,4,,,,12
// CSV0-NEXT: 14,MPI_Wait,isend_complete,world,1,1,7,4,,,,11
// CSV0-NEXT: 15,MPI_Request_free,call,,,,,,,,,

// Rank 0's sends go from its MPI_Startall / MPI_Start to rank 1.
// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG: matched,0,4,{{.*}}persistent.c:[[#@LINE-43]]:5,1,5,{{.*}}persistent.c:[[#@LINE-42]]:5,world,7,4
// MSG: matched,0,11,{{.*}}persistent.c:[[#@LINE-37]]:3,1,13,{{.*}}persistent.c:[[#@LINE-33]]:5,world,7,4
// MSG-NOT: unmatched

// SUM: messages: 12 matched
