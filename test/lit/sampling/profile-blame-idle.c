// Blame shifting, idle workers: between two parallel regions the primary
// thread runs a serial loop while the worker idles; `otter profile` blames
// the worker's idle time on that loop (the primary thread's sample nearest
// in time), so the loop is the most blamed function, with at least a
// quarter of the idle time; main, its caller, as much (a coarse bound: the machine may be loaded).
// Wall-clock sampling: an idle worker that sleeps is sampled too.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --blamed serialLoop
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
__attribute__((noinline)) static void serialLoop(void) {
  double End = now() + 0.5;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

int main(void) {
#pragma omp parallel num_threads(2)
  spin(0.05);
  serialLoop(); // the worker is idle meanwhile
#pragma omp parallel num_threads(2)
  spin(0.05);
  printf("done\n");
  return 0;
}
// OUT: done
// TABLE: blame: {{[0-9.]+}} of the workers' {{[0-9.]+}} ms idle (or at a barrier outside their code) blamed on what the primary thread ran then
