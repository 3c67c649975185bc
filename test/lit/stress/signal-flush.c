// Signals arriving while the trace is being flushed (1024-event buffers:
// the threads flush all the time): SIGUSR1, which the program handles
// itself, many times -- the program goes on, its output and status as
// untraced, the run traced to its end; then SIGTERM and SIGINT at their
// default action -- the status is the untraced run's (killed by the same
// signal), and what was recorded reads back.
// RUN: %clang -fopenmp %s -o %t
//
// SIGUSR1 x 20, then SIGTERM handled by the program: ends normally.
// RUN: rm -f %t.ready && sh -c '%t %t.ready 0 > %t.plain & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do kill -USR1 $p; sleep 0.01; done; kill -USR2 $p; wait $p; echo status=$?' > %t.plain.st
// RUN: rm -rf %t.d %t.ready && sh -c 'env %otter_env OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t %t.ready 0 > %t.out 2> %t.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do kill -USR1 $p; sleep 0.01; done; kill -USR2 $p; wait $p; echo status=$?' > %t.out.st
// RUN: diff %t.plain.st %t.out.st
// RUN: FileCheck --check-prefix=USR %s < %t.out
// RUN: FileCheck --check-prefix=USR %s < %t.plain
// RUN: FileCheck --check-prefix=STATUS0 %s < %t.out.st
// RUN: FileCheck --check-prefix=WROTE %s < %t.err
// RUN: %check-rebuild --format canon %t.d
//
// SIGTERM at its default action, during the flushes.
// RUN: rm -f %t.ready && sh -c '%t %t.ready 1 > /dev/null & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; kill -USR1 $p; sleep 0.05; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
// RUN: rm -rf %t.t %t.ready && sh -c 'env %otter_env OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.t OTTER_GRAPH_FORMAT=canon %t %t.ready 1 > /dev/null 2> %t.t.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; kill -USR1 $p; sleep 0.05; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
// RUN: FileCheck --check-prefix=TERMERR %s < %t.t.err
// RUN: %check-rebuild --open --format canon %t.t
//
// SIGINT at its default action (reset by the program: in the background
// sh starts it ignored), during the flushes.
// RUN: rm -f %t.ready && sh -c '%t %t.ready 2 > /dev/null & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; kill -USR1 $p; sleep 0.05; kill -INT $p; wait $p; echo status=$?' | FileCheck --check-prefix=INT %s
// RUN: rm -rf %t.i %t.ready && sh -c 'env %otter_env OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.i OTTER_GRAPH_FORMAT=canon %t %t.ready 2 > /dev/null 2> %t.i.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.01; done; kill -USR1 $p; sleep 0.05; kill -INT $p; wait $p; echo status=$?' | FileCheck --check-prefix=INT %s
// RUN: FileCheck --check-prefix=INTERR %s < %t.i.err
// RUN: %check-rebuild --open --format canon %t.i
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile sig_atomic_t usr1 = 0, stop = 0;
static void on_usr1(int sig) { (void)sig; usr1 += 1; }
static void on_usr2(int sig) { (void)sig; stop = 1; }

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
  int mode = atoi(argv[2]);
  if (mode == 2)
    signal(SIGINT, SIG_DFL);
  signal(SIGUSR1, on_usr1);
  signal(SIGUSR2, on_usr2);
  work(10);
  FILE *ready = fopen(argv[1], "w");
  fclose(ready);
  long rounds = 0, bad = 0;
  while (!stop) {
    if (work(200) != 199L * 200 / 2)
      ++bad;
    ++rounds;
  }
  // Signals may merge while pending: at least one arrived.
  printf("usr1 seen=%d bad=%ld\n", usr1 > 0, bad);
  return bad ? 1 : 0;
}
// USR: usr1 seen=1 bad=0
// STATUS0: status=0
// WROTE: otter: wrote
// TERM: status=143
// TERMERR: otter: the program was ended by SIGTERM; writing what was recorded
// TERMERR: otter: wrote
// INT: status=130
// INTERR: otter: the program was ended by SIGINT
// INTERR: otter: wrote
