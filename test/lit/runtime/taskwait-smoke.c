// Two tasks and a taskwait in a single region: the graph without the plugin.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-rebuild %t.d
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    x++;
#pragma omp task
    x++;
#pragma omp taskwait
  }
  printf("x=%d\n", x);
  return 0;
}

// OUT: x=2
// ERR: otter: wrote {{.*}}: 2 threads, 1 parallel regions, 2 tasks, [[N:[0-9]+]] nodes

// CHECK: n0 initial_task parent=-
// CHECK-NEXT: -> n1 scope
// CHECK-NEXT: n1 parallel_begin parent=n0
// CHECK: implicit_task parent=n1
// CHECK: n[[SB:[0-9]+]] single_begin parent=n[[IT:[0-9]+]] at={{.*}} flags=executor
// CHECK-NEXT: -> n[[T1:[0-9]+]] create
// CHECK-NEXT: -> n[[T2:[0-9]+]] create
// CHECK-NEXT: -> n[[TW:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT]]
// CHECK-NEXT: -> n[[TW]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT]]
// CHECK-NEXT: -> n[[TW]] sync
// CHECK-NEXT: n[[TW]] taskwait parent=n[[IT]]
// CHECK-NEXT: -> n[[B:[0-9]+]] scope
// CHECK: n[[B]] barrier_implicit parent=n1
// CHECK: parallel_end parent=n0
