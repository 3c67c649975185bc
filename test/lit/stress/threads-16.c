// 16 threads on 2 cores, every thread's events collected in a store of its
// own while the program runs (no lock between the threads) and merged at
// exit: two runs make the same canonical graph, the trace rebuilds it, and
// no task is lost (16 x 100 task nodes, one per task created).
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c 'env OMP_NUM_THREADS=16 %t; echo exit=$?' > %t.plain
// RUN: rm -rf %t.a %t.b
// RUN: sh -c 'env %otter_env OMP_NUM_THREADS=16 OTTER_OUTPUT_DIR=%t.a OTTER_GRAPH_FORMAT=canon,csv %t 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: sh -c 'env %otter_env OMP_NUM_THREADS=16 OTTER_OUTPUT_DIR=%t.b OTTER_GRAPH_FORMAT=canon %t 2> /dev/null; echo exit=$?' > /dev/null
// RUN: diff %t.a/graph.txt %t.b/graph.txt
// RUN: FileCheck %s < %t.a/graph.txt
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild %t.a
#include <omp.h>
#include <stdio.h>

int main(void) {
  long sum = 0, loop = 0;
#pragma omp parallel num_threads(16) reduction(+ : loop)
  {
    for (int i = 0; i < 100; ++i) {
#pragma omp task shared(sum)
      {
#pragma omp atomic
        sum += i;
      }
    }
#pragma omp taskwait
#pragma omp for schedule(static)
    for (int i = 0; i < 1600; ++i)
      loop += i;
  }
  printf("sum=%ld loop=%ld\n", sum, loop);
  return 0;
}
// CHECK-COUNT-1600: {{^}}n{{[0-9]+}} task parent=
// CHECK-NOT: {{^}}n{{[0-9]+}} task parent=
// ERR: otter: wrote {{.*}}: 16 threads, 1 parallel regions, 1600 tasks,
