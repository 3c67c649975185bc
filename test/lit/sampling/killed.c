// A sampled run killed with SIGKILL keeps its samples (docs/sampling.md,
// "Long runs"): while the program runs, samples.csv grows every
// OTTER_FLUSH_INTERVAL (here 0.2 s) with modules.csv and sampling.csv
// beside it, so after the kill `otter profile` reads all but the last
// interval's samples -- here most of a 1.2 s run spent in hot() (over 400
// of its 1,200 timer periods: the rows' weights, which count the ticks a
// loaded machine merges).
// RUN: %otter-cc -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_FLUSH_INTERVAL=0.2 %t; echo status=$?' | FileCheck --check-prefix=STATUS %s
// RUN: test -s %t.d/modules.csv && test -s %t.d/sampling.csv && test ! -e %t.d/modules.csv.part
// RUN: awk -F, 'NR > 1 { W += $9 } END { print (W > 400 ? "many" : "few: " W) }' %t.d/samples.csv | FileCheck --check-prefix=ROWS %s
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=PROF %s
//
// The same killed run with OTTER_FLUSH_INTERVAL=0 (no periodic writing)
// leaves no samples: what the interval buys.
// RUN: rm -rf %t.n && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.n OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_FLUSH_INTERVAL=0 %t; echo status=$?' | FileCheck --check-prefix=STATUS %s
// RUN: test ! -e %t.n/samples.csv
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

volatile double Sink;

__attribute__((noinline)) void hot(double Seconds) {
  struct timespec Start, Now;
  clock_gettime(CLOCK_MONOTONIC, &Start);
  do {
    for (int I = 0; I < 100000; ++I)
      Sink = Sink * 0.5 + I;
    clock_gettime(CLOCK_MONOTONIC, &Now);
  } while ((Now.tv_sec - Start.tv_sec) + (Now.tv_nsec - Start.tv_nsec) * 1e-9 <
           Seconds);
}

int main(void) {
#pragma omp parallel num_threads(1)
  hot(1.2);
  fflush(stdout);
  raise(SIGKILL);
  return 0;
}

// STATUS: status=137
// ROWS: many
// PROF: per function
// PROF: hot (killed.c:[[#@LINE-22]])
