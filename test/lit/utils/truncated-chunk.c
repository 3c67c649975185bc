// Event files cut inside a later chunk. OTF2's reader can loop over such an
// incomplete chunk forever, handing out the same events again (an endless,
// ever-growing export filled a disk once). Whatever the cut, every command
// must end, within a time limit, either with its result or with one
// "otter: error:" line, and never write unbounded output.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=none OMP_NUM_THREADS=2 %t
// RUN: python3 %S/Inputs/cut.py %t.d/trace/traces
// RUN: python3 %S/Inputs/bounded.py %t.out otter summary %t.d
// RUN: python3 %S/Inputs/bounded.py %t.out otter parallelism %t.d
// RUN: python3 %S/Inputs/bounded.py %t.out otter diagnose %t.d
// RUN: python3 %S/Inputs/bounded.py %t.json otter export --format perfetto -o %t.json %t.d
// RUN: python3 %S/Inputs/bounded.py %t.gv otter export --aggregate --format dot -o %t.gv %t.d
// RUN: python3 %S/Inputs/bounded.py %t.g otter-graph -o %t.g %t.d
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
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(26);
  printf("%ld\n", r);
  return 0;
}
