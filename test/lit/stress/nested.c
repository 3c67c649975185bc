// Nested parallel regions four levels deep (2 threads at each level: 16
// threads at the innermost): output and exit code as untraced; the trace is
// balanced on every thread and rebuilds the runtime's graph.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c 'env OMP_MAX_ACTIVE_LEVELS=4 %t; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OMP_MAX_ACTIVE_LEVELS=4 OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon,csv %t 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild %t.d
#include <omp.h>
#include <stdio.h>

int main(void) {
  int leaves = 0, deepest = 0;
#pragma omp parallel num_threads(2) reduction(+ : leaves) reduction(max : deepest)
#pragma omp parallel num_threads(2) reduction(+ : leaves) reduction(max : deepest)
#pragma omp parallel num_threads(2) reduction(+ : leaves) reduction(max : deepest)
#pragma omp parallel num_threads(2) reduction(+ : leaves) reduction(max : deepest)
  {
#pragma omp task
    { volatile int x = omp_get_level(); (void)x; }
#pragma omp taskwait
    leaves += 1;
    deepest = omp_get_active_level();
  }
  printf("leaves=%d deepest=%d\n", leaves, deepest);
  return leaves == 16 ? 0 : 1;
}
// CHECK: leaves=16 deepest=4
// CHECK-NEXT: exit=0
// ERR: otter: wrote {{.*}}: {{[0-9]+}} threads, 15 parallel regions
