// Blame shifting, a taskwait: the thread in the single creates a task
// (childWork, 0.4 s), spins until the other thread, waiting at the
// single's barrier, has taken it, and then waits for it in a taskwait. `otter profile` blames the taskwait
// on the task the other thread ran meanwhile, so childWork is the most
// blamed function (main aside) with at least a quarter of the taskwait
// time, and at least half of it is blamed (coarse bounds: the machine may
// be loaded). Wall-clock sampling: a waiting thread that sleeps is
// sampled too.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --blamed childWork --wait taskwait
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=TABLE %s
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static volatile double Sink;
static atomic_int Started;
__attribute__((noinline)) static void childWork(void) {
  double End = now() + 0.4;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

int main(void) {
  int Other = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    const int Me = omp_get_thread_num();
#pragma omp task shared(Other)
    {
      Other = omp_get_thread_num() != Me;
      atomic_store(&Started, 1);
      childWork();
    }
    // No scheduling point here: only the other thread can start the task
    // (5 s at most, so that a broken runtime cannot hang the test).
    const double Give = now() + 5;
    while (!atomic_load(&Started) && now() < Give)
      ;
#pragma omp taskwait
  }
  printf("done, the task ran on %s\n", Other ? "the other thread" : "me");
  return 0;
}
// OUT: done, the task ran on the other thread
// TABLE: blame: {{[0-9.]+}} of {{[0-9.]+}} ms taskwait waiting blamed on the awaited tasks' code
