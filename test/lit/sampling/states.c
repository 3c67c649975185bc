// Sampling sees each OpenMP state: a program that spends known times in
// work, at a barrier, waiting for a lock and in a taskwait gives the state
// classes in the order of those times (orders only: the machine may be
// loaded). Sampling alone: no per-event trace (an archive of the samples
// alone), no graph, and no event recorded (the
// recording callbacks are not registered: tasks and constructs cost
// nothing), yet the taskwait is known (OTTER's sync wait callback).
// RUN: %clang -fopenmp -fno-omit-frame-pointer -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_VERBOSE=1 %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: python3 %otter_src/test/lit/Inputs/check-samples.py --order work,barrier,lock,taskwait %t.d | FileCheck --check-prefix=CLASSES %s
// RUN: test -s %t.d/trace/traces.otf2 && test ! -e %t.d/graph.gv && test -s %t.d/modules.csv
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

int main(void) {
  omp_lock_t L;
  omp_init_lock(&L);
#pragma omp parallel num_threads(2)
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
      work(0.08); // run by thread 1, waiting at the barrier below
      work(0.01);
#pragma omp taskwait
    }
  }
  omp_destroy_lock(&L);
  printf("done\n");
  return 0;
}

// OUT: done
// ERR: otter: wrote {{.*}} (samples.csv): 2 threads, {{[0-9]+}} samples
// ERR: otter: recorded 0 events
// ERR: otter: sampling: 1000 Hz, signal {{[0-9]+}}, 2 threads sampled
// CLASSES: ok
