// The quick-start example: a parallel region in which one thread creates
// tasks (a recursive Fibonacci with taskwait), then a worksharing loop.
#include <omp.h>
#include <stdio.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  long result = 0;
  double sum = 0.0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    result = fib(6);

#pragma omp for reduction(+ : sum)
    for (int i = 0; i < 1000; ++i)
      sum += 1.0 / (i + 1);
  }
  printf("fib(6) = %ld, harmonic(1000) = %.6f\n", result, sum);
  return 0;
}
