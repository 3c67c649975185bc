// Blame shifting, a lock: two threads take a critical section in turn;
// the one inside runs holderWork (0.25 s) while the other waits for it.
// `otter profile` blames each lock wait on what the other thread ran
// meanwhile -- the holder's code -- so holderWork is the most blamed
// function (main aside) with at least a quarter of the lock wait, and at
// least half of the lock wait is blamed (coarse bounds: the machine may
// be loaded). Wall-clock sampling: a waiting thread that sleeps is
// sampled too.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --blamed holderWork --wait lock
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=TABLE %s
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static volatile double Sink;
__attribute__((noinline)) static void holderWork(void) {
  double End = now() + 0.25;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

int main(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    holderWork(); // the other thread waits for the critical meanwhile
  }
  printf("done\n");
  return 0;
}
// OUT: done
// TABLE: blame: {{[0-9.]+}} of {{[0-9.]+}} ms lock waiting blamed on the holders' code
