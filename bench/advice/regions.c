/* bench/advice/regions.c - bench/advice.py: the fuse_regions advice.
 * Many short parallel loops, each in a parallel region of its own (mode 0),
 * or the same loops as worksharing loops of one parallel region (mode 1:
 * the change `otter diagnose` advises). Usage: regions [mode=0]
 * [regions=4000] [iters=2048]. Prints a checksum and the run time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int fused = argc > 1 ? atoi(argv[1]) : 0;
  int R = argc > 2 ? atoi(argv[2]) : 4000;
  int N = argc > 3 ? atoi(argv[3]) : 2048;
  double *a = calloc(N, sizeof(double));
  double t0 = omp_get_wtime();
  if (!fused) {
    for (int r = 0; r < R; r++) {
#pragma omp parallel for
      for (int i = 0; i < N; i++)
        a[i] = a[i] * 0.999 + 0.001 * (i + r);
    }
  } else {
#pragma omp parallel
    for (int r = 0; r < R; r++) {
#pragma omp for
      for (int i = 0; i < N; i++)
        a[i] = a[i] * 0.999 + 0.001 * (i + r);
    }
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i];
  printf("checksum=%.6f time=%.6f\n", s, omp_get_wtime() - t0);
  free(a);
  return 0;
}
