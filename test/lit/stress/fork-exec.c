// fork() + exec() from inside a parallel region (each thread of the team
// starts a program and waits for it): the children run as without the
// tool, the program's output and exit code are the untraced run's, and the
// parent's trace is whole and balanced.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon,csv %t 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-rebuild %t.d
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int ok = 0;
  fflush(stdout);
#pragma omp parallel num_threads(4) reduction(+ : ok)
  {
    pid_t p = fork();
    if (p == 0) {
      execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
      _exit(127);
    }
    int st = 0;
    if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) &&
        WEXITSTATUS(st) == 7)
      ok += 1;
#pragma omp task
    { volatile int x = 1; (void)x; }
  }
  printf("children ok=%d\n", ok);
  return ok == 4 ? 0 : 1;
}
// CHECK: children ok=4
// CHECK-NEXT: exit=0
// ERR: otter: wrote {{.*}}: 4 threads, 1 parallel regions
