/* bench/advice/sort.c - bench/advice.py: the cut-off advice on a second
 * recursive shape. Quicksort of N pseudo-random ints with a task per half
 * down to ranges of LEAF elements (sorted by insertion); below recursion
 * depth `cutoff` a call sorts its range with plain calls (the change
 * `otter diagnose` advises); cutoff < 0: tasks down to the leaves.
 * Usage: sort [n=1000000] [cutoff=-1]. Prints a checksum and the run time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEAF 32

static int cutoff = -1;

static void insertion(int *a, long n) {
  for (long i = 1; i < n; i++) {
    int v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/* Hoare partition around the middle element; returns the split point. */
static long partition(int *a, long n) {
  int pivot = a[n / 2];
  long i = -1, j = n;
  for (;;) {
    do
      i++;
    while (a[i] < pivot);
    do
      j--;
    while (a[j] > pivot);
    if (i >= j)
      return j + 1;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

static void sort(int *a, long n, int depth) {
  if (n <= LEAF) {
    insertion(a, n);
    return;
  }
  long p = partition(a, n);
  if (cutoff >= 0 && depth >= cutoff) {
    sort(a, p, depth + 1);
    sort(a + p, n - p, depth + 1);
    return;
  }
#pragma omp task
  sort(a, p, depth + 1);
#pragma omp task
  sort(a + p, n - p, depth + 1);
#pragma omp taskwait
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  cutoff = argc > 2 ? atoi(argv[2]) : -1;
  int *a = malloc(n * sizeof(int));
  unsigned s = 12345;
  for (long i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = (int)(s >> 8);
  }
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  sort(a, n, 0);
  double t = omp_get_wtime() - t0;
  long bad = 0, sum = 0;
  for (long i = 0; i < n; i++) {
    bad += i && a[i - 1] > a[i];
    sum += a[i] & 1023;
  }
  printf("sorted=%s checksum=%ld time=%.6f\n", bad ? "no" : "yes", sum, t);
  free(a);
  return bad != 0;
}
