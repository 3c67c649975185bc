// Many more threads than cores (64 and 256 on a 2-core CI machine): the
// program's output and exit code are the untraced run's, and the trace
// holds every thread, balanced, and rebuilds the graph the runtime wrote.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c 'env OMP_NUM_THREADS=64 %t; echo exit=$?' > %t.plain64
// RUN: rm -rf %t.d64 && sh -c 'env %otter_env OMP_NUM_THREADS=64 OTTER_OUTPUT_DIR=%t.d64 OTTER_GRAPH_FORMAT=canon,csv %t 2> %t.err64; echo exit=$?' > %t.out64
// RUN: diff %t.plain64 %t.out64
// RUN: FileCheck --check-prefix=ERR64 %s < %t.err64
// RUN: %check-rebuild %t.d64
// RUN: sh -c 'env OMP_NUM_THREADS=256 %t; echo exit=$?' > %t.plain256
// RUN: rm -rf %t.d256 && sh -c 'env %otter_env OMP_NUM_THREADS=256 OTTER_OUTPUT_DIR=%t.d256 OTTER_GRAPH_FORMAT=canon,csv %t 2> %t.err256; echo exit=$?' > %t.out256
// RUN: diff %t.plain256 %t.out256
// RUN: FileCheck --check-prefix=ERR256 %s < %t.err256
// RUN: %check-rebuild %t.d256
// RUN: FileCheck --check-prefix=OUT %s < %t.out256
#include <omp.h>
#include <stdio.h>

static long tsum = 0; // the tasks' (shared, atomic)

int main(void) {
  long sum = 0;
  int teams = 0;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel reduction(+ : sum, teams)
    {
#pragma omp single
      for (int i = 0; i < 2000; ++i) {
#pragma omp task
        {
#pragma omp atomic
          tsum += i;
        }
      }
#pragma omp barrier
#pragma omp for schedule(dynamic, 7)
      for (int i = 0; i < 10000; ++i)
        sum += 1;
      if (omp_get_thread_num() == 0)
        teams += omp_get_num_threads() > 1;
    }
  }
  sum += tsum;
  printf("sum=%ld teams=%d\n", sum, teams);
  return sum == 3L * (1999L * 2000 / 2 + 10000) ? 0 : 1;
}
// ERR64: otter: wrote {{.*}}: 64 threads,
// ERR256: otter: wrote {{.*}}: 256 threads,
// OUT: sum=6027000 teams=3
// OUT-NEXT: exit=0
