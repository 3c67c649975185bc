// fib(34) with a serial cutoff at 28: 66 tasks; the leaves (fib(27) and
// fib(26), computed serially) carry the work. Span ~= one fib(27) leaf (plus
// the fork and the creations above it), work ~= fib(34)'s serial time:
// parallelism ~= fib(34)/fib(27) ~= 29. Noise (a leaf descheduled on a
// loaded machine) can only lower it, and the fork costs a few hundred us:
// the lower bound is loose.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: python3 %S/Inputs/check.py %t.json region.parallelism=4:32 rpath=21:0.4
// RUN: otter summary --json %t.d | FileCheck %s
#include <omp.h>

static long serial(int n) { return n < 2 ? n : serial(n - 1) + serial(n - 2); }

static long fib(int n) {
  if (n < 28)
    return serial(n);
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  long r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(34);
  return r == 5702887 ? 0 : 1;
}
// CHECK: "explicit_tasks":66
