// OpenMP idle threads (docs/utils.md, "Idle threads"): between two parallel
// regions the primary thread runs serial code while the other thread has
// no work. libomp keeps that thread in the region's implicit barrier until
// the next fork: the time after the region's end is idle, not the
// barrier's waiting, and `summary`, `diagnose` and the report blame it on
// the serial code after the region, saying what to change.
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && env OMP_NUM_THREADS=2 %otter-run OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t.d | FileCheck --check-prefix=SUMMARY %s
// RUN: otter summary --json %t.d | FileCheck --check-prefix=JSON %s
// RUN: otter diagnose %t.d | FileCheck --check-prefix=DIAG %s
// RUN: otter report --no-simulate -o %t.html %t.d
// RUN: FileCheck --check-prefix=REPORT %s < %t.html
// The idle time is idle in the state timeline, every view agreeing.
// RUN: %check-states --report %t.d
// SUMMARY: idle: {{ *}}{{[0-9.]+ [mun]?s}} of the thread time is OpenMP idle threads
// SUMMARY-NEXT: (not a barrier's waiting)
// SUMMARY-NEXT: next fork, while the primary thread was
#include "Inputs/spin.h"
#include <stdio.h>

int main(void) {
  double s = 0;
  for (int it = 0; it < 3; ++it) {
    // SUMMARY: {{^ +[0-9.]+% running serial code after the parallel region at .*}}idle-threads.c:[[@LINE+4]]{{$}}
    // JSON: "idle_threads_ns":{{[1-9][0-9]*}},"idle_threads":[{"ns":{{[0-9]+}},"state":"running","kind":"initial_task","where":"?","after":"{{.*}}idle-threads.c:[[@LINE+3]]",
    // DIAG: idle_threads: parallel at {{.*}}idle-threads.c:[[@LINE+2]]
    // DIAG: evidence: {{.*}}while the primary thread was running serial code after the parallel region at {{.*}}idle-threads.c:[[@LINE+1]] {{.*}}Run that code inside a parallel region
#pragma omp parallel for num_threads(2) reduction(+ : s)
    for (int i = 0; i < 2; ++i) {
      spin_ms(1);
      s += i;
    }
    spin_ms(30); // serial code: the other thread has nothing to do
  }
  printf("s %g\n", s);
  return 0;
}

// OUT: s 3
// REPORT: id="idle_threads_ns"
