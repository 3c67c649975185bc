// exit() called from inside an explicit task, while other threads of the
// team are busy: the program's output and exit status are the untraced
// run's, and what was recorded up to then is saved and reads back (regions
// left open: the run was cut off).
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: %check-rebuild --open --format canon %t.d
// RUN: otter summary %t.d | FileCheck --check-prefix=SUMMARY %s
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  printf("start\n");
  fflush(stdout);
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 1000; ++i) {
#pragma omp task firstprivate(i)
    {
      if (i == 500) {
        printf("exiting from task %d\n", i);
        exit(3);
      }
    }
  }
  printf("not reached\n");
  return 0;
}
// CHECK: start
// CHECK-NEXT: exiting from task 500
// CHECK-NEXT: exit=3
// SUMMARY: constructs {{.*}}task={{[0-9]+}}
