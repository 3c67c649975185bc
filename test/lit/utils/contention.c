// Two threads take turns in a critical section, holding it 5 ms each time:
// diagnose reports contention at the critical construct, with evidence.
// Tasks too fine (fib without cutoff) are flagged at the task constructs.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: %check-rebuild --format csv %t.d
#include "Inputs/spin.h"

static long fib(int n) {
  if (n < 2)
    return n;
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
  {
    for (int i = 0; i < 5; ++i) {
#pragma omp critical
      spin_ms(5);
    }
#pragma omp single
    r = fib(12);
  }
  return r == 144 ? 0 : 1;
}
// CHECK-DAG: contention: critical at {{.*}}contention.c:[[@LINE-8]]
// CHECK-DAG: acquisitions waited (> 1 us)
// CHECK-DAG: too_fine: task at {{.*}}contention.c:[[@LINE-23]]
// CHECK-DAG: too_fine: task at {{.*}}contention.c:[[@LINE-22]]
// CHECK-DAG: median task time < 10 x creation+scheduling cost
