// OTTER_START=paused: nothing is recorded until the program calls
// omp_control_tool(omp_control_tool_start), which records a resume node in
// the initial task; a bad value warns once and records from the start.
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_START=paused OTTER_OUTPUT_DIR=%t.d %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-rebuild --format all %t.d
// otter-run --paused is the same.
// RUN: rm -rf %t.r && %otter_bin/bin/otter-run --paused -f canon -o %t.r %t > %t.rout 2> %t.rerr
// RUN: diff %t.d/graph.txt %t.r/graph.txt
// RUN: rm -rf %t.b && %otter-run OTTER_START=later OTTER_OUTPUT_DIR=%t.b %t > %t.bout 2> %t.berr
// RUN: FileCheck --check-prefix=BAD %s < %t.berr
// RUN: FileCheck --check-prefix=ALL %s < %t.b/graph.txt
#include <omp.h>
#include <stdio.h>

static int region(void) {
  int n = 0;
  // ALL: parallel_begin parent=n0 at={{.*}}start-paused.c:[[@LINE+1]]:1
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  return n;
}

int main(void) {
  int a = region(); // not recorded
  // CHECK: # otter canonical graph
  // CHECK-NEXT: n0 initial_task
  // CHECK-NOT: parallel_begin
  // CHECK: resume parent=n0 at={{.*}}start-paused.c:[[@LINE+1]]
  int s = omp_control_tool(omp_control_tool_start, 0, NULL);
  // CHECK: parallel_begin parent=n0 at={{.*}}start-paused.c:[[@LINE-12]]:1
  // CHECK-NOT: parallel_begin
  int b = region();
  printf("%d %d %d\n", a, s, b);
  return 0;
}
// OUT: 2 0 2
// BAD: otter: warning: OTTER_START='later' is not valid (use paused or recording); using recording
// ALL: parallel_begin
