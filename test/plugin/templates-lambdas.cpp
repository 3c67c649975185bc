// C++: directives in templates (one record per source directive, shared by
// all instantiations), lambdas, methods and combined directives.
// RUN: %clangxx -fopenmp -O2 -fplugin=%otter_plugin -fplugin-arg-otter-verbose %s -o %t 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: %t | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t | FileCheck %s
#include <cstdio>

namespace ns {
template <typename T> T sum(int n) {
  T s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < n; ++i)
    s += T(i);
  return s;
}

struct Worker {
  int run() {
    int x = 0;
#pragma omp parallel num_threads(2) shared(x)
    {
#pragma omp atomic
      x += 1;
    }
    return x;
  }
};
} // namespace ns

int main() {
  auto lambda = [](int n) {
    int t = 0;
#pragma omp parallel num_threads(2) reduction(+ : t)
    {
#pragma omp single
      {
#pragma omp taskloop grainsize(4)
        for (int i = 0; i < n; ++i) {
#pragma omp atomic
          t += i;
        }
      }
    }
    return t;
  };
  ns::Worker w;
  std::printf("%d %g %d %d\n", ns::sum<int>(10), ns::sum<double>(4), w.run(),
              lambda(8));
  return 0;
}
// VERBOSE-DAG: otter: directive 'parallel for' at {{.*}}templates-lambdas.cpp:[[@LINE-40]]:1-{{.*}} in 'ns::sum'
// VERBOSE-DAG: otter: directive 'parallel' at {{.*}}templates-lambdas.cpp:[[@LINE-32]]:1-{{.*}} in 'ns::Worker::run'
// VERBOSE-DAG: otter: directive 'parallel' at {{.*}}templates-lambdas.cpp:[[@LINE-20]]:1-{{.*}} in 'main::(lambda at line [[@LINE-22]]:17)'
// VERBOSE-DAG: otter: directive 'taskloop' at {{.*}}templates-lambdas.cpp:[[@LINE-17]]:1-{{.*}} in 'main::(lambda at line [[@LINE-23]]:17)' clauses 'grainsize(4)'
// VERBOSE-DAG: otter: site '__kmpc_taskloop' in {{.*}} -> 'taskloop' at {{.*}}templates-lambdas.cpp:[[@LINE-18]]:1
// VERBOSE-NOT: warning
// OUT: 45 6 2 0
// CHECK-DAG: directive "parallel for" at {{.*}}templates-lambdas.cpp:[[@LINE-47]]:1
// CHECK-DAG: directive "taskloop" at {{.*}}templates-lambdas.cpp:[[@LINE-22]]:1
// CHECK-DAG: site {{.*}} "parallel for" at {{.*}}templates-lambdas.cpp:[[@LINE-49]]:1
// CHECK-DAG: site {{.*}} "parallel" at {{.*}}templates-lambdas.cpp:[[@LINE-41]]:1
// CHECK-DAG: site {{.*}} "single" at {{.*}}templates-lambdas.cpp:[[@LINE-27]]:1
// CHECK: summary: {{.*}} 0 errors
