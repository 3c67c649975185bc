// Four threads filling small buffers at once: their flushes (encoding into
// each thread's own OTF2 writer, new code addresses and regions, chunk
// writes and checkpoints) run concurrently, with no lock shared between
// threads except for new definitions. The trace must read back to the graph
// written at exit, and otf2-print must read it cleanly.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: %check-rebuild %t.d
// RUN: otf2-print %t.d/trace/traces.otf2 2>&1 >/dev/null | count 0
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
#include <stdio.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  long r = 0, s = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp single nowait
    r = fib(20);
#pragma omp for reduction(+ : s) schedule(static)
    for (int i = 0; i < 100000; ++i)
      s += i % 7;
#pragma omp critical
    s += 1;
  }
  printf("r=%ld s=%ld\n", r, s);
  return 0;
}
// OUT: r=6765 s=299999
// DEFS-COUNT-4: LOCATION {{.*}}Type: CPU_THREAD
