// Signals that end a healthy program (SIGTERM from a batch system or
// mpirun, SIGINT from Ctrl-C) write everything recorded up to then -- the
// trace and the graph files, which rebuild from the trace -- and then end
// the program exactly as without the tool (killed by the same signal). A
// program that handles the signal itself keeps it: it goes on and ends
// normally, fully traced.
// RUN: %clang -fopenmp %s -o %t
//
// SIGTERM, left at its default action.
// RUN: rm -rf %t.term %t.ready && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.term OTTER_GRAPH_FORMAT=canon,csv %t %t.ready 0 2> %t.term.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
// RUN: FileCheck --check-prefix=TERMERR %s < %t.term.err
// RUN: %check-rebuild --open %t.term
// RUN: head -1 %t.term/graph.txt | FileCheck --check-prefix=GRAPH %s
// Untraced, the same status.
// RUN: rm -f %t.ready && sh -c '%t %t.ready 0 & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
//
// SIGINT (a job in the background ignores SIGINT unless told otherwise:
// the program resets it to its default action itself, as a shell does in
// the foreground).
// RUN: rm -rf %t.int %t.ready && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.int OTTER_GRAPH_FORMAT=canon %t %t.ready 1 2> %t.int.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; kill -INT $p; wait $p; echo status=$?' | FileCheck --check-prefix=INT %s
// RUN: FileCheck --check-prefix=INTERR %s < %t.int.err
// RUN: %check-rebuild --open --format canon %t.int
//
// The program's own SIGTERM handler: it decides, the run ends normally.
// RUN: rm -rf %t.own %t.ready && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.own OTTER_GRAPH_FORMAT=canon %t %t.ready 2 2> %t.own.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=OWN %s
// RUN: FileCheck --check-prefix=OWNERR %s < %t.own.err
// RUN: %check-rebuild --format canon %t.own
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile sig_atomic_t stop = 0;
static void on_term(int sig) { (void)sig; stop = 1; }

static long work(int n) {
  long s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
  {
#pragma omp single
    for (int i = 0; i < n; ++i) {
#pragma omp task
      { s += i; }
    }
  }
  return s;
}

int main(int argc, char **argv) {
  int mode = atoi(argv[2]);
  if (mode == 1)
    signal(SIGINT, SIG_DFL);
  work(10); // the tool starts here: the handler below comes after it
  if (mode == 2)
    signal(SIGTERM, on_term);
  FILE *ready = fopen(argv[1], "w");
  fclose(ready);
  for (long round = 0; !stop; ++round)
    work(100);
  printf("stopped by its own handler\n");
  return 0;
}

// TERM: status=143
// TERMERR: otter: the program was ended by SIGTERM; writing what was recorded
// TERMERR: otter: wrote {{.*}}(nodes.csv graph.csv graph.txt): 2 threads, {{[0-9]+}} parallel regions, {{[0-9]+}} tasks
// GRAPH: # otter canonical graph v1: {{[0-9]+}} nodes
// INT: status=130
// INTERR: otter: interrupted: writing what was recorded (Ctrl-C again to skip)
// INTERR: otter: the program was ended by SIGINT
// INTERR: otter: wrote
// OWN: stopped by its own handler
// OWN-NEXT: status=0
// OWNERR-NOT: ended by
// OWNERR: otter: wrote
