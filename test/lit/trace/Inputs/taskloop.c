#include <stdio.h>
int main(void) {
  int a[64] = {0};
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskloop grainsize(8)
    for (int i = 0; i < 64; ++i)
      a[i] = i;
#pragma omp taskloop num_tasks(4) nogroup
    for (int i = 0; i < 64; ++i)
      a[i] += 1;
#pragma omp taskwait
  }
#pragma omp parallel for schedule(dynamic, 4) num_threads(2)
  for (int i = 0; i < 64; ++i)
    a[i] *= 2;
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    a[0] = 1;
#pragma omp section
    a[1] = 1;
  }
  printf("%d\n", a[63]);
  return 0;
}
