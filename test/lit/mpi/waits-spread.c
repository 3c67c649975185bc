// MPI wait states as totals per pattern (issue 27, item 4). Mode 0: rank 1
// receives 20 messages, each at its own MPI_Recv call site, each sent 10 ms
// late, while both ranks spend 1.5 s working: no site alone loses 1% of
// the thread time, the pattern does, and diagnose reports it as one
// late_sender finding over the 20 sites, split by site and rank. Mode 1: an
// MPI_Sendrecv exchange that rank 0 enters 100 ms late: rank 1's call waits
// once, as late sender (its receive waited for the send), not also as late
// receiver (its send waited for the receive to be posted: the same 100 ms).
// Mode 2: an MPI_Waitall completing a 4 MiB MPI_Isend whose receive is
// posted 100 ms late waits as a late receiver.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t.spread && %mpirun -np 2 otter-run -o %t.spread %t.prog 0 | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose %t.spread | FileCheck --check-prefix=SPREAD %s
// RUN: rm -rf %t.sr && %mpirun -np 2 otter-run -o %t.sr %t.prog 1 | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose %t.sr | FileCheck --check-prefix=SENDRECV %s
// RUN: otter diagnose --json %t.sr | FileCheck --check-prefix=SRJSON %s
// RUN: rm -rf %t.wa && %mpirun -np 2 otter-run -o %t.wa %t.prog 2 | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose %t.wa | FileCheck --check-prefix=WAITALL %s
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define RECV(i)                                                                \
  MPI_Recv(&x[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE)

static void spread(int rank, int *x) {
  MPI_Barrier(MPI_COMM_WORLD); // both ready: each send is late by its sleep
  if (rank == 0) {
    for (int i = 0; i < 20; i++) {
      usleep(10000);
      MPI_Send(&i, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
    }
  } else {
    // One call site per message: 20 source lines.
    RECV(0);
    RECV(1);
    RECV(2);
    RECV(3);
    RECV(4);
    RECV(5);
    RECV(6);
    RECV(7);
    RECV(8);
    RECV(9);
    RECV(10);
    RECV(11);
    RECV(12);
    RECV(13);
    RECV(14);
    RECV(15);
    RECV(16);
    RECV(17);
    RECV(18);
    RECV(19);
  }
  usleep(1500000);
}

static void exchange(int rank, int *x) {
  if (rank == 0)
    usleep(100000);
  int peer = 1 - rank, mine = rank + 1;
  MPI_Sendrecv(&mine, 1, MPI_INT, peer, 7, &x[0], 1, MPI_INT, peer, 7,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// 4 MiB: too large to be sent eagerly, the I-send completes only once the
// receive is posted.
#define BIG (1 << 20)

static void late_receive(int rank) {
  int *buf = calloc(BIG, sizeof(int));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Request r;
    MPI_Isend(buf, BIG, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
    MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
  } else {
    usleep(100000);
    MPI_Recv(buf, BIG, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  free(buf);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x[20] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  if (mode == 1)
    exchange(rank, x);
  else if (mode == 2)
    late_receive(rank);
  else
    spread(rank, x);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 done
// OUT: rank 1 done

// SPREAD: late_sender: mpi at {{.*}}waits-spread.c:{{[0-9]+}} MPI_Recv and {{[5-9]|1[0-9]}} other call site(s) (est. {{.*}} thread time lost)
// SPREAD-NEXT: threshold: time lost > 1% of thread time ({{.*}}), summed over the pattern's call sites
// SPREAD-NEXT: evidence: {{[0-9]+}} of 20 receive(s) began before their send, {{.*}} lost, worst {{.*}}; by call site: {{.*}}waits-spread.c:{{[0-9]+}} MPI_Recv {{.*}} (1 calls), {{.*}}, {{[0-9]+}} more {{.*}}
// SPREAD-NEXT: ranks: rank 1 {{.*}}

// SENDRECV: late_sender: mpi at {{.*}}waits-spread.c:[[#@LINE-46]] MPI_Sendrecv (est. {{.*}} thread time lost)
// SENDRECV-NEXT: threshold:
// SENDRECV-NEXT: evidence: 1 of 2 receive(s) began before their send, {{[0-9.]+}} ms lost
// SENDRECV-NOT: late_receiver
// SRJSON-NOT: late_receiver

// WAITALL: late_receiver: mpi at {{.*}}waits-spread.c:[[#@LINE-38]] MPI_Waitall (est. {{.*}} thread time lost)
// WAITALL-NEXT: threshold:
// WAITALL-NEXT: evidence: 1 of 1 send(s) began before their receive was posted, {{[0-9.]+}} ms lost
