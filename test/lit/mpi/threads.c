// MPI_THREAD_MULTIPLE: both threads of each rank call MPI at once, in their
// implicit tasks and in explicit tasks they create. Each call is a node of
// the task that made it (whichever thread ran the task); mpi.csv tells the
// calls apart by their tags; nodes.csv shows both threads calling MPI.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=GRAPH %s < %t/rank-0/graph.txt
// RUN: FileCheck --check-prefix=CSV --match-full-lines %s < %t/rank-0/mpi.csv
// RUN: grep -c ',mpi,.*MPI_Sendrecv' %t/rank-1/nodes.csv | FileCheck --check-prefix=COUNT %s
// RUN: grep ',mpi,' %t/rank-1/nodes.csv | cut -d, -f4 | sort -u | FileCheck --check-prefix=THREADS %s
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 2
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE)
    return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
    int t = omp_get_thread_num(), in = -1, out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 10 + t, &in, 1, MPI_INT,
                 1 - rank, 10 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += in;
#pragma omp task shared(sum) firstprivate(t)
    {
      int in2 = -1, out2 = rank;
      MPI_Sendrecv(&out2, 1, MPI_INT, 1 - rank, 20 + t, &in2, 1, MPI_INT,
                   1 - rank, 20 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp atomic
      sum += in2;
    }
#pragma omp taskwait
  }
  printf("rank %d sum %d\n", rank, sum);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 sum 4
// OUT: rank 1 sum 0

// GRAPH: n[[I0:[0-9]+]] implicit_task parent=n{{[0-9]+}}
// GRAPH: n[[I1:[0-9]+]] implicit_task parent=n{{[0-9]+}}
// GRAPH-DAG: n{{[0-9]+}} mpi parent=n[[I0]] at={{.*}}threads.c:[[#@LINE-23]]:5 flags=MPI_Sendrecv
// GRAPH-DAG: n{{[0-9]+}} mpi parent=n[[I1]] at={{.*}}threads.c:[[#@LINE-24]]:5 flags=MPI_Sendrecv
// GRAPH-DAG: n[[T0:[0-9]+]] task parent=n[[I0]] at={{.*}}threads.c:[[#@LINE-22]]:1
// GRAPH-DAG: n[[T1:[0-9]+]] task parent=n[[I1]] at={{.*}}threads.c:[[#@LINE-23]]:1
// GRAPH-DAG: n{{[0-9]+}} mpi parent=n[[T0]] at={{.*}}threads.c:[[#@LINE-21]]:7 flags=MPI_Sendrecv
// GRAPH-DAG: n{{[0-9]+}} mpi parent=n[[T1]] at={{.*}}threads.c:[[#@LINE-22]]:7 flags=MPI_Sendrecv

// Each thread's implicit task calls with tag 10 + its number, its task with
// 20 + it: one send and one receive each, to and from rank 1.
// CSV: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV-NEXT: 1,MPI_Init_thread,call,,,,,,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,send,world,1,1,10,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,recv,world,1,1,10,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,send,world,1,1,11,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,recv,world,1,1,11,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,send,world,1,1,20,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,recv,world,1,1,20,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,send,world,1,1,21,4,,,,
// CSV-DAG: {{[0-9]+}},MPI_Sendrecv,recv,world,1,1,21,4,,,,
// CSV: {{[0-9]+}},MPI_Finalize,call,,,,,,,,,

// COUNT: 4

// MPI calls were made on both threads (the implicit tasks are bound).
// THREADS: 0
// THREADS-NEXT: 1
// THREADS-EMPTY:
