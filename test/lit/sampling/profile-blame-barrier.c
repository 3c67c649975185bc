// Blame shifting, a barrier: in a region of two threads the worker arrives
// late (lateWork, 0.4 s) while the primary thread does 0.05 s and waits at
// the barrier; `otter profile` blames the primary's barrier wait on what
// the other thread ran meanwhile, so lateWork is the most blamed function
// (main aside) with at least a quarter of the barrier wait, at least half
// of the barrier wait is blamed, and the header says so (coarse bounds:
// the machine may be loaded). Wall-clock sampling: a waiting thread that
// sleeps is sampled too.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --blamed lateWork --wait barrier
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
__attribute__((noinline)) static void spin(double Seconds) {
  double End = now() + Seconds;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}
__attribute__((noinline)) static void lateWork(void) {
  double End = now() + 0.4;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

int main(void) {
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1)
      lateWork(); // the late arriver
    else
      spin(0.05);
#pragma omp barrier
  }
  printf("done\n");
  return 0;
}
// OUT: done
// TABLE: blame: {{[0-9.]+}} of {{[0-9.]+}} ms barrier waiting blamed on the late arrivers' work
