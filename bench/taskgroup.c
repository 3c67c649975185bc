/* bench/taskgroup.c - OTTER overhead benchmark: taskgroups.
 * Repeated taskgroups, each containing K tasks that each spawn M nested
 * child tasks (the taskgroup waits for all descendants): taskgroup sync
 * regions and nested task creation.
 * Usage: taskgroup [reps=2000] [K=16] [M=8]  Origin: /work/shared/bench. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int k) {
  double x = k;
  for (int i = 0; i < 50; i++) x = x * 0.999 + 1.0;
  return x;
}

int main(int argc, char **argv) {
  int R = argc > 1 ? atoi(argv[1]) : 2000;
  int K = argc > 2 ? atoi(argv[2]) : 16;
  int M = argc > 3 ? atoi(argv[3]) : 8;
  double *res = calloc((size_t)K * (M + 1), sizeof(double));
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int r = 0; r < R; r++) {
#pragma omp taskgroup
    {
      for (int k = 0; k < K; k++) {
#pragma omp task firstprivate(k)
        {
          res[k * (M + 1)] += work(k);
          for (int m = 0; m < M; m++) {
#pragma omp task firstprivate(k, m)
            res[k * (M + 1) + m + 1] += work(k + m);
          }
        }
      }
    }
  }
  double t1 = omp_get_wtime();
  double sum = 0.0;
  for (int i = 0; i < K * (M + 1); i++) sum += res[i];
  printf("taskgroup reps=%d K=%d M=%d threads=%d checksum=%.6f tasks=%ld time=%.4f\n", R, K, M,
         omp_get_max_threads(), sum, (long)R * K * (M + 1), t1 - t0);
  free(res);
  return 0;
}
