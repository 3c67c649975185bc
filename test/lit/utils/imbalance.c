// An imbalanced loop: thread 0 gets an 80 ms iteration, thread 1 a 2 ms one.
// diagnose flags the loop (thread imbalance) and its implicit barrier
// (waiting), and nothing about tasks or locks.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d | FileCheck %s --check-prefix=JSON
// RUN: %check-rebuild --format csv %t.d
#include "Inputs/spin.h"

int main(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < 2; ++i)
      spin_ms(i == 0 ? 80 : 2);
  }
  return 0;
}
// No tasks: no per-task costs, only the thread time.
// CHECK: {{^}}thread time {{[0-9.]+ [mun]?s$}}
// CHECK-NOT: too_fine
// CHECK-NOT: contention
// CHECK-DAG: thread_imbalance: loop at {{.*}}imbalance.c:[[@LINE-10]]
// CHECK-DAG: sync_wait: barrier_implicit at {{.*}}imbalance.c:[[@LINE-11]]
// CHECK-DAG: threshold: max/mean busy time among the team's threads >= 1.25
// CHECK-DAG: evidence:  1 instance(s), worst max/mean {{[0-9.]+}}
// JSON: "findings":[{{.*}}"check":"thread_imbalance","kind":"loop"
