// An MPI call made from inside another MPI call -- by the MPI library
// itself, or by a callback the library runs, here an error handler that
// MPI_Send invokes -- is not recorded a second time (issue 24): the
// wrappers keep a per-thread depth and send an inner call straight to its
// PMPI entry point. The outer call is recorded as usual, and the trace
// balances.
// REQUIRES: mpi
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 1 otter-run -o %t -f canon %t.prog | FileCheck --check-prefix=OUT %s
// RUN: otter dump %t/rank-0 | FileCheck %s
// RUN: %check-rebuild --format canon %t/rank-0
#include <mpi.h>
#include <stdio.h>

static int handled = 0;

static void onError(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
  MPI_Barrier(MPI_COMM_SELF); // an MPI call inside MPI_Send: not recorded
  ++handled;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler h;
  MPI_Comm_create_errhandler(onError, &h);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, h);
  int x = 1;
  int rc = MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD); // no rank 99
  MPI_Barrier(MPI_COMM_WORLD); // recorded
  // OUT: handled=1 failed=1
  printf("handled=%d failed=%d\n", handled, rc != MPI_SUCCESS);
  MPI_Errhandler_free(&h);
  MPI_Finalize();
  return 0;
}

// The send and the program's own barrier; the handler's barrier on
// MPI_COMM_SELF is not among them.
// CHECK: mpi_call_begin {{.*}}function=MPI_Send
// CHECK-NOT: mpi_call_begin {{.*}}function=MPI_Barrier
// CHECK: mpi_call_end {{.*}}function=MPI_Send
// CHECK: mpi_call_begin {{.*}}function=MPI_Barrier
// CHECK-NOT: mpi_call_begin {{.*}}function=MPI_Barrier
