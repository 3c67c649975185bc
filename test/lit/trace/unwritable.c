// An output directory that cannot be written: one line (not one per
// output), the
// program runs and exits as without the tool.
// RUN: %clang -fopenmp %s -o %t
// RUN: %otter-run OTTER_GRAPH_FORMAT=none OTTER_OUTPUT_DIR=/proc/otter-cannot-write %t 2> %t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --implicit-check-not=otter %s < %t.err
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
// CHECK: otter: error: cannot write to output directory '/proc/otter-cannot-write': {{.*}} (set OTTER_OUTPUT_DIR to a writable directory); not tracing
