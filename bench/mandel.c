/* bench/mandel.c - a realistic task program for `otter simulate`'s
 * validation (bench/simulate.py): a taskloop over the rows of a
 * Mandelbrot image (escape-time iteration, up to ITER per pixel), a task
 * per GRAIN rows: tasks of tens of microseconds to milliseconds of
 * floating-point work, uneven (rows through the set take longest), run
 * REPS times.
 * Usage: mandel [SIZE=256] [ITER=500] [GRAIN=4] [REPS=2]
 * Prints the number of pixels in the set and the time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int S = argc > 1 ? atoi(argv[1]) : 256;
  int It = argc > 2 ? atoi(argv[2]) : 500;
  int G = argc > 3 ? atoi(argv[3]) : 4;
  int R = argc > 4 ? atoi(argv[4]) : 2;
  int *img = calloc((size_t)S * S, sizeof(int));
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int r = 0; r < R; r++) {
#pragma omp taskloop grainsize(G)
    for (int y = 0; y < S; y++)
      for (int x = 0; x < S; x++) {
        double cr = -2.0 + 2.5 * x / S, ci = -1.25 + 2.5 * y / S;
        double zr = 0, zi = 0;
        int k = 0;
        while (k < It && zr * zr + zi * zi < 4.0) {
          double t = zr * zr - zi * zi + cr;
          zi = 2 * zr * zi + ci;
          zr = t;
          ++k;
        }
        img[y * S + x] = k;
      }
  }
  double t1 = omp_get_wtime();
  long in = 0;
  for (long i = 0; i < (long)S * S; i++)
    in += img[i] == It;
  printf("mandel size=%d iter=%d grain=%d reps=%d threads=%d inside=%ld "
         "time=%.4f\n",
         S, It, G, R, omp_get_max_threads(), in, t1 - t0);
  free(img);
  return 0;
}
