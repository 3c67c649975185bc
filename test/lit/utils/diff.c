// otter diff: two runs of one program, the second with a cutoff twice as
// coarse and a critical section the first never enters. The totals are
// each run's otter parallelism numbers; the task constructs match by the
// plugin's region id with each run's counts (otter summary's); the
// critical section is listed as only in B.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.a %t.b
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.a OMP_NUM_THREADS=2 %t 14 0
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.b OMP_NUM_THREADS=2 %t 16 1
// RUN: otter diff --json %t.a %t.b > %t.json
// RUN: otter parallelism --json %t.a > %t.a.par.json
// RUN: otter parallelism --json %t.b > %t.b.par.json
// RUN: otter summary --json %t.a > %t.a.sum.json
// RUN: otter summary --json %t.b > %t.b.sum.json
// RUN: python3 %S/Inputs/diff_check.py %t.json %t.a.par.json %t.b.par.json %t.a.sum.json %t.b.sum.json %(line+26)
// RUN: otter diff %t.a %t.b | FileCheck %s
// CHECK: run time
// CHECK: work
// CHECK: span
// CHECK: per construct, by impact
// CHECK: task {{.*}}diff.c:{{[0-9]+}}
// CHECK: only in B:
// CHECK-NEXT: critical {{.*}}diff.c:[[@LINE+18]]
// RUN: not otter diff %t.a 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: otter: error: diff needs two archives, A and B
#include "Inputs/spin.h"
#include <stdlib.h>

static int cutoff, extra, hits;

static long fib(int n) {
  if (n < cutoff)
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  if (extra && n == 20) {
#pragma omp critical
    hits++;
  }
  return x + y;
}

int main(int argc, char **argv) {
  cutoff = atoi(argv[1]);
  extra = atoi(argv[2]);
  long r;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(20);
  return r == 6765 ? 0 : 1;
}
