// omp_control_tool before libomp has started (issue 28): libomp loads its
// tool only when it initializes itself, so a pause asked for as the
// program's first OpenMP call answers omp_control_tool_notool (-2) and
// OTTER never sees it. After any OpenMP routine the same call works; the
// annotation functions of otter/otter.h retry that way themselves, so a
// mark made before any OpenMP call is recorded (README, docs/trace.md
// "Tool control").
// RUN: %clang -fopenmp -I%otter_src/include %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d OTTER_TRACE=0 %t | FileCheck %s
// RUN: FileCheck --check-prefix=GRAPH %s < %t.d/graph.txt
// RUN: %clang -fopenmp -DMARK_FIRST -I%otter_src/include %s -o %t.m
// RUN: rm -rf %t.md && %otter-run OTTER_OUTPUT_DIR=%t.md OTTER_TRACE=0 %t.m
// RUN: FileCheck --check-prefix=MARK %s < %t.md/graph.txt
#include <omp.h>
#include <otter/otter.h>
#include <stdio.h>

int main(void) {
#ifdef MARK_FIRST
  otter_mark("first"); // before any OpenMP call: the header retries
#pragma omp parallel num_threads(2)
  ;
  return 0;
#endif
  // CHECK: first: -2
  printf("first: %d\n", omp_control_tool(omp_control_tool_pause, 0, NULL));
  (void)omp_get_num_procs();
  // CHECK-NEXT: again: 0
  printf("again: %d\n", omp_control_tool(omp_control_tool_pause, 0, NULL));
  // CHECK-NEXT: start: 0
  printf("start: %d\n", omp_control_tool(omp_control_tool_start, 0, NULL));
  return 0;
}
// GRAPH: pause
// GRAPH: resume
// MARK: mark {{.*}}name="first"
