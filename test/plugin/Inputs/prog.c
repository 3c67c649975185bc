// Shared OpenMP program for the plugin tests: deterministic output.
#include <omp.h>
#include <stdio.h>

static omp_lock_t Lock;
static omp_nest_lock_t Nest;

static int fib(int n) {
  int a, b;
  if (n < 2)
    return n;
#pragma omp task shared(a) if (n > 10)
  a = fib(n - 1);
#pragma omp task shared(b) if (n > 10)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  int sum = 0, f = 0, hits = 0;
  omp_init_lock(&Lock);
  omp_init_nest_lock(&Nest);
#pragma omp parallel for reduction(+ : sum) num_threads(2)
  for (int i = 0; i < 1000; ++i)
    sum += i % 7;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    f = fib(15);
    for (int k = 0; k < 3; ++k) {
      if (k % 2) {
#pragma omp critical
        hits += 1;
      } else {
        omp_set_lock(&Lock);
        hits += 1;
        omp_unset_lock(&Lock);
      }
#pragma omp barrier
    }
    omp_set_nest_lock(&Nest);
    omp_set_nest_lock(&Nest);
    omp_unset_nest_lock(&Nest);
    omp_unset_nest_lock(&Nest);
  }
#pragma omp taskgroup
  {
#pragma omp task shared(hits)
    hits += 10;
  }
  omp_destroy_lock(&Lock);
  omp_destroy_nest_lock(&Nest);
  printf("sum=%d fib=%d hits=%d\n", sum, f, hits);
  return 0;
}
