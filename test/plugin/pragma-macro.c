// _Pragma in macros: every directive expanded from one macro shares the
// macro's location; calls are matched by kind among them.
// RUN: %clang -fopenmp -O1 -fplugin=%otter_plugin -fplugin-arg-otter-verbose %s -o %t 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: %t | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t | FileCheck %s
#include <stdio.h>
#define PAR_SINGLE_TASK(body)                                                  \
  _Pragma("omp parallel num_threads(2)")                                       \
  {                                                                            \
    _Pragma("omp single")                                                      \
    {                                                                          \
      _Pragma("omp task") body;                                                \
      _Pragma("omp taskwait")                                                  \
    }                                                                          \
  }
#define PFOR _Pragma("omp parallel for num_threads(2) reduction(+:s)")

int main(void) {
  int x = 0, s = 0;
  PAR_SINGLE_TASK(x += 1);
  PFOR for (int i = 0; i < 10; ++i) s += i;
  printf("%d %d\n", x, s);
  return 0;
}
// VERBOSE-DAG: otter: directive 'parallel' at {{.*}}pragma-macro.c:[[@LINE-5]]:3-[[@LINE-5]]:25
// VERBOSE-DAG: otter: directive 'single' at {{.*}}pragma-macro.c:[[@LINE-6]]:3-[[@LINE-6]]:25
// VERBOSE-DAG: otter: directive 'task' at {{.*}}pragma-macro.c:[[@LINE-7]]:3-[[@LINE-7]]:25
// VERBOSE-DAG: otter: directive 'taskwait' at {{.*}}pragma-macro.c:[[@LINE-8]]:3-[[@LINE-8]]:25
// VERBOSE-DAG: otter: directive 'parallel for' at {{.*}}pragma-macro.c:[[@LINE-8]]:3-[[@LINE-8]]:3 in 'main' clauses 'num_threads(2) reduction(+: s)'
// VERBOSE-DAG: otter: site '__kmpc_fork_call' in 'main' at {{.*}}pragma-macro.c:[[@LINE-10]]:3 -> 'parallel' at
// VERBOSE-DAG: otter: site '__kmpc_single' in {{.*}} -> 'single' at
// VERBOSE-DAG: otter: site '__kmpc_omp_task' in {{.*}} -> 'task' at
// VERBOSE-DAG: otter: site '__kmpc_omp_taskwait' in {{.*}} -> 'taskwait' at
// VERBOSE-DAG: otter: site '__kmpc_fork_call' in 'main' at {{.*}}pragma-macro.c:[[@LINE-13]]:3 -> 'parallel for' at
// VERBOSE-NOT: warning
// OUT: 1 45
// CHECK-DAG: site {{.*}} "taskwait" at {{.*}}pragma-macro.c:[[@LINE-17]]:3
// CHECK: summary: {{.*}} 0 errors
