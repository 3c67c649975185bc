// The program runs unchanged without the tool, and with the tool disabled
// through OMP_TOOL=disabled (libomp then never loads OTTER).
// RUN: %clang -fopenmp %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OMP_TOOL=disabled OMP_TOOL_LIBRARIES=%libotter %t 2>&1 | FileCheck --check-prefix=DISABLED %s
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n = 1;
  printf("n=%d\n", n);
  return 0;
}

// CHECK: n=2
// DISABLED: n=2
// DISABLED-NOT: otter:
