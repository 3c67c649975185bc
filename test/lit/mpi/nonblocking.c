// Non-blocking point-to-point: Isend/Irecv completed by MPI_Waitall, by an
// MPI_Testsome loop, by an MPI_Test loop and by MPI_Waitany, with a
// wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) whose completion carries
// the real source, tag and size. Unsuccessful tests make no node (their
// number depends on timing); the successful one completes its request.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=CSV0 --match-full-lines %s < %t/rank-0/mpi.csv
// RUN: FileCheck --check-prefix=CSV1 --match-full-lines %s < %t/rank-1/mpi.csv
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 2
// The job's graph: a message edge from each send (the Isend itself, not
// the Wait that completes it) to the call that completed its receive; the
// wildcard receive matched by the source and tag it got.
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: FileCheck --check-prefix=MSG --match-full-lines %s < %t/job/messages.csv
// RUN: FileCheck --check-prefix=JOBG %s < %t/job/graph.txt
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, a[2] = {0, 0}, b[3] = {7, 8, 9};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request r[2];
  if (rank == 0) {
    MPI_Irecv(a, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(b, 3, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    // rank 1 sends late: the loop tests many times, one test succeeds
    int done = 0, idx[1];
    MPI_Irecv(a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[0]);
    while (!done)
      MPI_Testsome(1, r, &done, idx, MPI_STATUSES_IGNORE);
    int flag = 0;
    MPI_Irecv(a, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r[0]);
    while (!flag)
      MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  } else {
    MPI_Irecv(b, 3, MPI_INT, 0, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[1]);
    int i1, i2;
    MPI_Waitany(2, r, &i1, MPI_STATUS_IGNORE);
    MPI_Waitany(2, r, &i2, MPI_STATUS_IGNORE);
    usleep(20000);
    MPI_Send(a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    usleep(20000);
    MPI_Send(a, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
  }
  printf("rank %d b=%d,%d,%d\n", rank, b[0], b[1], b[2]);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 b=7,8,9
// OUT: rank 1 b=7,8,9

// The wildcard receive completes with rank 1's tag 9 and 8 bytes.
// CSV0: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV0-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV0-NEXT: 2,MPI_Irecv,irecv_request,world,-,-,any,8,,,,2
// CSV0-NEXT: 3,MPI_Isend,isend,world,1,1,4,12,,,,3
// CSV0-NEXT: 4,MPI_Waitall,irecv,world,1,1,9,8,,,,2
// CSV0-NEXT: 4,MPI_Waitall,isend_complete,world,1,1,4,12,,,,3
// CSV0-NEXT: 5,MPI_Irecv,irecv_request,world,1,1,5,4,,,,5
// CSV0-NEXT: 6,MPI_Testsome,irecv,world,1,1,5,4,,,,5
// CSV0-NEXT: 7,MPI_Irecv,irecv_request,world,1,1,6,4,,,,7
// CSV0-NEXT: 8,MPI_Test,irecv,world,1,1,6,4,,,,7
// CSV0-NEXT: 9,MPI_Finalize,call,,,,,,,,,
// CSV0-EMPTY:

// CSV1: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV1-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV1-NEXT: 2,MPI_Irecv,irecv_request,world,0,0,4,12,,,,2
// CSV1-NEXT: 3,MPI_Isend,isend,world,0,0,9,8,,,,3
// CSV1-NEXT: 4,MPI_Waitany,{{irecv|isend_complete}},world,0,0,{{.*}}
// CSV1-NEXT: 5,MPI_Waitany,{{irecv|isend_complete}},world,0,0,{{.*}}
// CSV1-NEXT: 6,MPI_Send,send,world,0,0,5,4,,,,
// CSV1-NEXT: 7,MPI_Send,send,world,0,0,6,4,,,,
// CSV1-NEXT: 8,MPI_Finalize,call,,,,,,,,,

// Which MPI_Waitany completes rank 1's receive is timing (n4 or n5).
// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,3,{{.*}}nonblocking.c:[[#@LINE-56]]:5,1,{{4|5}},{{.*}}nonblocking.c:{{[0-9]+}}:5,world,4,12
// MSG-NEXT: matched,1,3,{{.*}}nonblocking.c:[[#@LINE-44]]:5,0,4,{{.*}}nonblocking.c:[[#@LINE-56]]:5,world,9,8
// MSG-NEXT: matched,1,6,{{.*}}nonblocking.c:[[#@LINE-40]]:5,0,6,{{.*}}nonblocking.c:[[#@LINE-52]]:7,world,5,4
// MSG-NEXT: matched,1,7,{{.*}}nonblocking.c:[[#@LINE-39]]:5,0,8,{{.*}}nonblocking.c:[[#@LINE-49]]:7,world,6,4
// MSG-EMPTY:

// JOBG: # otter canonical job graph v1: 2 ranks, 19 nodes, 21 edges, 4 messages, 0 collectives
// JOBG-NOT: unmatched
// JOBG: r0.n3 mpi parent=r0.n0 at={{.*}}nonblocking.c:[[#@LINE-64]]:5 flags=MPI_Isend
// JOBG-NEXT: -> r0.n4 scope
// JOBG-NEXT: -> r1.n{{4|5}} message at={{.*}}nonblocking.c:{{[0-9]+}}:5
// JOBG: r1.n4 mpi parent=r1.n0 at={{.*}}nonblocking.c:[[#@LINE-52]]:5 flags=MPI_Waitany
// JOBG: r1.n5 mpi parent=r1.n0 at={{.*}}nonblocking.c:[[#@LINE-52]]:5 flags=MPI_Waitany
