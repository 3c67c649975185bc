// MPI_Abort in one rank: that rank writes its trace and graph before the
// call (which never returns), the call included; the launcher ends the
// other rank with SIGTERM, and its trace and graph are written up to that
// moment. The
// job's exit code is the abort's.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && sh -c '%mpirun -np 2 otter-run -o %t -f all %t.prog 2> %t.err; echo status=$?' | FileCheck --check-prefix=STATUS %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck --check-prefix=ABORTED %s < %t/rank-1/graph.txt
// RUN: %check-rebuild --open --format canon %t/rank-1
// RUN: %check-rebuild --open --format canon %t/rank-0
// RUN: otter-graph %t/rank-0 -o %t/re0 --format canon
// RUN: FileCheck --check-prefix=KILLED %s < %t/re0/graph.txt
// RUN: otf2-print %t/trace/traces.otf2 | FileCheck --check-prefix=JOB %s
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 3; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    MPI_Abort(MPI_COMM_WORLD, 3);
  // Rank 0 waits for a message that never comes.
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

// (Open MPI's own MPI_ABORT message is sometimes lost in a race of its own.)
// STATUS: status=3
// ERR: otter: the program was ended by SIGTERM; writing what was recorded
// ERR: otter: wrote {{.*}}/rank-0/ (
// The last of the two to close its archive assembled the job's.
// ERR: otter: wrote {{.*}}/trace/ (OTF2 archive of the job: 2 ranks, {{[0-9]+}} threads)

// ABORTED: n4 mpi parent=n0 at={{.*}}abort.c:[[#@LINE-16]]:5 flags=MPI_Barrier
// ABORTED-NEXT: -> n5 scope
// ABORTED-NEXT: n5 mpi parent=n0 at={{.*}}abort.c:[[#@LINE-16]]:5 flags=MPI_Abort
// ABORTED-EMPTY:

// KILLED: n4 mpi parent=n0 at={{.*}}abort.c:[[#@LINE-21]]:5 flags=MPI_Barrier
// KILLED-EMPTY:

// JOB: ENTER {{.*}}Region: "MPI_Abort @ {{.*}}abort.c
