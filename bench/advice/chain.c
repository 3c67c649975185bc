/* bench/advice/chain.c - bench/advice.py: the dependences advice.
 * A loop of tasks that only read a shared table but declare inout on it
 * (mode 0: every task waits for the one before), or in (mode 1: the change
 * `otter diagnose` advises). Each task sums the table `reps` times into a
 * result of its own (summed in a local: neighbouring results share a cache
 * line, which would slow tasks that run side by side). Usage: chain [mode=0] [tasks=64] [reps=200]. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(int argc, char **argv) {
  int relaxed = argc > 1 ? atoi(argv[1]) : 0;
  int T = argc > 2 ? atoi(argv[2]) : 64;
  int reps = argc > 3 ? atoi(argv[3]) : 200;
  static double table[N];
  double *out = calloc(T, sizeof(double));
  for (int i = 0; i < N; i++)
    table[i] = i * 0.25;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < T; t++) {
    if (!relaxed) {
#pragma omp task depend(inout : table[0]) firstprivate(t)
      {
        double sum = 0; /* out[t] only at the end: no false sharing */
        for (int r = 0; r < reps; r++)
          for (int i = 0; i < N; i++)
            sum += table[i] * (r + t);
        out[t] = sum;
      }
    } else {
#pragma omp task depend(in : table[0]) firstprivate(t)
      {
        double sum = 0; /* out[t] only at the end: no false sharing */
        for (int r = 0; r < reps; r++)
          for (int i = 0; i < N; i++)
            sum += table[i] * (r + t);
        out[t] = sum;
      }
    }
  }
  double s = 0;
  for (int t = 0; t < T; t++)
    s += out[t];
  printf("checksum=%.3f time=%.6f\n", s, omp_get_wtime() - t0);
  free(out);
  return 0;
}
