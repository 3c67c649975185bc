// A communicator the program names (MPI_Comm_set_name) is shown by that name
// instead of its job-wide key: in each rank's mpi.csv (quoted: the name has
// a comma), its OTF2 definitions, the job archive's, and the job graph's
// messages.csv and collectives.csv. A communicator left unnamed is shown
// by its origin (world/2: the second made from world) in OTTER's views,
// by its key in the OTF2 definitions. The program still reads back its own
// name (the call is passed on).
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=CSV %s < %t/rank-1/mpi.csv
// RUN: otter dump %t/rank-0 | FileCheck --check-prefix=DUMP %s
// RUN: otf2-print -G %t/rank-0/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: otf2-print -G %t/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: cat %t/job/messages.csv %t/job/collectives.csv > %t/job/both
// RUN: FileCheck --check-prefix=JOB --match-full-lines %s < %t/job/both
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, sum = 0, len = 0;
  char name[MPI_MAX_OBJECT_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm solver, quiet;
  MPI_Comm_dup(MPI_COMM_WORLD, &solver);
  MPI_Comm_dup(MPI_COMM_WORLD, &quiet);
  MPI_Comm_set_name(solver, "solver, halo");
  MPI_Comm_get_name(solver, name, &len);
  if (rank == 1)
    MPI_Send(&rank, 1, MPI_INT, 0, 5, solver);
  else
    MPI_Recv(&sum, 1, MPI_INT, 1, 5, solver, MPI_STATUS_IGNORE);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, solver);
  MPI_Barrier(quiet);
  printf("rank %d sum %d name '%s'\n", rank, sum, name);
  MPI_Comm_free(&solver);
  MPI_Comm_free(&quiet);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 sum 1 name 'solver, halo'
// OUT: rank 1 sum 1 name 'solver, halo'

// CSV: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV: MPI_Comm_set_name,call,,,,,,,,,
// CSV-NEXT: MPI_Send,send,"solver, halo",0,0,5,4,,,,
// CSV-NEXT: MPI_Allreduce,collective_begin,"solver, halo",-,-,,,,allreduce,0,
// CSV-NEXT: MPI_Allreduce,collective_end,"solver, halo",-,-,,4,4,allreduce,0,
// CSV-NEXT: MPI_Barrier,collective_begin,world/2,-,-,,,,barrier,0,

// DUMP: mpi_call_begin {{.*}}function=MPI_Comm_set_name
// DUMP-NEXT: mpi_comm_name {{.*}}name="solver, halo"

// DEFS: COMM {{.*}} Name: "MPI_COMM_WORLD"
// DEFS: COMM {{.*}} Name: "solver, halo" {{.*}}Parent: "MPI_COMM_WORLD"
// DEFS: COMM {{.*}} Name: "MPI communicator {{[0-9a-f]+}}" {{.*}}Parent: "MPI_COMM_WORLD"

// JOB: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// JOB-NEXT: matched,1,{{.*}}comm-name.c:[[#@LINE-30]]:5,0,{{.*}}comm-name.c:[[#@LINE-28]]:5,"solver, halo",5,4
// JOB-NEXT: id,function,collective,comm,instance,root,ranks,size,at
// JOB-NEXT: {{[0-9]+}},MPI_Allreduce,allreduce,"solver, halo",0,,2,2,{{.*}}comm-name.c:[[#@LINE-29]]:3
// JOB-NEXT: {{[0-9]+}},MPI_Barrier,barrier,world/2,0,,2,2,{{.*}}comm-name.c:[[#@LINE-29]]:3
// JOB-EMPTY:
