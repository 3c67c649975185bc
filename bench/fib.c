/* bench/fib.c - OTTER overhead benchmark: the per-task hot path.
 * Recursive Fibonacci, one explicit task per call (no cutoff by default),
 * taskwait at every level: tiny task bodies, so the cost of task_create,
 * task_schedule and taskwait callbacks dominates.  This is the benchmark the
 * per-task targets in docs/performance-notes.md are stated on.
 * Usage: fib [n=30] [cutoff=0]
 * Default n=30 (2,692,536 tasks) takes ~0.2-0.7 s untraced on a 2-core VM.
 * cutoff>0: calls with n<cutoff run serially (no tasks).
 * Prints checksum (fib(n)) and the exact number of explicit tasks created
 * (bench/run.py parses "tasks=").  Origin: /work/shared/bench reference set. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cutoff = 0;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n) {
  if (n < 2) return n;
  if (n < cutoff) return fib_serial(n);
  long x, y;
#pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

/* tasks(n) = number of explicit tasks created by fib(n) */
static long count_tasks(int n) {
  long t[128];
  for (int i = 0; i <= n && i < 128; i++) {
    if (i < 2 || i < cutoff) t[i] = 0;
    else t[i] = 2 + t[i - 1] + t[i - 2];
  }
  return t[n];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 30;
  cutoff = argc > 2 ? atoi(argv[2]) : 0;
  long r = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  r = fib(n);
  double t1 = omp_get_wtime();
  printf("fib n=%d cutoff=%d threads=%d checksum=%ld tasks=%ld time=%.4f\n", n,
         cutoff, omp_get_max_threads(), r, count_tasks(n), t1 - t0);
  return 0;
}
