// OTTER_SYMBOLIZE=1: the symbolizer's start-up (loading the program's debug
// info) is OTTER's time, not the program's. It is started when the tool
// starts, before the program's first event; it used to start at the first
// new call site, inside the thread that flushed first, while the other
// threads waited for it in a barrier (issue 26: a ~40 ms run measured
// 480 ms, 92 % of it "barrier"). A symbolizer that takes 3 s to start must
// not show in the run time, nor in any construct's time.
// RUN: %clang -g -fopenmp %s -o %t
// RUN: printf '#!/bin/sh\nsleep 3\nexec llvm-symbolizer-19 "$@"\n' > %t.slow
// RUN: chmod +x %t.slow
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SYMBOLIZE=1 \
// RUN:   OTTER_SYMBOLIZER=%t.slow %t | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t.d 2>&1 | FileCheck %s
// The labels still come from the symbolizer.
// RUN: otter summary %t.d 2>&1 | FileCheck --check-prefix=LABEL %s
#include <stdio.h>

int main(void) {
  int n = 0;
  // LABEL: barrier_implicit ~{{[^ ]*}}symbolize-time.c:[[@LINE+1]]
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  // OUT: n=2
  printf("n=%d\n", n);
  return 0;
}

// Well under a second: in ms or us, never in s.
// CHECK: run time {{ *}}{{[0-9.]+}} {{m|u}}s
// CHECK-NOT: {{[0-9.]+}} s {{ }}
