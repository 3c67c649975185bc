/* Busy-waits on the wall clock: a task of known execution time. */
#include <omp.h>
static void spin_ms(double ms) {
  double t0 = omp_get_wtime();
  while ((omp_get_wtime() - t0) * 1e3 < ms) {
  }
}
