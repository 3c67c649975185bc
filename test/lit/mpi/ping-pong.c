// Ping-pong between two ranks: every MPI call is a node of the initial task,
// in program order, labelled with its exact line; rank-N/mpi.csv says what
// each did (peer, tag, bytes) in job-wide terms; the graph and mpi.csv
// rebuilt from each rank's archive equal the ones written at exit; the
// archive holds OTF2's own MPI records.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog 2> %t.err | sort | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck --check-prefix=GRAPH %s < %t/rank-0/graph.txt
// RUN: FileCheck --check-prefix=CSV0 --match-full-lines %s < %t/rank-0/mpi.csv
// RUN: FileCheck --check-prefix=CSV1 --match-full-lines %s < %t/rank-1/mpi.csv
// RUN: sh %S/Inputs/same-rank-graphs.sh %t 2
// RUN: otf2-print -A %t/rank-1/trace/traces.otf2 > %t/print1
// RUN: FileCheck --check-prefix=OTF2 %s < %t/print1
// The job's archive: both ranks, their messages between the two.
// RUN: otf2-print -A %t/trace/traces.otf2 > %t/printjob
// RUN: FileCheck --check-prefix=JOB %s < %t/printjob
// The job's graph: four messages, each from its send to its receive.
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: FileCheck --check-prefix=MSG --match-full-lines %s < %t/job/messages.csv
// RUN: FileCheck --check-prefix=JOBG %s < %t/job/graph.txt
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 2; ++i) {
    if (rank == 0) {
      MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
      MPI_Recv(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++x;
      MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }
  }
  printf("rank %d x=%d\n", rank, x);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 x=2
// OUT: rank 1 x=2
// Only rank 0 says where the results went.
// ERR: otter: wrote {{.*}}/rank-0/ (nodes.csv graph.csv graph.gv graph.txt): 1 threads
// ERR-NOT: rank-1/
// ERR: otter: wrote {{.*}}/trace/ (OTF2 archive of the job: 2 ranks, 2 threads)

// GRAPH: n0 initial_task
// GRAPH: n1 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-26]]:3 flags=MPI_Init
// GRAPH: n2 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-22]]:7 flags=MPI_Send
// GRAPH: n3 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-22]]:7 flags=MPI_Recv
// GRAPH: n4 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-24]]:7 flags=MPI_Send
// GRAPH: n5 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-24]]:7 flags=MPI_Recv
// GRAPH: n6 mpi parent=n0 at={{.*}}ping-pong.c:[[#@LINE-17]]:3 flags=MPI_Finalize

// CSV0: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV0-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV0-NEXT: 2,MPI_Send,send,world,1,1,5,4,,,,
// CSV0-NEXT: 3,MPI_Recv,recv,world,1,1,6,4,,,,
// CSV0-NEXT: 4,MPI_Send,send,world,1,1,5,4,,,,
// CSV0-NEXT: 5,MPI_Recv,recv,world,1,1,6,4,,,,
// CSV0-NEXT: 6,MPI_Finalize,call,,,,,,,,,
// CSV0-EMPTY:

// CSV1: node,function,event,comm,peer,peer_in_comm,tag,bytes,received,collective,instance,request_node
// CSV1-NEXT: 1,MPI_Init,call,,,,,,,,,
// CSV1-NEXT: 2,MPI_Recv,recv,world,0,0,5,4,,,,
// CSV1-NEXT: 3,MPI_Send,send,world,0,0,6,4,,,,
// CSV1-NEXT: 4,MPI_Recv,recv,world,0,0,5,4,,,,
// CSV1-NEXT: 5,MPI_Send,send,world,0,0,6,4,,,,
// CSV1-NEXT: 6,MPI_Finalize,call,,,,,,,,,

// OTF2: LOCATION_GROUP {{.*}}"MPI rank 1"
// OTF2: ENTER {{.*}}"MPI_Recv @ {{.*}}ping-pong.c:[[#@LINE-43]]"
// OTF2: MPI_RECV {{.*}}Sender: 0 {{.*}}Communicator: "MPI_COMM_WORLD" <1>, Tag: 5, Length: 4
// OTF2: MPI_SEND {{.*}}Receiver: 0 {{.*}}Communicator: "MPI_COMM_WORLD" <1>, Tag: 6, Length: 4

// JOB: LOCATION_GROUP {{.*}}"MPI rank 0"
// JOB: LOCATION 0 Name: "rank 0 thread 0"
// JOB: LOCATION_GROUP {{.*}}"MPI rank 1"
// JOB: LOCATION 65536 Name: "rank 1 thread 0"
// JOB: GROUP {{.*}}Type: COMM_LOCATIONS, Paradigm: "MPI" {{.*}}2 Members: "rank 0 thread 0" <0>, "rank 1 thread 0" <65536>
// JOB: MPI_SEND 0 {{.*}}Receiver: 1 ("rank 1 thread 0" <65536>), Communicator: "MPI_COMM_WORLD" {{.*}}Tag: 5, Length: 4
// JOB: MPI_RECV 65536 {{.*}}Sender: 0 ("rank 0 thread 0" <0>), Communicator: "MPI_COMM_WORLD" {{.*}}Tag: 5, Length: 4

// MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
// MSG-NEXT: matched,0,2,{{.*}}ping-pong.c:[[#@LINE-59]]:7,1,2,{{.*}}ping-pong.c:[[#@LINE-56]]:7,world,5,4
// MSG-NEXT: matched,0,4,{{.*}}ping-pong.c:[[#@LINE-60]]:7,1,4,{{.*}}ping-pong.c:[[#@LINE-57]]:7,world,5,4
// MSG-NEXT: matched,1,3,{{.*}}ping-pong.c:[[#@LINE-56]]:7,0,3,{{.*}}ping-pong.c:[[#@LINE-60]]:7,world,6,4
// MSG-NEXT: matched,1,5,{{.*}}ping-pong.c:[[#@LINE-57]]:7,0,5,{{.*}}ping-pong.c:[[#@LINE-61]]:7,world,6,4
// MSG-EMPTY:

// JOBG: # otter canonical job graph v1: 2 ranks, 14 nodes, 16 edges, 4 messages, 0 collectives
// JOBG-NOT: unmatched
// JOBG: r0.n2 mpi parent=r0.n0 at={{.*}}ping-pong.c:[[#@LINE-67]]:7 flags=MPI_Send
// JOBG-NEXT: -> r0.n3 scope
// JOBG-NEXT: -> r1.n2 message at={{.*}}ping-pong.c:[[#@LINE-66]]:7
// JOBG: r1.n3 mpi parent=r1.n0 at={{.*}}ping-pong.c:[[#@LINE-65]]:7 flags=MPI_Send
// JOBG-NEXT: -> r0.n3 message at={{.*}}ping-pong.c:[[#@LINE-70]]:7
// JOBG-NEXT: -> r1.n4 scope
