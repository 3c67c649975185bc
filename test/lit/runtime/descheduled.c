// Waiting or descheduled (docs/utils.md): four threads pinned to one CPU
// each lose most of their running time to the others. The runtime samples
// each thread's CPU use (thread_cpu events), and `otter diagnose` flags the
// run as descheduled with what to do, and says so on the waiting it finds.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=4 taskset -c 0 %t | FileCheck %s --check-prefix=OUT
// OUT: sum=
// RUN: otter dump --kind thread_cpu %t.d | FileCheck %s --check-prefix=DUMP
// DUMP: thread_cpu cpu_ns={{[0-9]+}} involuntary={{[0-9]+}} voluntary={{[0-9]+}} cpus=1
// RUN: otter diagnose %t.d | FileCheck %s --check-prefix=DIAG
// DIAG: descheduled: initial_task at the whole run
// DIAG: evidence:  at least {{.*}} running time ({{[0-9]+}}%) off the CPU; {{[0-9]+}} involuntary context switches; 4 threads, 1 CPU allowed;{{.*}} Measure again on an idle machine, or with OMP_NUM_THREADS <= 1.
// RUN: otter diagnose --json %t.d | FileCheck %s --check-prefix=JSON
// JSON: "check":"descheduled"
#include <stdio.h>

int main(void) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (long i = 0; i < 60000000L; ++i)
    sum += (double)(i % 7) * 0.5;
  printf("sum=%.0f\n", sum);
  return 0;
}
