/* bench/advice/taskwait.c - bench/advice.py: the taskwait advice.
 * A loop whose every step runs a small task undeferred (if(0): the loop
 * waits for it anyway) and then waits in a taskwait that has nothing left
 * to wait for (mode 0), or the same loop without the taskwait (mode 1: the
 * change `otter diagnose` advises). Usage: taskwait [mode=0] [steps=20000]
 * [work=200]. Prints a checksum and the run time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int removed = argc > 1 ? atoi(argv[1]) : 0;
  int S = argc > 2 ? atoi(argv[2]) : 20000;
  int W = argc > 3 ? atoi(argv[3]) : 200;
  double sum = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < S; s++) {
#pragma omp task if (0) shared(sum) firstprivate(s)
    {
      double x = s;
      for (int i = 0; i < W; i++)
        x = x * 0.999 + 0.5;
      sum += x;
    }
    if (!removed) {
#pragma omp taskwait
    }
  }
  printf("checksum=%.3f time=%.6f\n", sum, omp_get_wtime() - t0);
  return 0;
}
