#include <omp.h>

template <typename T> T tsum(T *a, int n) {
  T s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += a[i];
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task shared(s)
      s += 1;
#pragma omp taskwait
    }
#pragma omp critical
    s += 1;
  }
  return s;
}

struct Worker {
  int total = 0;
  void run(int n) {
#pragma omp parallel
    {
#pragma omp for reduction(+ : total)
      for (int i = 0; i < n; ++i)
        total += i;
#pragma omp master
      total += 1;
#pragma omp barrier
    }
    auto body = [this](int k) {
#pragma omp parallel
#pragma omp single
      {
#pragma omp task
        total += k;
#pragma omp taskwait
      }
    };
    body(3);
  }
};

int main() {
  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  double d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Worker w;
  w.run(8);
  return tsum(a, 8) + (int)tsum(d, 8) + w.total > 0 ? 0 : 1;
}
