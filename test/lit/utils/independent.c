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
// The task construct below, by line:
// DEFINE: %{task} = %(line+10)
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "t%{task} >= 159e6" "rspan >= m%{task}" "rspan <= m%{task} * 1.05 + 5e6" "rwork >= t%{task}" "rwork <= t%{task} * 1.05 + 5e6" "p%{task} >= 0.9 * m%{task}"
// RUN: otter summary %t.d | FileCheck %s
// RUN: %check-rebuild --format csv %t.d
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
// CHECK: task {{ *}}{{.*}}independent.c:[[@LINE-8]] {{ *}}8 {{ *}}{{[0-9.]+}} {{m?s}}
