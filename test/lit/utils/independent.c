// Eight independent 20 ms tasks on two threads: work 160 ms, span one task
// (20 ms): parallelism 8. A loaded machine can only stretch the span (a
// spin descheduled at its end), so the lower bound is loose.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: python3 %S/Inputs/check.py %t.json region.work_ns=155e6:240e6 region.span_ns=19e6:32e6 region.parallelism=5.5:8.8 rpath=16:0.6
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
// CHECK: task {{ *}}{{.*}}independent.c:16 {{ *}}8 {{ *}}1{{[0-9][0-9]}}.{{[0-9]+}} ms
