// A parallel region whose body ends in a call (the outlined function
// tail-calls it at -O2, so no frame names the region while it runs): the
// profile charges its samples to a construct whose frame is gone, never
// to serial code; built with -fno-optimize-sibling-calls (docs/sampling.md)
// the region's own label comes back.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O2 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.d | FileCheck --check-prefix=TAIL %s
// RUN: %clang -fopenmp -fno-omit-frame-pointer -fno-optimize-sibling-calls -g -O2 %s -o %t.keep
// RUN: rm -rf %t.k && env %otter_env OTTER_OUTPUT_DIR=%t.k OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t.keep | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.k | FileCheck --check-prefix=KEEP %s
#include <stdio.h>

__attribute__((noinline)) void work(int T) {
  volatile double Acc = 0; // per thread
  for (long I = 0; I < 40000000L; ++I)
    Acc = Acc * 0.5 + I + T;
}

int main(void) {
// KEEP-NOT: tail call
// KEEP: parallel tail-call.c:[[#@LINE+1]];work {{[0-9]+}}
#pragma omp parallel num_threads(2)
  work(1);
  printf("done\n");
  return 0;
}
// OUT: done
// TAIL: (a construct whose frame is gone: tail call);work {{[0-9]+}}
// TAIL-NOT: (outside any construct){{.*}}work
