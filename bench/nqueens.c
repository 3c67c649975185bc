/* bench/nqueens.c - a realistic task program for `otter simulate`'s
 * validation (bench/simulate.py): the number of solutions of the N-queens
 * problem, a task per partial placement of the first CUTOFF rows (each
 * with its own copy of the board, as in BOTS' nqueens), the rows below
 * searched sequentially in the task: leaves of tens of microseconds to
 * milliseconds of work, of uneven size (an irregular tree, unlike fib).
 * Usage: nqueens [N=11] [CUTOFF=3]
 * Prints the number of solutions (2,680 for N=11) and the time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int N, Cutoff;

static int ok(const char *a, int row, int col) {
  for (int r = 0; r < row; r++) {
    int c = a[r];
    if (c == col || c - col == row - r || col - c == row - r)
      return 0;
  }
  return 1;
}

static long serial(char *a, int row) {
  if (row == N)
    return 1;
  long n = 0;
  for (int c = 0; c < N; c++)
    if (ok(a, row, c)) {
      a[row] = (char)c;
      n += serial(a, row + 1);
    }
  return n;
}

static long search(const char *a, int row) {
  if (row >= Cutoff) {
    char b[32];
    memcpy(b, a, (size_t)row);
    return serial(b, row);
  }
  long count[32] = {0};
  for (int c = 0; c < N; c++) {
#pragma omp task firstprivate(c) shared(count)
    {
      char b[32];
      memcpy(b, a, (size_t)row);
      if (ok(b, row, c)) {
        b[row] = (char)c;
        count[c] = search(b, row + 1);
      }
    }
  }
#pragma omp taskwait
  long n = 0;
  for (int c = 0; c < N; c++)
    n += count[c];
  return n;
}

int main(int argc, char **argv) {
  N = argc > 1 ? atoi(argv[1]) : 11;
  Cutoff = argc > 2 ? atoi(argv[2]) : 3;
  if (N < 1 || N > 30)
    return 1;
  long n = 0;
  char a[32];
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  n = search(a, 0);
  double t1 = omp_get_wtime();
  printf("nqueens N=%d cutoff=%d threads=%d solutions=%ld time=%.4f\n", N,
         Cutoff, omp_get_max_threads(), n, t1 - t0);
  return 0;
}
