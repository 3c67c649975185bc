int work(int n) {
  int total = 0;
#pragma omp parallel for reduction(+ : total) num_threads(2)
  for (int i = 0; i < n; ++i)
    total += i;
  return total;
}
