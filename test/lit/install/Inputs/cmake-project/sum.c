#include <stdio.h>
int main(void) {
  long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 4; ++i) {
#pragma omp task shared(s)
      {
#pragma omp atomic
        s += i;
      }
    }
#pragma omp taskwait
  }
  printf("sum=%ld\n", s);
  return 0;
}
