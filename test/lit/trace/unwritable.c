// An output directory that cannot be written: a one-line message, the
// program runs and exits as without the tool.
// RUN: %clang -fopenmp %s -o %t
// RUN: %otter-run OTTER_GRAPH_FORMAT=none OTTER_OUTPUT_DIR=/proc/otter-cannot-write %t 2> %t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.err
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    x++;
  }
  printf("x=%d\n", x);
  return 0;
}
// OUT: x=2
// CHECK: otter: error: cannot write the trace to '/proc/otter-cannot-write/trace': {{.*}}; not writing a trace
