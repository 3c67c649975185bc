// omp_pause_resource_all: a soft pause keeps tracing; a hard pause shuts
// libomp down, which finalizes and dlclose()s the tool while holding its
// lock. The traced program must neither hang (it did: the tool's atexit
// handler ran inside that dlclose and called omp_in_parallel) nor change
// its output or exit code, and what was recorded before the hard pause is
// written at exit. libomp 19 starts its tool interface once per process, so
// the regions after the hard pause are not recorded: OTTER says so.
// RUN: %clang -fopenmp -fplugin=%otter_plugin %s -o %t
// RUN: sh -c '%t; echo "rc=$?"' > %t.plain
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon timeout 60 sh -c '%t; echo "rc=$?"' > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %otter_bin/bin/otter summary %t.d/trace > %t.summary
#include <omp.h>
#include <stdio.h>

static int team(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  // The two regions before the hard pause, labelled with this line:
  // CHECK-COUNT-2: parallel_begin parent=n0 {{.*}}pause-resource.c:[[@LINE-2]]:1
  // CHECK-NOT: parallel_begin
  n += 1;
  return n;
}

int main(void) {
  printf("before %d\n", team());
  printf("soft %d\n", omp_pause_resource_all(omp_pause_soft));
  printf("after soft %d\n", team());
  printf("hard %d\n", omp_pause_resource_all(omp_pause_hard));
  printf("after hard %d\n", team());
  return 3;
}

// OUT: rc=3
// ERR: otter: warning: the OpenMP runtime shut its tool interface down before exit
// ERR-NOT: error
// ERR: otter: wrote {{.*}}: {{[0-9]+}} threads, 2 parallel regions
