/* bench/deps.c - OTTER overhead benchmark: task dependences.
 * 2D blocked wavefront (Gauss-Seidel-like sweep) with task
 * dependences: block (i,j) depends on (i-1,j), (i,j-1) [in] and on itself
 * [inout]; a final reduction task per sweep reads the corner block [in] and
 * writes an accumulator [out].  The diagonal neighbour (i-1,j-1) is also an
 * [in] dependence because its corner cell is read (keeps sweeps race-free).
 * NB x NB tasks per sweep, several sweeps.  Stresses the dependences and
 * task_dependence callbacks (several events per task).
 * Usage: deps [NB=64] [B=8] [sweeps=30]  Origin: /work/shared/bench. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int NB = argc > 1 ? atoi(argv[1]) : 64;
  int B = argc > 2 ? atoi(argv[2]) : 8;
  int S = argc > 3 ? atoi(argv[3]) : 30;
  int n = NB * B;
  double *g = malloc(sizeof(double) * (n + 1) * (n + 1));
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= n; j++) g[i * (n + 1) + j] = (i == 0 || j == 0) ? 1.0 : 0.0;
  char *dep = calloc((size_t)NB * NB, 1); /* one sentinel per block */
  double acc = 0.0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < S; s++) {
    for (int bi = 0; bi < NB; bi++)
      for (int bj = 0; bj < NB; bj++) {
        char *self = &dep[bi * NB + bj];
        char *up = bi > 0 ? &dep[(bi - 1) * NB + bj] : self;
        char *left = bj > 0 ? &dep[bi * NB + bj - 1] : self;
        char *diag = (bi > 0 && bj > 0) ? &dep[(bi - 1) * NB + bj - 1] : self;
#pragma omp task firstprivate(bi, bj) depend(in : up[0], left[0], diag[0]) depend(inout : self[0])
        {
          for (int i = bi * B + 1; i <= (bi + 1) * B; i++)
            for (int j = bj * B + 1; j <= (bj + 1) * B; j++)
              g[i * (n + 1) + j] = 0.25 * (g[(i - 1) * (n + 1) + j] + g[i * (n + 1) + j - 1] +
                                           g[i * (n + 1) + j] + g[(i - 1) * (n + 1) + j - 1]);
        }
      }
#pragma omp task depend(in : dep[NB * NB - 1]) depend(out : acc)
    acc += g[n * (n + 1) + n];
  }
  double t1 = omp_get_wtime();
  double sum = acc;
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= n; j++) sum += g[i * (n + 1) + j];
  printf("deps NB=%d B=%d sweeps=%d threads=%d checksum=%.9e tasks=%ld time=%.4f\n", NB, B, S,
         omp_get_max_threads(), sum, (long)S * (NB * NB + 1), t1 - t0);
  free(g);
  free(dep);
  return 0;
}
