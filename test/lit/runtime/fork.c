// A traced program that forks: the child (which runs OpenMP code of its own
// and exits) neither records nor writes over the parent's output; the
// parent's graph has both of its parallel regions.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    int m = 0;
#pragma omp parallel num_threads(2) reduction(+ : m)
    m += 1;
    printf("child m=%d\n", m);
    exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("parent n=%d child status=%d\n", n, WEXITSTATUS(status));
  return 0;
}

// OUT-DAG: child m=2
// OUT-DAG: parent n=4 child status=0
// ERR-NOT: error
// ERR: otter: wrote {{.*}}: {{[0-9]+}} threads, 2 parallel regions
// ERR-NOT: otter: wrote
// CHECK-COUNT-2: parallel_begin parent=n0
