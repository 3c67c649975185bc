// Every collective of issue 9, blocking and non-blocking, on four ranks:
// each is one MpiCollectiveBegin/End pair whose instance counts the
// collectives on the communicator (the k-th is the same operation on every
// rank, so it is the same number everywhere), with the root in the
// communicator and in MPI_COMM_WORLD and the bytes this rank's buffers
// sent and received. A non-blocking one is posted by its call and completed
// by the Wait that names its node.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 4 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ROOT --match-full-lines %s < %t/rank-2/mpi.csv
// RUN: FileCheck --check-prefix=LEAF --match-full-lines %s < %t/rank-1/mpi.csv
// RUN: cut -d, -f2,3,11 %t/rank-0/mpi.csv > %t/inst0 && cut -d, -f2,3,11 %t/rank-3/mpi.csv > %t/inst3 && diff %t/inst0 %t/inst3
// RUN: otf2-print %t/rank-2/trace/traces.otf2 | grep -cE '^(MPI_COLLECTIVE_END|NON_BLOCKING_COLLECTIVE_COMPLETE) ' | FileCheck --check-prefix=OTF2 %s
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 4
// The job's graph: one node per collective, 32, none unmatched; edges
// along the data flow (every member both ways; a rooted one from the root
// out, or in to the root), into a call's continuation when the call itself
// feeds the collective; a non-blocking one from its call to its Wait.
// RUN: sh %S/Inputs/job-graph.sh %t 4
// RUN: FileCheck --check-prefix=JOBG %s < %t/job/graph.txt
// RUN: FileCheck --check-prefix=COLL --match-full-lines %s < %t/job/collectives.csv
// RUN: grep -c . %t/job/collectives.csv | FileCheck --check-prefix=COUNT %s
// RUN: not grep -v '^matched\|^status' %t/job/messages.csv
// The Perfetto export: each call named by its function and line, with what
// it did as args; an arrow per member that needed another's data, from the
// last such member's call, never ending before it starts; none for scans.
// RUN: otter export --format perfetto -o %t/perfetto.json %t
// RUN: python3 %S/Inputs/perfetto-mpi.py %t/perfetto.json 2 | FileCheck --check-prefix=PERFETTO %s
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n, x[4] = {1, 1, 1, 1}, y[16], c[4] = {1, 1, 1, 1},
               d[4] = {0, 1, 2, 3};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Barrier(w);
  MPI_Bcast(x, 2, MPI_INT, 2, w);
  MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, 2, w);
  MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, w);
  MPI_Gather(x, 1, MPI_INT, y, 1, MPI_INT, 2, w);
  MPI_Gatherv(x, 1, MPI_INT, y, c, d, MPI_INT, 2, w);
  MPI_Scatter(x, 1, MPI_INT, y, 1, MPI_INT, 2, w);
  MPI_Scatterv(x, c, d, MPI_INT, y, 1, MPI_INT, 2, w);
  MPI_Allgather(x, 1, MPI_INT, y, 1, MPI_INT, w);
  MPI_Allgatherv(x, 1, MPI_INT, y, c, d, MPI_INT, w);
  MPI_Alltoall(x, 1, MPI_INT, y, 1, MPI_INT, w);
  MPI_Alltoallv(x, c, d, MPI_INT, y, c, d, MPI_INT, w);
  MPI_Reduce_scatter(x, y, c, MPI_INT, MPI_SUM, w);
  MPI_Reduce_scatter_block(x, y, 1, MPI_INT, MPI_SUM, w);
  MPI_Scan(x, y, 1, MPI_INT, MPI_SUM, w);
  MPI_Exscan(x, y, 1, MPI_INT, MPI_SUM, w);
  MPI_Request r[16];
  MPI_Ibarrier(w, &r[0]);
  MPI_Ibcast(x, 2, MPI_INT, 2, w, &r[1]);
  MPI_Iallreduce(x, y, 1, MPI_INT, MPI_SUM, w, &r[2]);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, 2, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  int z[16];
  MPI_Igather(x, 1, MPI_INT, y, 1, MPI_INT, 2, w, &r[0]);
  MPI_Igatherv(x, 1, MPI_INT, z, c, d, MPI_INT, 2, w, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Iscatter(x, 1, MPI_INT, y, 1, MPI_INT, 2, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iscatterv(x, c, d, MPI_INT, y, 1, MPI_INT, 2, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iallgather(x, 1, MPI_INT, y, 1, MPI_INT, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iallgatherv(x, 1, MPI_INT, y, c, d, MPI_INT, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ialltoall(x, 1, MPI_INT, y, 1, MPI_INT, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ialltoallv(x, c, d, MPI_INT, y, c, d, MPI_INT, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter(x, y, c, MPI_INT, MPI_SUM, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter_block(x, y, 1, MPI_INT, MPI_SUM, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iexscan(x, y, 1, MPI_INT, MPI_SUM, w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 done
// OUT: rank 3 done

// Rank 2 is every root.
// ROOT: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// ROOT-NEXT: 1,MPI_Init,call,,,,,,,,,
// ROOT-NEXT: 2,MPI_Barrier,collective_begin,world,-,-,,,,barrier,0,
// ROOT-NEXT: 2,MPI_Barrier,collective_end,world,-,-,,0,0,barrier,0,
// ROOT-NEXT: 3,MPI_Bcast,collective_begin,world,2,2,,,,bcast,1,
// ROOT-NEXT: 3,MPI_Bcast,collective_end,world,2,2,,8,0,bcast,1,
// ROOT-NEXT: 4,MPI_Reduce,collective_begin,world,2,2,,,,reduce,2,
// ROOT-NEXT: 4,MPI_Reduce,collective_end,world,2,2,,4,4,reduce,2,
// ROOT-NEXT: 5,MPI_Allreduce,collective_begin,world,-,-,,,,allreduce,3,
// ROOT-NEXT: 5,MPI_Allreduce,collective_end,world,-,-,,4,4,allreduce,3,
// ROOT-NEXT: 6,MPI_Gather,collective_begin,world,2,2,,,,gather,4,
// ROOT-NEXT: 6,MPI_Gather,collective_end,world,2,2,,4,16,gather,4,
// ROOT-NEXT: 7,MPI_Gatherv,collective_begin,world,2,2,,,,gatherv,5,
// ROOT-NEXT: 7,MPI_Gatherv,collective_end,world,2,2,,4,16,gatherv,5,
// ROOT-NEXT: 8,MPI_Scatter,collective_begin,world,2,2,,,,scatter,6,
// ROOT-NEXT: 8,MPI_Scatter,collective_end,world,2,2,,16,4,scatter,6,
// ROOT-NEXT: 9,MPI_Scatterv,collective_begin,world,2,2,,,,scatterv,7,
// ROOT-NEXT: 9,MPI_Scatterv,collective_end,world,2,2,,16,4,scatterv,7,
// ROOT-NEXT: 10,MPI_Allgather,collective_begin,world,-,-,,,,allgather,8,
// ROOT-NEXT: 10,MPI_Allgather,collective_end,world,-,-,,4,16,allgather,8,
// ROOT-NEXT: 11,MPI_Allgatherv,collective_begin,world,-,-,,,,allgatherv,9,
// ROOT-NEXT: 11,MPI_Allgatherv,collective_end,world,-,-,,4,16,allgatherv,9,
// ROOT-NEXT: 12,MPI_Alltoall,collective_begin,world,-,-,,,,alltoall,10,
// ROOT-NEXT: 12,MPI_Alltoall,collective_end,world,-,-,,16,16,alltoall,10,
// ROOT-NEXT: 13,MPI_Alltoallv,collective_begin,world,-,-,,,,alltoallv,11,
// ROOT-NEXT: 13,MPI_Alltoallv,collective_end,world,-,-,,16,16,alltoallv,11,
// ROOT-NEXT: 14,MPI_Reduce_scatter,collective_begin,world,-,-,,,,reduce_scatter,12,
// ROOT-NEXT: 14,MPI_Reduce_scatter,collective_end,world,-,-,,16,4,reduce_scatter,12,
// ROOT-NEXT: 15,MPI_Reduce_scatter_block,collective_begin,world,-,-,,,,reduce_scatter_block,13,
// ROOT-NEXT: 15,MPI_Reduce_scatter_block,collective_end,world,-,-,,16,4,reduce_scatter_block,13,
// ROOT-NEXT: 16,MPI_Scan,collective_begin,world,-,-,,,,scan,14,
// ROOT-NEXT: 16,MPI_Scan,collective_end,world,-,-,,4,4,scan,14,
// ROOT-NEXT: 17,MPI_Exscan,collective_begin,world,-,-,,,,exscan,15,
// ROOT-NEXT: 17,MPI_Exscan,collective_end,world,-,-,,4,4,exscan,15,
// ROOT-NEXT: 18,MPI_Ibarrier,collective_begin,world,-,-,,,,barrier,16,18
// ROOT-NEXT: 19,MPI_Ibcast,collective_begin,world,2,2,,,,bcast,17,19
// ROOT-NEXT: 20,MPI_Iallreduce,collective_begin,world,-,-,,,,allreduce,18,20
// ROOT-NEXT: 21,MPI_Waitall,collective_end,world,-,-,,0,0,barrier,16,18
// ROOT-NEXT: 21,MPI_Waitall,collective_end,world,2,2,,8,0,bcast,17,19
// ROOT-NEXT: 21,MPI_Waitall,collective_end,world,-,-,,4,4,allreduce,18,20
// ROOT-NEXT: 22,MPI_Ireduce,collective_begin,world,2,2,,,,reduce,19,22
// ROOT-NEXT: 23,MPI_Wait,collective_end,world,2,2,,4,4,reduce,19,22
// ROOT-NEXT: 24,MPI_Igather,collective_begin,world,2,2,,,,gather,20,24
// ROOT-NEXT: 25,MPI_Igatherv,collective_begin,world,2,2,,,,gatherv,21,25
// ROOT-NEXT: 26,MPI_Waitall,collective_end,world,2,2,,4,16,gather,20,24
// ROOT-NEXT: 26,MPI_Waitall,collective_end,world,2,2,,4,16,gatherv,21,25
// ROOT-NEXT: 27,MPI_Iscatter,collective_begin,world,2,2,,,,scatter,22,27
// ROOT-NEXT: 28,MPI_Wait,collective_end,world,2,2,,16,4,scatter,22,27
// ROOT-NEXT: 29,MPI_Iscatterv,collective_begin,world,2,2,,,,scatterv,23,29
// ROOT-NEXT: 30,MPI_Wait,collective_end,world,2,2,,16,4,scatterv,23,29
// ROOT-NEXT: 31,MPI_Iallgather,collective_begin,world,-,-,,,,allgather,24,31
// ROOT-NEXT: 32,MPI_Wait,collective_end,world,-,-,,4,16,allgather,24,31
// ROOT-NEXT: 33,MPI_Iallgatherv,collective_begin,world,-,-,,,,allgatherv,25,33
// ROOT-NEXT: 34,MPI_Wait,collective_end,world,-,-,,4,16,allgatherv,25,33
// ROOT-NEXT: 35,MPI_Ialltoall,collective_begin,world,-,-,,,,alltoall,26,35
// ROOT-NEXT: 36,MPI_Wait,collective_end,world,-,-,,16,16,alltoall,26,35
// ROOT-NEXT: 37,MPI_Ialltoallv,collective_begin,world,-,-,,,,alltoallv,27,37
// ROOT-NEXT: 38,MPI_Wait,collective_end,world,-,-,,16,16,alltoallv,27,37
// ROOT-NEXT: 39,MPI_Ireduce_scatter,collective_begin,world,-,-,,,,reduce_scatter,28,39
// ROOT-NEXT: 40,MPI_Wait,collective_end,world,-,-,,16,4,reduce_scatter,28,39
// ROOT-NEXT: 41,MPI_Ireduce_scatter_block,collective_begin,world,-,-,,,,reduce_scatter_block,29,41
// ROOT-NEXT: 42,MPI_Wait,collective_end,world,-,-,,16,4,reduce_scatter_block,29,41
// ROOT-NEXT: 43,MPI_Iscan,collective_begin,world,-,-,,,,scan,30,43
// ROOT-NEXT: 44,MPI_Wait,collective_end,world,-,-,,4,4,scan,30,43
// ROOT-NEXT: 45,MPI_Iexscan,collective_begin,world,-,-,,,,exscan,31,45
// ROOT-NEXT: 46,MPI_Wait,collective_end,world,-,-,,4,4,exscan,31,45
// ROOT-NEXT: 47,MPI_Finalize,call,,,,,,,,,
// ROOT-EMPTY:

// LEAF: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// LEAF-NEXT: 1,MPI_Init,call,,,,,,,,,
// LEAF-NEXT: 2,MPI_Barrier,collective_begin,world,-,-,,,,barrier,0,
// LEAF-NEXT: 2,MPI_Barrier,collective_end,world,-,-,,0,0,barrier,0,
// LEAF-NEXT: 3,MPI_Bcast,collective_begin,world,2,2,,,,bcast,1,
// LEAF-NEXT: 3,MPI_Bcast,collective_end,world,2,2,,0,8,bcast,1,
// LEAF-NEXT: 4,MPI_Reduce,collective_begin,world,2,2,,,,reduce,2,
// LEAF-NEXT: 4,MPI_Reduce,collective_end,world,2,2,,4,0,reduce,2,
// LEAF-NEXT: 5,MPI_Allreduce,collective_begin,world,-,-,,,,allreduce,3,
// LEAF-NEXT: 5,MPI_Allreduce,collective_end,world,-,-,,4,4,allreduce,3,
// LEAF-NEXT: 6,MPI_Gather,collective_begin,world,2,2,,,,gather,4,
// LEAF-NEXT: 6,MPI_Gather,collective_end,world,2,2,,4,0,gather,4,
// LEAF-NEXT: 7,MPI_Gatherv,collective_begin,world,2,2,,,,gatherv,5,
// LEAF-NEXT: 7,MPI_Gatherv,collective_end,world,2,2,,4,0,gatherv,5,
// LEAF-NEXT: 8,MPI_Scatter,collective_begin,world,2,2,,,,scatter,6,
// LEAF-NEXT: 8,MPI_Scatter,collective_end,world,2,2,,0,4,scatter,6,
// LEAF-NEXT: 9,MPI_Scatterv,collective_begin,world,2,2,,,,scatterv,7,
// LEAF-NEXT: 9,MPI_Scatterv,collective_end,world,2,2,,0,4,scatterv,7,
// LEAF-NEXT: 10,MPI_Allgather,collective_begin,world,-,-,,,,allgather,8,
// LEAF-NEXT: 10,MPI_Allgather,collective_end,world,-,-,,4,16,allgather,8,
// LEAF-NEXT: 11,MPI_Allgatherv,collective_begin,world,-,-,,,,allgatherv,9,
// LEAF-NEXT: 11,MPI_Allgatherv,collective_end,world,-,-,,4,16,allgatherv,9,
// LEAF-NEXT: 12,MPI_Alltoall,collective_begin,world,-,-,,,,alltoall,10,
// LEAF-NEXT: 12,MPI_Alltoall,collective_end,world,-,-,,16,16,alltoall,10,
// LEAF-NEXT: 13,MPI_Alltoallv,collective_begin,world,-,-,,,,alltoallv,11,
// LEAF-NEXT: 13,MPI_Alltoallv,collective_end,world,-,-,,16,16,alltoallv,11,
// LEAF-NEXT: 14,MPI_Reduce_scatter,collective_begin,world,-,-,,,,reduce_scatter,12,
// LEAF-NEXT: 14,MPI_Reduce_scatter,collective_end,world,-,-,,16,4,reduce_scatter,12,
// LEAF-NEXT: 15,MPI_Reduce_scatter_block,collective_begin,world,-,-,,,,reduce_scatter_block,13,
// LEAF-NEXT: 15,MPI_Reduce_scatter_block,collective_end,world,-,-,,16,4,reduce_scatter_block,13,
// LEAF-NEXT: 16,MPI_Scan,collective_begin,world,-,-,,,,scan,14,
// LEAF-NEXT: 16,MPI_Scan,collective_end,world,-,-,,4,4,scan,14,
// LEAF-NEXT: 17,MPI_Exscan,collective_begin,world,-,-,,,,exscan,15,
// LEAF-NEXT: 17,MPI_Exscan,collective_end,world,-,-,,4,4,exscan,15,
// LEAF-NEXT: 18,MPI_Ibarrier,collective_begin,world,-,-,,,,barrier,16,18
// LEAF-NEXT: 19,MPI_Ibcast,collective_begin,world,2,2,,,,bcast,17,19
// LEAF-NEXT: 20,MPI_Iallreduce,collective_begin,world,-,-,,,,allreduce,18,20
// LEAF-NEXT: 21,MPI_Waitall,collective_end,world,-,-,,0,0,barrier,16,18
// LEAF-NEXT: 21,MPI_Waitall,collective_end,world,2,2,,0,8,bcast,17,19
// LEAF-NEXT: 21,MPI_Waitall,collective_end,world,-,-,,4,4,allreduce,18,20
// LEAF-NEXT: 22,MPI_Ireduce,collective_begin,world,2,2,,,,reduce,19,22
// LEAF-NEXT: 23,MPI_Wait,collective_end,world,2,2,,4,0,reduce,19,22
// LEAF-NEXT: 24,MPI_Igather,collective_begin,world,2,2,,,,gather,20,24
// LEAF-NEXT: 25,MPI_Igatherv,collective_begin,world,2,2,,,,gatherv,21,25
// LEAF-NEXT: 26,MPI_Waitall,collective_end,world,2,2,,4,0,gather,20,24
// LEAF-NEXT: 26,MPI_Waitall,collective_end,world,2,2,,4,0,gatherv,21,25
// LEAF-NEXT: 27,MPI_Iscatter,collective_begin,world,2,2,,,,scatter,22,27
// LEAF-NEXT: 28,MPI_Wait,collective_end,world,2,2,,0,4,scatter,22,27
// LEAF-NEXT: 29,MPI_Iscatterv,collective_begin,world,2,2,,,,scatterv,23,29
// LEAF-NEXT: 30,MPI_Wait,collective_end,world,2,2,,0,4,scatterv,23,29
// LEAF-NEXT: 31,MPI_Iallgather,collective_begin,world,-,-,,,,allgather,24,31
// LEAF-NEXT: 32,MPI_Wait,collective_end,world,-,-,,4,16,allgather,24,31
// LEAF-NEXT: 33,MPI_Iallgatherv,collective_begin,world,-,-,,,,allgatherv,25,33
// LEAF-NEXT: 34,MPI_Wait,collective_end,world,-,-,,4,16,allgatherv,25,33
// LEAF-NEXT: 35,MPI_Ialltoall,collective_begin,world,-,-,,,,alltoall,26,35
// LEAF-NEXT: 36,MPI_Wait,collective_end,world,-,-,,16,16,alltoall,26,35
// LEAF-NEXT: 37,MPI_Ialltoallv,collective_begin,world,-,-,,,,alltoallv,27,37
// LEAF-NEXT: 38,MPI_Wait,collective_end,world,-,-,,16,16,alltoallv,27,37
// LEAF-NEXT: 39,MPI_Ireduce_scatter,collective_begin,world,-,-,,,,reduce_scatter,28,39
// LEAF-NEXT: 40,MPI_Wait,collective_end,world,-,-,,16,4,reduce_scatter,28,39
// LEAF-NEXT: 41,MPI_Ireduce_scatter_block,collective_begin,world,-,-,,,,reduce_scatter_block,29,41
// LEAF-NEXT: 42,MPI_Wait,collective_end,world,-,-,,16,4,reduce_scatter_block,29,41
// LEAF-NEXT: 43,MPI_Iscan,collective_begin,world,-,-,,,,scan,30,43
// LEAF-NEXT: 44,MPI_Wait,collective_end,world,-,-,,4,4,scan,30,43
// LEAF-NEXT: 45,MPI_Iexscan,collective_begin,world,-,-,,,,exscan,31,45
// LEAF-NEXT: 46,MPI_Wait,collective_end,world,-,-,,4,4,exscan,31,45
// LEAF-NEXT: 47,MPI_Finalize,call,,,,,,,,,
// LEAF-EMPTY:

// 16 blocking collectives (MPI_COLLECTIVE_END), 16 non-blocking ones
// (NON_BLOCKING_COLLECTIVE_COMPLETE).
// OTF2: 32

// JOBG: # otter canonical job graph v1: 4 ranks, {{[0-9]+}} nodes, {{[0-9]+}} edges, 0 messages, 32 collectives
// JOBG-NOT: unmatched
// JOBG: r0.n2 mpi parent=r0.n0 at={{.*}}collectives.c:[[#@LINE-200]]:3 flags=MPI_Barrier
// JOBG-NEXT: -> r0.n3 scope
// JOBG-NEXT: -> c0 collective at={{.*}}collectives.c:[[#@LINE-202]]:3
// The Bcast's non-roots feed nothing: no edge from their call.
// JOBG: r0.n3 mpi parent=r0.n0 at={{.*}}collectives.c:[[#@LINE-203]]:3 flags=MPI_Bcast
// JOBG-NEXT: -> r0.n4 scope
// JOBG-NEXT: r0.n4
// JOBG: r2.n3 mpi parent=r2.n0 at={{.*}}collectives.c:[[#@LINE-206]]:3 flags=MPI_Bcast
// JOBG-NEXT: -> r2.n4 scope
// JOBG-NEXT: -> c1 collective at={{.*}}collectives.c:[[#@LINE-208]]:3
// JOBG: c0 mpi_collective at={{.*}}collectives.c:[[#@LINE-210]]:3 flags=MPI_Barrier comm=world instance=0 ranks=4/4
// JOBG-NEXT: -> r0.n3 collective at={{.*}}collectives.c:[[#@LINE-210]]:3
// JOBG-NEXT: -> r1.n3 collective at={{.*}}collectives.c:[[#@LINE-211]]:3
// JOBG-NEXT: -> r2.n3 collective at={{.*}}collectives.c:[[#@LINE-212]]:3
// JOBG-NEXT: -> r3.n3 collective at={{.*}}collectives.c:[[#@LINE-213]]:3
// JOBG-NEXT: c1 mpi_collective at={{.*}}collectives.c:[[#@LINE-214]]:3 flags=MPI_Bcast comm=world instance=1 ranks=4/4
// JOBG-NEXT: -> r0.n3 collective at={{.*}}collectives.c:[[#@LINE-215]]:3
// JOBG-NEXT: -> r1.n3 collective at={{.*}}collectives.c:[[#@LINE-216]]:3
// JOBG-NEXT: -> r3.n3 collective at={{.*}}collectives.c:[[#@LINE-217]]:3
// JOBG-NEXT: c2 mpi_collective at={{.*}}collectives.c:[[#@LINE-217]]:3 flags=MPI_Reduce comm=world instance=2 ranks=4/4
// JOBG-NEXT: -> r2.n5 collective at={{.*}}collectives.c:[[#@LINE-217]]:3
// JOBG-NEXT: c3 mpi_collective
// JOBG: c16 mpi_collective at={{.*}}collectives.c:[[#@LINE-205]]:3 flags=MPI_Ibarrier comm=world instance=16 ranks=4/4
// JOBG-NEXT: -> r0.n21 collective at={{.*}}collectives.c:[[#@LINE-203]]:3
// JOBG-NEXT: -> r1.n21 collective at={{.*}}collectives.c:[[#@LINE-204]]:3
// JOBG-NEXT: -> r2.n21 collective at={{.*}}collectives.c:[[#@LINE-205]]:3
// JOBG-NEXT: -> r3.n21 collective at={{.*}}collectives.c:[[#@LINE-206]]:3

// COLL: id,function,collective,comm,instance,root,ranks,size,at
// COLL-NEXT: {{[0-9]+}},MPI_Barrier,barrier,world,0,,4,4,{{.*}}collectives.c:[[#@LINE-229]]:3
// COLL-NEXT: {{[0-9]+}},MPI_Bcast,bcast,world,1,2,4,4,{{.*}}collectives.c:[[#@LINE-229]]:3
// COLL-NEXT: {{[0-9]+}},MPI_Reduce,reduce,world,2,2,4,4,{{.*}}collectives.c:[[#@LINE-229]]:3
// COLL: {{[0-9]+}},MPI_Iexscan,exscan,world,31,,4,4,{{.*}}collectives.c:[[#@LINE-187]]:3
// COLL-EMPTY:
// COUNT: 33

// PERFETTO: MPI_Barrier collectives.c:[[#@LINE-236]] | barrier, sent 0 bytes, received 0 bytes
// PERFETTO-NEXT: MPI_Bcast collectives.c:[[#@LINE-236]] | bcast, root rank 2, sent 8 bytes, received 0 bytes
// PERFETTO-NEXT: MPI_Reduce collectives.c:[[#@LINE-236]] | reduce, root rank 2, sent 4 bytes, received 4 bytes
// PERFETTO: MPI_Ibarrier collectives.c:[[#@LINE-222]] | start barrier
// PERFETTO-NEXT: MPI_Ibcast collectives.c:[[#@LINE-222]] | start bcast, root rank 2
// PERFETTO-NEXT: MPI_Iallreduce collectives.c:[[#@LINE-222]] | start allreduce
// PERFETTO-NEXT: MPI_Waitall collectives.c:[[#@LINE-222]] | barrier, sent 0 bytes, received 0 bytes; bcast, root rank 2, sent 8 bytes, received 0 bytes; allreduce, sent 4 bytes, received 4 bytes
// PERFETTO: arrows: 0 message, 88 collective; problems: none
