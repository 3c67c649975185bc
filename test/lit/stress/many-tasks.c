// Many tasks (1 M here; the full 10 M case is bench/many_tasks.py, too
// slow for every CI run on 2 cores): with the graph and the trace the
// output and exit code are the untraced run's, and both hold every task.
// (Memory in trace-only mode: many-tasks-memory.c.)
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: sh -c '%t 1000000; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t 1000000 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: otter summary %t.d | FileCheck --check-prefix=SUMMARY %s
#include <stdio.h>
#include <stdlib.h>

static long done = 0;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (long i = 0; i < n; ++i) {
#pragma omp task
    {
#pragma omp atomic
      done += 1;
    }
  }
  printf("tasks done=%ld\n", done);
  return done == n ? 0 : 1;
}
// CHECK: tasks done=1000000
// CHECK-NEXT: exit=0
// ERR: otter: wrote {{.*}}: 2 threads, 1 parallel regions, 1000000 tasks
// SUMMARY: constructs {{.*}} task=1000000
// DONE: tasks done=1000000
