// Threads that start and end quickly under sampling at a high rate: many
// short parallel regions with a changing number of threads (libomp grows
// and shrinks its team; nested regions make threads of their own) never
// crash or hang, the output is the program's, and every sample is sound.
// Sampling inside the full trace: the trace is balanced and OTF2's tools
// read it, the graph is written as always.
// RUN: %clang -fopenmp -fno-omit-frame-pointer %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=20000 OTTER_SAMPLE_CLOCK=wall OTTER_GRAPH_FORMAT=canon %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: python3 %otter_src/test/lit/Inputs/check-samples.py %t.d | FileCheck --check-prefix=CLASSES %s
// RUN: %check-trace %t.d
// RUN: test -s %t.d/graph.txt
#include <omp.h>
#include <stdio.h>

int main(void) {
  long Total = 0;
  omp_set_max_active_levels(2);
  for (int Round = 0; Round < 300; ++Round) {
    int N = 1 + Round % 4;
#pragma omp parallel num_threads(N) reduction(+ : Total)
    {
      for (int I = 0; I < 2000; ++I)
        Total += I % 3;
      if (Round % 50 == 0) {
#pragma omp parallel num_threads(2) reduction(+ : Total)
        Total += 1;
      }
    }
  }
  printf("total=%ld\n", Total);
  return 0;
}

// OUT: total=1499274
// ERR: otter: wrote {{.*}} (graph.txt samples.csv): {{.*}} samples
// CLASSES: ok
