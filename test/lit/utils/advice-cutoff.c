// A recursive fib whose tasks go down to the leaves: each task does far less
// work than creating and scheduling it costs. diagnose advises a recursion
// cut-off for the family of task constructs (both calls), named at one of
// them, with the time predicted by replaying the program cut off at the best
// depth (each task at that depth one task with its subtree's work): less
// than the replay as it is.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d > %t.json
// RUN: python3 %S/Inputs/advice_check.py %t.json cutoff | FileCheck %s --check-prefix=JSON
// RUN: otter diagnose --no-advice %t.d | FileCheck %s --check-prefix=NONE
#include <stdio.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
  // The family is named at its construct with the most tasks (x's).
  // CHECK: advice:    (cutoff) at {{.*}}advice-cutoff.c:[[@LINE+5]]: create tasks only down to recursion depth {{[0-9]+}} at the task construct (with {{.*}}advice-cutoff.c:[[@LINE+7]])
  // CHECK-NEXT: replayed:  cut-off at depth {{[0-9]+}}: each task at depth {{[0-9]+}} becomes one task with its subtree's summed work, less the creation cost ({{.*}}) of each of the {{[0-9]+}} tasks removed
  // CHECK-NEXT: predicted: {{.*}} -> {{.*}} on 2 core(s), gain {{[0-9.]+}}%
  // JSON: {{too_fine|recursive_grain}} cutoff {{.*}}advice-cutoff.c:[[@LINE+2]] cores=2 after<before=True after<=before=True transformation=cut-off at depth
  // NONE-NOT: advice:
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(20);
  printf("%ld\n", r);
  return 0;
}
