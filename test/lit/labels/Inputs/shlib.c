// Linked shared library, built with the plugin (test/lit/labels/shared-lib.c).
int shlib_work(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < n; i++)
    s += i;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
#pragma omp task
      {
#pragma omp atomic
        s += 100;
      }
    }
  }
  return s;
}
