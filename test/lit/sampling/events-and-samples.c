// Ticks in the middle of event records: many small tasks (an event every
// few hundred ns) sampled at 20 kHz of CPU time with the full trace on. The
// handler never writes the event buffers, so the trace is balanced and read
// by OTF2's tools, the graph has every task, and the samples are sound.
// A child made by fork() that runs OpenMP code and then exec()s a program
// is not sampled and ends normally; the parent's output is unchanged.
// RUN: %clang -fopenmp -fno-omit-frame-pointer %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=20000 OTTER_GRAPH_FORMAT=canon %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: python3 %otter_src/test/lit/Inputs/check-samples.py %t.d | FileCheck --check-prefix=CLASSES %s
// RUN: %check-trace %t.d
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long fib(int N) {
  if (N < 2)
    return N;
  long A, B;
#pragma omp task shared(A)
  A = fib(N - 1);
#pragma omp task shared(B)
  B = fib(N - 2);
#pragma omp taskwait
  return A + B;
}

int main(void) {
  long R = 0;
  for (int Round = 0; Round < 3; ++Round) {
#pragma omp parallel num_threads(2)
#pragma omp single
    R = fib(17);
  }
  fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    int M = 0;
#pragma omp parallel num_threads(2) reduction(+ : M)
    M += 1;
    printf("child m=%d\n", M);
    fflush(stdout);
    execl("/bin/echo", "echo", "child exec", (char *)NULL);
    _exit(3);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  printf("fib=%ld child=%d\n", R, WIFEXITED(Status) ? WEXITSTATUS(Status) : -1);
  return 0;
}

// OUT-DAG: child m=2
// OUT-DAG: child exec
// OUT: fib=1597 child=0
// ERR: otter: wrote {{.*}} (graph.txt samples.csv): {{.*}}, 15498 tasks, {{.*}} samples
// ERR-NOT: otter: wrote
// CLASSES: ok
