// C++ `new` compiled with -g: clang puts !heapallocsite (a DIType, whose
// first operand may be null) on every allocation call, the same metadata
// kind the site pass uses for its own tags; the plugin must read only its
// own tags, never crash the compiler, and label the sites as without -g
// (issue 25: this crashed clang in SiteHandler::beginFunction).
// RUN: %otter-cxx -O0 -g %s -o %t.O0g
// RUN: %otter-cxx -O2 -g %s -o %t.O2g
// RUN: %otter-cxx -O2 -gline-tables-only %s -o %t.O2l
// RUN: %otter-cxx -O2 %s -o %t.O2
// RUN: %t.O0g | FileCheck --check-prefix=OUT %s
// RUN: %t.O2g | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t.O0g | FileCheck %s
// RUN: otter-sites %t.O2g | FileCheck %s
// Same labels with and without -g (addresses aside: with exceptions the
// code layout may differ).
// RUN: otter-sites %t.O2g | grep -v "^file:" | sed 's/0x[0-9a-f-]*x[0-9a-f]* //' | sort > %t.g.sites
// RUN: otter-sites %t.O2 | grep -v "^file:" | sed 's/0x[0-9a-f-]*x[0-9a-f]* //' | sort > %t.nog.sites
// RUN: diff %t.g.sites %t.nog.sites
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

// A function with a directive and a `new` (the reproduction).
int fill(int n) {
  int *r = new int[n];
// CHECK-DAG: directive "parallel for" at {{.*}}cxx-new-debug.cpp:[[@LINE+1]]:1
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < n; i++)
    r[i] = i;
  int x = r[n - 1];
  delete[] r;
  return x;
}

// A template whose tasks allocate, and a lambda that throws and catches
// inside the task (exceptions must not leave a structured block).
template <typename T> T tasks(int n) {
  std::vector<std::unique_ptr<T>> parts(n);
#pragma omp parallel num_threads(2)
// CHECK-DAG: directive "single" at {{.*}}cxx-new-debug.cpp:[[@LINE+1]]:1
#pragma omp single
  for (int i = 0; i < n; ++i) {
// CHECK-DAG: directive "task" at {{.*}}cxx-new-debug.cpp:[[@LINE+1]]:1
#pragma omp task shared(parts)
    {
      auto check = [](int v) {
        if (v % 3 == 0)
          throw std::runtime_error("multiple of three");
        return v;
      };
      T value;
      try {
        value = T(check(i));
      } catch (const std::exception &) {
        value = T(0);
      }
      parts[i] = std::make_unique<T>(value);
    }
  }
  T sum = 0;
  for (auto &p : parts)
    sum += *p;
  return sum;
}

struct Grid {
  std::vector<double> *cells = nullptr;
  void build(int n) {
// CHECK-DAG: directive "parallel" at {{.*}}cxx-new-debug.cpp:[[@LINE+1]]:1
#pragma omp parallel num_threads(2)
    {
// CHECK-DAG: directive "master" at {{.*}}cxx-new-debug.cpp:[[@LINE+1]]:1
#pragma omp master
      cells = new std::vector<double>(n, 1.0);
    }
  }
  ~Grid() { delete cells; }
};

int main() {
  Grid g;
  g.build(4);
  // OUT: 7 19 12 4
  std::printf("%d %d %g %zu\n", fill(8), tasks<int>(8), tasks<double>(7),
              g.cells->size());
  return 0;
}
// CHECK: summary: {{[0-9]+}} directives, {{[0-9]+}} sites, 0 errors
