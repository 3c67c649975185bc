// A chain of four 20 ms tasks linked by inout dependences: everything is on
// one path, so span ~= work and parallelism ~= 1; the critical path is the
// task construct below (all four instances).
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// Work: 80 ms of spinning plus start-up. A spin descheduled on a loaded
// machine runs long (execution time is wall time), so the work is checked
// against the tasks' measured time.
// RUN: otter summary --json %t.d > %t.summary.json
// The task construct below, by line:
// DEFINE: %{task} = %(line+13)
// RUN: python3 %S/Inputs/check.py %t.json parallelism=0.85:1.15 rpath=%{task}:0.85 region.parallelism=0.85:1.15
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "t%{task} >= 79e6" "rwork >= t%{task}" "rwork <= t%{task} * 1.05 + 5e6" "rspan >= 0.97 * t%{task}" "p%{task} >= 0.97 * t%{task}"
// RUN: otter parallelism %t.d | FileCheck %s
// RUN: otter diagnose %t.d | FileCheck %s --check-prefix=DIAG
// RUN: %check-rebuild --format csv %t.d
#include "Inputs/spin.h"

int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 4; ++i) {
#pragma omp task depend(inout : x)
    spin_ms(20);
  }
  return x;
}
// CHECK: critical path
// CHECK: task {{ *}}{{.*}}chain.c:[[@LINE-6]] {{.*}}(4 tasks)
// CHECK: top contributors to the critical path:
// CHECK-NEXT: task {{ *}}{{.*}}chain.c:[[@LINE-8]]
// Equal tasks, no locks: no too-fine or contention finding. (Not checked:
// sibling imbalance, which a loaded machine can cause by descheduling one
// 20 ms spin; imbalance.c checks that diagnostic where it must fire.)
// DIAG-NOT: too_fine
// DIAG-NOT: contention
