#include <omp.h>
#include <stdio.h>
int main(void) {
  int x = 0;
  omp_lock_t l;
  omp_nest_lock_t n;
  omp_init_lock(&l);
  omp_init_nest_lock(&n);
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    x++;
    omp_set_lock(&l);
    x++;
    omp_unset_lock(&l);
    omp_set_nest_lock(&n);
    omp_set_nest_lock(&n);
    x++;
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);
#pragma omp for ordered
    for (int i = 0; i < 4; ++i) {
#pragma omp ordered
      x++;
    }
  }
  printf("%d\n", x);
  return 0;
}
