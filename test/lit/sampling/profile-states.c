// `otter profile` splits time by OpenMP state: a program that spends known
// times in work, at a barrier, waiting for a lock and in a taskwait (as
// sampling/states.c) gives class times in that order in the profile's JSON
// (orders only: the machine may be loaded), and the rows of the function
// table keep their classes' sums. Sampling alone, no plugin: the constructs
// are named from the outlined functions (parallel FILE:LINE).
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --order work,barrier,lock,taskwait
// RUN: %otter_bin/bin/otter profile --top 0 %t.d | FileCheck --check-prefix=TABLE %s
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static volatile double Sink;
static void work(double Seconds) {
  double End = now() + Seconds;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

// TABLE: per construct
int main(void) {
  omp_lock_t L;
  omp_init_lock(&L);
#pragma omp parallel num_threads(2)
  // TABLE: parallel profile-states.c:[[@LINE-1]]
  {
    int Me = omp_get_thread_num();
    work(0.4); // both: work
#pragma omp barrier
    if (Me == 0)
      work(0.5); // thread 1 waits at the barrier
#pragma omp barrier
    if (Me == 0) {
      omp_set_lock(&L);
      work(0.25); // thread 1 waits for the lock (3x the taskwait below)
      omp_unset_lock(&L);
    } else {
      work(0.02);
      omp_set_lock(&L);
      omp_unset_lock(&L);
    }
#pragma omp barrier
    if (Me == 0) {
#pragma omp task
      // TABLE: task profile-states.c:[[@LINE-1]]
      work(0.08); // run by thread 1, waiting at the barrier below
      work(0.01);
#pragma omp taskwait
    }
  }
  omp_destroy_lock(&L);
  printf("done\n");
  return 0;
}
// TABLE: per function
// TABLE: work (profile-states.c:

// OUT: done
