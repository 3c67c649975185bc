// ~1,050,000 events (3 per task) through 4096-event buffers: hundreds of flushes per
// thread, OTF2 chunks written out many times. The trace must still read
// back to the same graph, and otf2-print must read it cleanly.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_BUFFER_EVENTS=4096 OTTER_OUTPUT_DIR=%t.d OTTER_VERBOSE=1 %t 2> %t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild %t.d
// RUN: otf2-print %t.d/trace/traces.otf2 2>&1 >/dev/null | count 0
#include <stdio.h>

int main(void) {
  long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 350000; ++i) {
#pragma omp task
    {
#pragma omp atomic
      s += i % 3;
    }
    if (i % 1000 == 999) {
#pragma omp taskwait
    }
  }
  printf("s=%ld\n", s);
  return 0;
}
// OUT: s=349999
// ERR: otter: wrote {{.*}}/trace/ (OTF2): {{[0-9][0-9][0-9][0-9][0-9][0-9]+}} events
