// An output directory that cannot be created or written: one error line that
// names the problem and the fix; the program's output and exit code are
// unchanged.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: rm -f %t.file && touch %t.file
// RUN: sh -c 'env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.file/sub %t > %t.traced 2> %t.err; echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck %s < %t.err
// RUN: sh -c 'env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.file %t > %t.traced2 2> %t.err2; echo "exit=$?" >> %t.traced2'
// RUN: diff %t.plain %t.traced2
// RUN: FileCheck --check-prefix=NOTDIR %s < %t.err2
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  n++;
  printf("n=%d\n", n);
  return 7;
}

// CHECK: otter: error: cannot write to output directory '{{.*}}.file/sub': Not a directory (set OTTER_OUTPUT_DIR to a writable directory); not tracing
// CHECK-NOT: otter:
// NOTDIR: otter: error: cannot write to output directory '{{.*}}.file': exists and is not a directory (set OTTER_OUTPUT_DIR to a writable directory); not tracing
