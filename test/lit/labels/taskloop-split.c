// A taskloop big enough that libomp splits it: it creates task-generating
// tasks, which create the loop's tasks on whichever thread runs them while
// reporting the taskloop's encountering task as their creator. Every task
// must carry the taskloop's line, and the graph must be the same on every
// run (the generating tasks are the creators of what they create).
// REQUIRES: plugin
// RUN: %otter-cc -O2 %s -o %t
// RUN: rm -rf %t.d1 %t.d2 %t.d3 %t.d4
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d1 OTTER_VERBOSE=1 %t 2> %t.err
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d3 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d4 %t
// RUN: diff %t.d1/graph.txt %t.d2/graph.txt
// RUN: diff %t.d1/graph.txt %t.d3/graph.txt
// RUN: diff %t.d1/graph.txt %t.d4/graph.txt
// RUN: FileCheck %s < %t.d1/graph.txt
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild %t.d2
#include <stdio.h>

int main(void) {
  static double a[4000];
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(1)
  for (int i = 0; i < 4000; ++i)
    a[i] = i * 0.5;
  printf("%.1f\n", a[3999]);
  return 0;
}

// Only the parallel region, the single and the taskloop make nodes; no
// node is labelled inside the runtime or libc.
// CHECK-NOT: at=~
// CHECK: taskloop_begin {{.*}}at={{.*}}taskloop-split.c:[[@LINE-10]]:1
// CHECK-NOT: at=~
// CHECK: task parent=n{{[0-9]+}} at={{.*}}taskloop-split.c:[[@LINE-12]]:1
// CHECK-NOT: at=~
// ERR: 0 approximate, 0 unresolved
