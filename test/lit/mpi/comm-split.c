// MPI_Comm_split into even and odd ranks, MPI_Comm_dup of WORLD, traffic
// and collectives on both, MPI_Comm_free. A communicator has the same
// job-wide key on all its members (no communication needed: parent key,
// the creation call's number on the parent, lowest member), different keys
// for the two halves; messages name their peers in the communicator and in
// MPI_COMM_WORLD; the OTF2 archive defines each communicator with its
// members' world ranks. OTTER's views show an unnamed communicator by its
// origin: world/1@0 and world/1@1 the halves of the first split of world
// (their lowest world ranks), world/2 the dup, the second made from it.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 4 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// Ranks 1 and 3 see the same keys (the odd half, and the dup of WORLD),
// ranks 0 and 2 the same (the even half, the same dup).
// RUN: cut -d, -f4 %t/rank-1/mpi.csv > %t/k1 && cut -d, -f4 %t/rank-3/mpi.csv > %t/k3 && diff %t/k1 %t/k3
// RUN: cut -d, -f4 %t/rank-0/mpi.csv > %t/k0 && cut -d, -f4 %t/rank-2/mpi.csv > %t/k2 && diff %t/k0 %t/k2
// RUN: not diff %t/k0 %t/k1 > /dev/null
// RUN: grep MPI_Allreduce,collective_begin %t/rank-0/mpi.csv | cut -d, -f4 > %t/even
// RUN: grep MPI_Allreduce,collective_begin %t/rank-1/mpi.csv | cut -d, -f4 > %t/odd
// RUN: not diff %t/even %t/odd > /dev/null
// RUN: cat %t/rank-3/mpi.csv > %t/both && otf2-print -G %t/rank-3/trace/traces.otf2 >> %t/both
// RUN: FileCheck --check-prefixes=CSV,DEFS %s < %t/both
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 4
// The job's graph: a message in each half, on that half's communicator;
// the two halves' Allreduce are two collective nodes of two members each
// (same instance, different communicators), the dup's Barrier one of four.
// RUN: sh %S/Inputs/job-graph.sh %t 4
// RUN: cat %t/job/messages.csv %t/job/collectives.csv > %t/job/both
// RUN: FileCheck --check-prefix=JOB --match-full-lines %s < %t/job/both
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, half_rank, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_rank(half, &half_rank);
  // Ranks 1 and 3 form the odd half: 3 is its rank 1, and sends to 1.
  if (half_rank == 1)
    MPI_Send(&rank, 1, MPI_INT, 0, 8, half);
  else
    MPI_Recv(&sum, 1, MPI_INT, 1, 8, half, MPI_STATUS_IGNORE);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
  MPI_Barrier(dup);
  printf("rank %d sum %d\n", rank, sum);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 sum 2
// OUT: rank 1 sum 4
// OUT: rank 2 sum 2
// OUT: rank 3 sum 4

// CSV: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV-NEXT: 2,MPI_Comm_split,call,,,,,,,,,
// CSV-NEXT: 3,MPI_Comm_dup,call,,,,,,,,,
// CSV-NEXT: 4,MPI_Send,send,world/1@1,1,0,8,4,,,,
// CSV-NEXT: 5,MPI_Allreduce,collective_begin,world/1@1,-,-,,,,allreduce,0,
// CSV-NEXT: 5,MPI_Allreduce,collective_end,world/1@1,-,-,,4,4,allreduce,0,
// CSV-NEXT: 6,MPI_Barrier,collective_begin,world/2,-,-,,,,barrier,0,
// CSV-NEXT: 6,MPI_Barrier,collective_end,world/2,-,-,,0,0,barrier,0,
// CSV-NEXT: 7,MPI_Comm_free,call,,,,,,,,,
// CSV-NEXT: 8,MPI_Comm_free,call,,,,,,,,,
// CSV-NEXT: 9,MPI_Finalize,call,,,,,,,,,

// DEFS: GROUP {{.*}}Name: "MPI" <{{[0-9]+}}>, Type: COMM_LOCATIONS, Paradigm: "MPI" {{.*}}4 Members: UNDEFINED, UNDEFINED, UNDEFINED, "OpenMP thread 0" <0>
// DEFS: COMM {{.*}} Name: "MPI_COMM_WORLD"
// DEFS: COMM {{.*}} Name: "MPI_COMM_SELF"
// DEFS: GROUP {{.*}} Name: "MPI communicator [[ODD:[0-9a-f]+]]" {{.*}}Type: COMM_GROUP, Paradigm: "MPI" {{.*}}2 Members: 1 (UNDEFINED), 3 ("OpenMP thread 0" <0>)
// DEFS-NEXT: COMM {{.*}} Name: "MPI communicator [[ODD]]" {{.*}}Parent: "MPI_COMM_WORLD"
// DEFS: GROUP {{.*}} Name: "MPI communicator {{[0-9a-f]+}}" {{.*}}4 Members: 0 (UNDEFINED), 1 (UNDEFINED), 2 (UNDEFINED), 3 ("OpenMP thread 0" <0>)

// JOB: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// JOB-NEXT: matched,2,4,{{.*}}comm-split.c:[[#@LINE-38]]:5,0,4,{{.*}}comm-split.c:[[#@LINE-36]]:5,world/1@0,8,4
// JOB-NEXT: matched,3,4,{{.*}}comm-split.c:[[#@LINE-39]]:5,1,4,{{.*}}comm-split.c:[[#@LINE-37]]:5,world/1@1,8,4
// JOB-NEXT: id,function,collective,comm,instance,root,ranks,size,at
// JOB-NEXT: {{[0-9]+}},MPI_Allreduce,allreduce,world/1@0,0,,2,2,{{.*}}comm-split.c:[[#@LINE-38]]:3
// JOB-NEXT: {{[0-9]+}},MPI_Barrier,barrier,world/2,0,,4,4,{{.*}}comm-split.c:[[#@LINE-38]]:3
// JOB-NEXT: {{[0-9]+}},MPI_Allreduce,allreduce,world/1@1,0,,2,2,{{.*}}comm-split.c:[[#@LINE-40]]:3
// JOB-EMPTY:
