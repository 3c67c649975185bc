/* bench/taskloop.c - OTTER overhead benchmark: taskloop tasks.
 * A taskloop with a small grainsize, repeated; exercises task creation from
 * inside libomp (codeptr_ra in libomp: the site index stack-walk fallback).
 * Usage: taskloop [reps=20] [N=200000] [grainsize=16]
 * libomp creates floor(N/grainsize) tasks per taskloop (grainsize <= N).
 * Origin: /work/shared/bench. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int R = argc > 1 ? atoi(argv[1]) : 20;
  long N = argc > 2 ? atol(argv[2]) : 200000;
  long G = argc > 3 ? atol(argv[3]) : 16;
  double *a = malloc(sizeof(double) * N);
  for (long i = 0; i < N; i++) a[i] = 1.0 / (i + 1);
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int r = 0; r < R; r++) {
#pragma omp taskloop grainsize(G)
    for (long i = 0; i < N; i++) a[i] = a[i] * 0.5 + 0.25 * r;
  }
  double t1 = omp_get_wtime();
  double sum = 0.0;
  for (long i = 0; i < N; i++) sum += a[i];
  long per = G > N ? 1 : N / G;
  printf("taskloop reps=%d N=%ld grainsize=%ld threads=%d checksum=%.6f tasks=%ld time=%.4f\n",
         R, N, G, omp_get_max_threads(), sum, per * R, t1 - t0);
  free(a);
  return 0;
}
