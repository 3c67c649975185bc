// 100,000 short parallel regions, one after another: output and exit code
// as untraced; every region is in the trace and the graph rebuilt from it.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: sh -c '%t; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild --format canon %t.d
#include <stdio.h>

int main(void) {
  long s = 0;
  for (int r = 0; r < 100000; ++r) {
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 1;
  }
  printf("s=%ld\n", s);
  return s == 200000 ? 0 : 1;
}
// CHECK: s=200000
// CHECK-NEXT: exit=0
// ERR: otter: wrote {{.*}}: 2 threads, 100000 parallel regions
