// otter simulate and otter report on an MPI job: two ranks, each a team of
// two threads running eight tasks (rank 0 of 5 ms, rank 1 of 10 ms), then
// a barrier. `otter simulate DIR` replays each rank alone on P cores (its
// MPI calls as long as they took) and predicts the job's time per P as its
// slowest rank's (which rank that is depends on the times measured: four
// threads on a loaded 2-core machine stretch either rank). A rank's part of the job's prediction is what
// `otter simulate` says of that rank's own archive (the same replay of the
// same trace). `otter report DIR` writes one page for the job: a section
// per rank, the job's analysis, and the same predicted times.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter simulate --cores 1,2,4 %t | FileCheck %s
// CHECK: job {{.*}}: 2 ranks, each replayed alone on P cores; its MPI calls take the time they took
// CHECK: rank 0
// CHECK: scheduling cost
// CHECK: measured {{.*}} on 2 thread(s)
// CHECK: rank 1
// CHECK: job: the slowest rank on P cores per rank
// CHECK: cores predicted speedup efficiency slowest work/P
// CHECK-NEXT: {{^ +1 .* rank [01] }}
// CHECK-NEXT: {{^ +2 .* rank [01] }}
// CHECK-NEXT: {{^ +4 .* rank [01] }}
// RUN: otter simulate --json --cores 1,2,4 %t > %t.job.json
// RUN: otter simulate --json --cores 1,2,4 %t/trace > %t.archive.json
// RUN: otter simulate --json --cores 1,2,4 %t/rank-0 > %t.r0.json
// RUN: otter simulate --json --cores 1,2,4 %t/rank-1 > %t.r1.json
// RUN: otter report -o %t.html --cores 1,2,4 %t | FileCheck --check-prefix=REPORT %s
// REPORT: wrote {{.*}}.html
// RUN: otter report -o %t.nosim.html --no-simulate %t/trace/traces.otf2
// RUN: python3 %S/Inputs/sim-report-check.py %t.job.json %t.archive.json %t.r0.json %t.r1.json %t.html %t.nosim.html
#include "../utils/Inputs/spin.h"
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 8; ++i) {
#pragma omp task
      spin_ms(rank ? 10 : 5);
    }
#pragma omp taskwait
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 done
// OUT: rank 1 done
