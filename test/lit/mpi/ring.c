// A ring of four ranks, each sending and receiving inside two OpenMP tasks
// (MPI_THREAD_MULTIPLE): every MPI call is a node of the task that made it,
// with its exact line, and rank-N/mpi.csv names the ring's neighbours in
// MPI_COMM_WORLD. The graphs rebuilt from the archives are the same.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 4 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=GRAPH %s < %t/rank-3/graph.txt
// RUN: FileCheck --check-prefix=CSV0 --match-full-lines %s < %t/rank-0/mpi.csv
// RUN: FileCheck --check-prefix=CSV3 --match-full-lines %s < %t/rank-3/mpi.csv
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 4
// The job's graph: each rank's send task to its right neighbour's receive
// task, four messages around the ring.
// RUN: sh %S/Inputs/job-graph.sh %t 4
// RUN: FileCheck --check-prefix=MSG --match-full-lines %s < %t/job/messages.csv
// RUN: otter export --format perfetto -o %t/perfetto.json %t
// RUN: python3 %S/Inputs/perfetto-mpi.py %t/perfetto.json 1 | FileCheck --check-prefix=PERFETTO %s
// picture and diff take a job: the aggregated graph of every rank; the job
// against itself, per construct over all ranks (each MPI call site: 4).
// RUN: otter picture -o %t/job.svg %t | FileCheck --check-prefix=PICTURE %s
// RUN: grep -q "ring.c" %t/job.svg
// RUN: otter diff --json %t %t > %t/diff.json
// RUN: python3 %S/Inputs/diff-rows.py %t/diff.json | FileCheck --check-prefix=DIFF %s
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out = rank, in = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
#pragma omp task
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  printf("rank %d got %d\n", rank, in);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 got 3
// OUT: rank 1 got 0
// OUT: rank 2 got 1
// OUT: rank 3 got 2

// Which implicit task runs the single depends on the build (the team's
// members are ordered by a hash of their work, labels included): node
// numbers inside the team are matched, not written out.
// GRAPH: n1 mpi parent=n0 at={{.*}}ring.c:[[#@LINE-26]]:3 flags=MPI_Init_thread
// GRAPH: n{{[0-9]+}} single_begin parent=n[[IMPL:[0-9]+]] {{.*}} flags=executor
// GRAPH: n[[T1:[0-9]+]] task parent=n[[IMPL]] at={{.*}}ring.c:[[#@LINE-21]]:1
// GRAPH: n{{[0-9]+}} mpi parent=n[[T1]] at={{.*}}ring.c:[[#@LINE-21]]:5 flags=MPI_Send
// GRAPH: n[[T2:[0-9]+]] task parent=n[[IMPL]] at={{.*}}ring.c:[[#@LINE-21]]:1
// GRAPH: n{{[0-9]+}} mpi parent=n[[T2]] at={{.*}}ring.c:[[#@LINE-21]]:5 flags=MPI_Recv
// GRAPH: n16 mpi parent=n0 at={{.*}}ring.c:[[#@LINE-18]]:3 flags=MPI_Finalize

// CSV0: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV0-NEXT: 1,MPI_Init_thread,call,,,,,,,,,
// CSV0-NEXT: {{[0-9]+}},MPI_Send,send,world,1,1,3,4,,,,
// CSV0-NEXT: {{[0-9]+}},MPI_Recv,recv,world,3,3,3,4,,,,
// CSV0-NEXT: 16,MPI_Finalize,call,,,,,,,,,

// CSV3: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV3-NEXT: 1,MPI_Init_thread,call,,,,,,,,,
// CSV3-NEXT: {{[0-9]+}},MPI_Send,send,world,0,0,3,4,,,,
// CSV3-NEXT: {{[0-9]+}},MPI_Recv,recv,world,2,2,3,4,,,,
// CSV3-NEXT: 16,MPI_Finalize,call,,,,,,,,,

// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-39]]:5,1,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-37]]:5,world,3,4
// MSG-NEXT: matched,1,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-40]]:5,2,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-38]]:5,world,3,4
// MSG-NEXT: matched,2,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-41]]:5,3,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-39]]:5,world,3,4
// MSG-NEXT: matched,3,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-42]]:5,0,{{[0-9]+}},{{.*}}ring.c:[[#@LINE-40]]:5,world,3,4
// MSG-EMPTY:

// PERFETTO-DAG: MPI_Send ring.c:[[#@LINE-45]] | send to rank 2, tag 3, 4 bytes
// PERFETTO-DAG: MPI_Recv ring.c:[[#@LINE-44]] | receive from rank 0, tag 3, 4 bytes
// PERFETTO: arrows: 4 message, 0 collective; problems: none

// PICTURE: wrote {{.*}}job.svg (aggregated graph): an MPI job: one node per source construct of every rank (the job's full graph, with its messages: otter-graph JOB)
// DIFF-DAG: mpi ring.c:[[#@LINE-50]] 4 4 same
// DIFF-DAG: mpi ring.c:[[#@LINE-49]] 4 4 same
// DIFF-NOT: different
// DIFF: only in A: 0, only in B: 0
