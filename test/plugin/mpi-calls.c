// The plugin brackets the MPI calls that lib/libotter-mpi.so records, like
// OpenMP API calls: each is its own pseudo-directive at the call, so its
// events carry the exact line:col (also inside an outlined task body, at
// -O2). MPI functions that are not recorded (MPI_Comm_rank) get no site.
// REQUIRES: plugin, mpi
// RUN: %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-verbose -O2 %mpi_cflags -c %s -o %t.o 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: otter-sites %t.o | FileCheck %s
#include <mpi.h>

int f(MPI_Comm c, int *x) {
  MPI_Request r;
  MPI_Isend(x, 1, MPI_INT, 0, 1, c, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int rank;
  MPI_Comm_rank(c, &rank);
#pragma omp task
  MPI_Barrier(c);
  return rank;
}

// VERBOSE: otter: site 'MPI_Isend' in 'f' at {{.*}}mpi-calls.c:[[@LINE-9]]:3 -> 'MPI_Isend' at {{.*}}mpi-calls.c:[[@LINE-9]]:3
// VERBOSE: otter: site 'MPI_Wait' in 'f' at {{.*}}mpi-calls.c:[[@LINE-9]]:3 -> 'MPI_Wait' at {{.*}}mpi-calls.c:[[@LINE-9]]:3
// VERBOSE: otter: site 'MPI_Barrier' in '.omp_task_entry.' at {{.*}}mpi-calls.c:[[@LINE-6]]:3 -> 'MPI_Barrier'
// VERBOSE-NOT: MPI_Comm_rank

// CHECK: directive "MPI_Isend" at {{.*}}mpi-calls.c:[[#@LINE-14]]:3-[[#@LINE-14]]:39 function "f"
// CHECK: directive "MPI_Wait" at {{.*}}mpi-calls.c:[[#@LINE-14]]:3-[[#@LINE-14]]:33 function "f"
// CHECK: directive "task" at {{.*}}mpi-calls.c:[[#@LINE-12]]:1
// CHECK: directive "MPI_Barrier" at {{.*}}mpi-calls.c:[[#@LINE-12]]:3-[[#@LINE-12]]:16 function "f"
// CHECK: summary: 4 directives, 4 sites, 0 errors
