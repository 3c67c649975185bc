// Eight independent 20 ms tasks on two threads: work 160 ms, span one task
// (20 ms): parallelism 8. On a loaded machine a descheduled spin runs long
// (its execution time is wall time), so the checks relate the span and work
// to the tasks' measured execution times: span = the longest task (+ the
// fork and the creations before it), work = all tasks (+ a little).
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: otter summary --json %t.d > %t.summary.json
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "t19 >= 159e6" "rspan >= m19" "rspan <= m19 * 1.05 + 5e6" "rwork >= t19" "rwork <= t19 * 1.05 + 5e6" "p19 >= 0.9 * m19"
// RUN: otter summary %t.d | FileCheck %s
#include "Inputs/spin.h"

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 8; ++i) {
#pragma omp task
    spin_ms(20);
  }
  return 0;
}
// CHECK: threads      2
// CHECK: constructs {{.*}} task=8
// CHECK: region_id {{ *}}kind {{ *}}where
// CHECK: task {{ *}}{{.*}}independent.c:19 {{ *}}8 {{ *}}{{[0-9.]+}} {{m?s}}

// RUN: %check-rebuild --format csv %t.d
