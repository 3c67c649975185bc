// The critical-path profile of a job (issue 27, item 4) and the MPI wait
// states split by thread.
// Mode 0: two ranks, two threads each; each rank runs one task, rank 1's
// 600 ms, rank 0's 50 ms, then rank 1 sends to rank 0, which waits for it.
// The path runs through rank 1's task and crosses at the message to rank
// 0, which works 200 ms more: the profile names the task with a positive
// critical-path imbalance (600 ms on the path, 325 ms for an average rank,
// per thread ~163 ms) and the MPI_Recv the path crossed at, 0 ns on the
// path and rank 0's ~550 ms wait in it (a mean of ~275 ms over the ranks).
// Mode 1 (MPI_THREAD_MULTIPLE): both threads of rank 0 receive, each its
// own message, which rank 1's threads send 200 and 400 ms late: diagnose's
// late sender is split by thread, rank.thread 0.0 and 0.1.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog 0 | sort | FileCheck --check-prefix=OUT %s
// RUN: otter parallelism %t > %t.par
// RUN: FileCheck --check-prefix=PAR %s < %t.par
// RUN: otter parallelism --json %t > %t.json
// RUN: python3 %S/Inputs/path-profile-check.py %t.json %s
// RUN: otter report --no-simulate -o %t.html %t
// RUN: FileCheck --check-prefix=HTML %s < %t.html
// RUN: rm -rf %t.mt && %mpirun -np 2 otter-run -o %t.mt %t.prog 1 | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose %t.mt | FileCheck --check-prefix=DIAG %s
// RUN: otter diagnose --json %t.mt | FileCheck --check-prefix=DJSON %s
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// OUT: rank 0 done
// OUT-NEXT: rank 1 done

// PAR: critical path (
// PAR: critical-path profile ({{[0-9]+}} call paths on the path, 2 ranks; by time on the path):
// PAR-NEXT: {{^ kind +where +on path +share +mean/rank +imbalance +mpi/rank$}}
// HTML: <section id="path-profile"><h2>Critical-path profile</h2>
static void compute(int rank) {
  // PAR: {{^ task .*path-profile.c:}}[[#@LINE+2]]{{ +[0-9.]+ m?s +[0-9.]+% +[0-9.]+ m?s +\+[0-9.]+ m?s +-$}}
  // HTML: <tr><td>task</td><td>{{[^<]*}}path-profile.c:[[#@LINE+1]]</td>{{.*}}>+{{[0-9.]+ m?s}}</td><td></td></tr>
#pragma omp task
  usleep(rank == 1 ? 600000 : 50000);
#pragma omp taskwait
}

static void profile(int rank) {
  int x = rank;
#pragma omp parallel num_threads(2)
#pragma omp single
  compute(rank);
  if (rank == 1) {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else {
    // PAR: {{^ mpi MPI_Recv .*path-profile.c:}}[[#@LINE+1]]{{ +0 ns +0.0% +0 ns +0 ns +([1-9][0-9][0-9]\.[0-9]+ ms|[0-9.]+ s)$}}
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // Work after the message: the path ends on rank 0, so it crosses at the
    // MPI_Recv whatever rank 1 does after its send on a loaded machine.
    usleep(200000);
  }
}
// PAR: on path: the call path's time on the critical path above
// PAR: imbalance: on path - mean/rank (Scalasca's critical-path imbalance)

static void threads(int rank) {
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num(), x = t;
    if (rank == 0) {
      // DIAG: late_sender: mpi at {{.*}}path-profile.c:[[#@LINE+4]] MPI_Recv
      // DIAG: ranks: rank 0 {{[0-9.]+ m?s$}}
      // DIAG-NEXT: threads: rank.thread 0.0 {{[0-9.]+ m?s}}, rank.thread 0.1 {{[0-9.]+ m?s$}}
      // DJSON: "check":"late_sender"{{.*}}"ranks":[{"rank":0,"lost_ns":{{[0-9]+}}}],"threads":[{"rank":0,"thread":0,"lost_ns":{{[0-9]+}}},{"rank":0,"thread":1,"lost_ns":{{[0-9]+}}}]
      MPI_Recv(&x, 1, MPI_INT, 1, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      usleep(200000 * (t + 1));
      MPI_Send(&x, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE)
    return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && atoi(argv[1]) == 1)
    threads(rank);
  else
    profile(rank);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
