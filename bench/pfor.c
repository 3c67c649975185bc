/* bench/pfor.c - OTTER overhead benchmark: parallel-region events.
 * Many short parallel regions, each with one worksharing loop over small
 * work (stresses parallel/implicit-task/work/barrier callbacks), then a
 * nested-parallel phase (outer 2 x inner 2 threads, max-active-levels 2).
 * Usage: pfor [regions=50000] [iters=256] [nested_regions=2000]
 * Prints a lower bound on implicit tasks ("implicit_tasks>="), which
 * bench/run.py uses as the task count.  Origin: /work/shared/bench. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int R = argc > 1 ? atoi(argv[1]) : 50000;
  int N = argc > 2 ? atoi(argv[2]) : 256;
  int RN = argc > 3 ? atoi(argv[3]) : 2000;
  double *a = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) a[i] = i * 0.5;
  double sum = 0.0;
  double t0 = omp_get_wtime();
  for (int r = 0; r < R; r++) {
#pragma omp parallel
    {
#pragma omp for
      for (int i = 0; i < N; i++) a[i] = a[i] * 0.999 + 0.001 * (i + r);
    }
  }
  for (int i = 0; i < N; i++) sum += a[i];
  /* nested parallel: outer team of 2, each outer thread opens inner team of 2 */
  omp_set_max_active_levels(2);
  double nsum = 0.0;
  for (int r = 0; r < RN; r++) {
#pragma omp parallel num_threads(2) reduction(+ : nsum)
    {
      double local = 0.0;
#pragma omp parallel num_threads(2) reduction(+ : local)
      {
#pragma omp for
        for (int i = 0; i < N; i++) local += a[i] * 1e-6;
      }
      nsum += local;
    }
  }
  double t1 = omp_get_wtime();
  int T = omp_get_max_threads();
  printf("pfor regions=%d iters=%d nested_regions=%d threads=%d checksum=%.6f "
         "implicit_tasks>=%ld time=%.4f\n",
         R, N, RN, T, sum + nsum, (long)R * T + (long)RN * 2 * 3, t1 - t0);
  free(a);
  return 0;
}
