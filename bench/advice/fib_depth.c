/* bench/advice/fib_depth.c - bench/advice.py: the cut-off advice.
 * Recursive Fibonacci with a task per call down to a recursion depth:
 * below depth `cutoff` a call runs its recursion as plain calls (the change
 * `otter diagnose` advises); cutoff < 0: a task per call, to the leaves.
 * Usage: fib_depth [n=24] [cutoff=-1]. Prints fib(n) and the run time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cutoff = -1;

static long fib_serial(int n) {
  return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

static long fib(int n, int depth) {
  if (n < 2)
    return n;
  if (cutoff >= 0 && depth >= cutoff)
    return fib_serial(n);
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1, depth + 1);
#pragma omp task shared(y)
  y = fib(n - 2, depth + 1);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 24;
  cutoff = argc > 2 ? atoi(argv[2]) : -1;
  long r = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  r = fib(n, 0);
  printf("fib(%d)=%ld time=%.6f\n", n, r, omp_get_wtime() - t0);
  return 0;
}
