// Running twice with the same OTTER_OUTPUT_DIR replaces the previous run's
// graph files and trace; both runs end cleanly and the trace reads.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d
// RUN: env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.d %t 2> %t.err1
// RUN: env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.d %t 2> %t.err2
// RUN: FileCheck %s < %t.err1
// RUN: FileCheck %s < %t.err2
// RUN: otf2-print %t.d/trace/traces.otf2 > %t.print 2> %t.print.err
// RUN: FileCheck --check-prefix=PRINT %s < %t.print
// RUN: not grep . %t.print.err
#include <stdio.h>

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    { }
  }
  return 0;
}

// CHECK-NOT: error
// CHECK: otter: wrote {{.*}}: 2 threads, 1 parallel regions, 1 tasks
// PRINT: THREAD_TASK_CREATE
