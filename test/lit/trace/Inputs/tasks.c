#include <stdio.h>
long fib(int n) {
  long x, y;
  if (n < 2) return n;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y) untied
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}
int main(void) {
  long r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(8);
  printf("%ld\n", r);
  return 0;
}
