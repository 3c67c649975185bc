// Halo exchange on four ranks in a ring, two iterations, with OpenMP tasks
// and depend clauses: the exchange task posts its receives and sends and
// waits for them; the compute task depends on it. Every MPI call is a node
// of the task that made it; a completion names the node that posted its
// request (request_node), which is what the job graph joins on.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 4 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=GRAPH %s < %t/rank-1/graph.txt
// RUN: FileCheck --check-prefix=CSV --match-full-lines %s < %t/rank-1/mpi.csv
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 4
// The job's graph: 16 messages (two per neighbour and iteration), each from
// an Isend to the Waitall that completed its receive, none unmatched, and
// no cycle although every rank sends before it waits for its receives.
// RUN: sh %S/Inputs/job-graph.sh %t 4
// RUN: FileCheck --check-prefix=JOBG %s < %t/job/graph.txt
// RUN: FileCheck --check-prefix=MSG --match-full-lines %s < %t/job/messages.csv
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[4] = {rank, rank, rank, rank}; // u[0], u[3]: halo cells
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int it = 0; it < 2; ++it) {
#pragma omp task depend(inout : u)
    {
      MPI_Request r[4];
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(&u[3], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &r[1]);
      MPI_Isend(&u[2], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[2]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &r[3]);
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    }
#pragma omp task depend(inout : u)
    u[1] = u[2] = (u[0] + u[1] + u[2] + u[3]) / 4;
  }
  printf("rank %d u=%g\n", rank, u[1]);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 u=
// OUT: rank 3 u=

// GRAPH: n[[X1:[0-9]+]] task parent=n{{[0-9]+}} at={{.*}}halo.c:[[#@LINE-20]]:1 flags=has_dependences
// GRAPH: n{{[0-9]+}} mpi parent=n[[X1]] at={{.*}}halo.c:[[#@LINE-18]]:7 flags=MPI_Irecv
// GRAPH: n{{[0-9]+}} mpi parent=n[[X1]] at={{.*}}halo.c:[[#@LINE-18]]:7 flags=MPI_Irecv
// GRAPH: n{{[0-9]+}} mpi parent=n[[X1]] at={{.*}}halo.c:[[#@LINE-18]]:7 flags=MPI_Isend
// GRAPH: n{{[0-9]+}} mpi parent=n[[X1]] at={{.*}}halo.c:[[#@LINE-18]]:7 flags=MPI_Isend
// GRAPH: n[[W1:[0-9]+]] mpi parent=n[[X1]] at={{.*}}halo.c:[[#@LINE-18]]:7 flags=MPI_Waitall
// GRAPH-NEXT: -> n[[C1:[0-9]+]] dependence
// GRAPH: n[[C1]] task parent=n{{[0-9]+}} at={{.*}}halo.c:[[#@LINE-18]]:1 flags=has_dependences

// Rank 1: left is 0, right is 2; the four posts and the Waitall that
// completes them, twice.
// CSV: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV-NEXT: 1,MPI_Init_thread,call,,,,,,,,,
// CSV-NEXT: [[A:[0-9]+]],MPI_Irecv,irecv_request,world,0,0,1,8,,,,[[A]]
// CSV-NEXT: [[B:[0-9]+]],MPI_Irecv,irecv_request,world,2,2,2,8,,,,[[B]]
// CSV-NEXT: [[C:[0-9]+]],MPI_Isend,isend,world,2,2,1,8,,,,[[C]]
// CSV-NEXT: [[D:[0-9]+]],MPI_Isend,isend,world,0,0,2,8,,,,[[D]]
// CSV-NEXT: [[W:[0-9]+]],MPI_Waitall,irecv,world,0,0,1,8,,,,[[A]]
// CSV-NEXT: [[W]],MPI_Waitall,irecv,world,2,2,2,8,,,,[[B]]
// CSV-NEXT: [[W]],MPI_Waitall,isend_complete,world,2,2,1,8,,,,[[C]]
// CSV-NEXT: [[W]],MPI_Waitall,isend_complete,world,0,0,2,8,,,,[[D]]
// CSV-NEXT: [[A2:[0-9]+]],MPI_Irecv,irecv_request,world,0,0,1,8,,,,[[A2]]
// CSV-NEXT: [[B2:[0-9]+]],MPI_Irecv,irecv_request,world,2,2,2,8,,,,[[B2]]
// CSV-NEXT: [[C2:[0-9]+]],MPI_Isend,isend,world,2,2,1,8,,,,[[C2]]
// CSV-NEXT: [[D2:[0-9]+]],MPI_Isend,isend,world,0,0,2,8,,,,[[D2]]
// CSV-NEXT: [[W2:[0-9]+]],MPI_Waitall,irecv,world,0,0,1,8,,,,[[A2]]
// CSV-NEXT: [[W2]],MPI_Waitall,irecv,world,2,2,2,8,,,,[[B2]]
// CSV-NEXT: [[W2]],MPI_Waitall,isend_complete,world,2,2,1,8,,,,[[C2]]
// CSV-NEXT: [[W2]],MPI_Waitall,isend_complete,world,0,0,2,8,,,,[[D2]]
// CSV-NEXT: {{[0-9]+}},MPI_Finalize,call,,,,,,,,,
// CSV-EMPTY:

// JOBG: # otter canonical job graph v1: 4 ranks, {{[0-9]+}} nodes, {{[0-9]+}} edges, 16 messages, 0 collectives
// JOBG-NOT: unmatched
// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-50]]:7,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-48]]:7,world,1,8
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-50]]:7,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-49]]:7,world,2,8
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-52]]:7,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-50]]:7,world,1,8
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-52]]:7,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-51]]:7,world,2,8
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-54]]:7,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-52]]:7,world,1,8
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-54]]:7,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-53]]:7,world,2,8
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-56]]:7,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-54]]:7,world,1,8
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-56]]:7,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-55]]:7,world,2,8
// MSG-NEXT: matched,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-58]]:7,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-56]]:7,world,1,8
// MSG-NEXT: matched,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-58]]:7,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-57]]:7,world,2,8
// MSG-NEXT: matched,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-60]]:7,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-58]]:7,world,1,8
// MSG-NEXT: matched,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-60]]:7,1,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-59]]:7,world,2,8
// MSG-NEXT: matched,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-62]]:7,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-60]]:7,world,1,8
// MSG-NEXT: matched,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-62]]:7,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-61]]:7,world,2,8
// MSG-NEXT: matched,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-64]]:7,0,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-62]]:7,world,1,8
// MSG-NEXT: matched,3,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-64]]:7,2,{{[0-9]+}},{{.*}}halo.c:[[#@LINE-63]]:7,world,2,8
// MSG-EMPTY:
