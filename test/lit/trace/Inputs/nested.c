#include <omp.h>
#include <stdio.h>
int main(void) {
  int s = 0;
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : s)
  {
#pragma omp parallel num_threads(2) reduction(+ : s)
    {
      s += 1;
#pragma omp barrier
#pragma omp for
      for (int i = 0; i < 8; ++i)
        s += i;
    }
#pragma omp masked
    s += 100;
  }
  printf("%d\n", s);
  return 0;
}
