// An MPI job whose ranks offload (host offload): the job's OTF2 archive
// keeps each rank's device stream under its rank, named as the device;
// the job's summary has the target directive's instances of every rank;
// the job's report has a device row per rank (each rank's device 0 is its
// own), and each rank's thread waits for its device in the target region.
// REQUIRES: mpi, host-offload, plugin
// RUN: %offload-cc %mpi_cflags %s %mpi_libs -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog | FileCheck --check-prefix=OUT %s
// RUN: otf2-print -A %t/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
// RUN: otter report -o %t.html %t
// RUN: FileCheck --check-prefix=HTML %s < %t.html
// RUN: %check-states --expect-wait target %t/rank-1 | FileCheck --check-prefix=STATES %s
#include <mpi.h>
#include <stdio.h>
#define N 1000

static double A[N];

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  for (int I = 0; I < N; ++I)
    A[I] = Rank + I;
// SUM: target teams distribute parallel for {{.*}}offload.c:[[#@LINE+1]] 2 {{.*}} 2 16000 2 16000 2
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int I = 0; I < N; ++I)
    A[I] *= 2;
  double Local = A[10], Sum = 0;
  MPI_Allreduce(&Local, &Sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (Rank == 0)
    printf("sum %g on %d ranks\n", Sum, Size);
  MPI_Finalize();
  return 0;
}

// OUT: sum 42 on 2 ranks
// DEFS-DAG: Name: "rank 0 device 0 stream 0" <{{[0-9]+}}>, Type: ACCELERATOR_STREAM, {{.*}}Group: "MPI rank 0"
// DEFS-DAG: Name: "rank 1 device 0 stream 0" <{{[0-9]+}}>, Type: ACCELERATOR_STREAM, {{.*}}Group: "MPI rank 1"
// HTML: >rank 0 device 0</text>
// HTML: >rank 1 device 0</text>
// HTML: waiting for a device (in a target construct)
// HTML: "devices":[{"device":0,"rank":0,"kernel_ns":{{[1-9][0-9]*}},{{.*}}},{"device":0,"rank":1,"kernel_ns":{{[1-9][0-9]*}},
// STATES: states: ok
