// The end-of-run line starts on a line of its own when the program's last
// output did not end one and stdout and stderr go to one file or pipe
// (seen as `x=2otter: wrote ...`); with separate files nothing is added to
// either.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d sh -c '%t > %t.log 2>&1'
// RUN: FileCheck %s < %t.log
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d sh -c '%t 2>&1 | cat' > %t.pipe
// RUN: FileCheck %s < %t.pipe
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d %t > %t.out 2> %t.err
// RUN: printf 'x=2' | cmp - %t.out
// RUN: head -n 1 %t.err | FileCheck --check-prefix=ERR %s
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2) reduction(+ : x)
  x += 1;
  printf("x=%d", x);
  return 0;
}

// CHECK: {{^}}x=2{{$}}
// CHECK-NEXT: {{^}}otter: wrote
// ERR: {{^}}otter: wrote
