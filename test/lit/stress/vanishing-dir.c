// The output directory is removed while the program runs (here by the
// program itself, half way): the program's output and exit code are the
// untraced run's, and OTTER says in one line per output what it could not
// write, never a crash or a hang.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.p && sh -c 'mkdir -p %t.p && %t %t.p; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t %t.d 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// The graph is built from memory: written whole (the directory made again).
// The trace's event files went with the directory: the utilities say so in
// one line. Whether the archive's anchor is written again at close depends
// on when the directory went (timing): "holds no events" with it, "no OTF2
// archive" without.
// RUN: head -1 %t.d/graph.txt | FileCheck --check-prefix=GRAPH %s
// RUN: rm -rf %t.g && not otter-graph %t.d -o %t.g 2>&1 | FileCheck --check-prefix=NOEVENTS %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long work(int n) {
  static long s;
  s = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    for (int i = 0; i < n; ++i) {
#pragma omp task
      {
#pragma omp atomic
        s += i;
      }
    }
  }
  return s;
}

int main(int argc, char **argv) {
  long s = 0;
  for (int round = 0; round < 200; ++round) {
    if (round == 100) {
      char cmd[4096];
      snprintf(cmd, sizeof cmd, "rm -rf '%s'", argv[1]);
      if (system(cmd) != 0)
        return 2;
    }
    s += work(500);
  }
  printf("s=%ld\n", s);
  return 0;
}
// CHECK: s=24950000
// CHECK-NEXT: exit=0
// What OTF2 reports depends on when its files went (a file that "does not
// exist", or "Can't close buffer"): only the one line is checked.
// ERR: otter: error: the trace in '{{.*}}' is incomplete: writing it failed ({{.+}}){{.*}}
// ERR-NEXT: otter: wrote {{.*}}graph.txt{{.*}}: 2 threads, 200 parallel regions, 100000 tasks
// GRAPH: # otter canonical graph v1: {{[0-9]+}} nodes
// NOEVENTS: error: {{the trace in '.*' holds no events|no OTF2 archive in '.*'}}
