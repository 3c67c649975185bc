// verbose lists every directive (also those without runtime calls) and every
// tagged runtime call site with the directive it was matched to.
// RUN: %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-verbose -O0 -c %s -o %t.o 2>&1 | FileCheck %s
#include <omp.h>

omp_lock_t L;
int x;

void f(int n) {
#pragma omp parallel for schedule(dynamic, 2) num_threads(2)
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    x += i;
  }
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      x++;
    }
#pragma omp single nowait
    {
#pragma omp task depend(inout: x)
      x++;
#pragma omp taskyield
#pragma omp taskwait
    }
#pragma omp flush
#pragma omp masked
    x++;
  }
  omp_set_lock(&L);
  omp_unset_lock(&L);
}
// CHECK-DAG: otter: directive 'parallel for' at {{.*}}verbose.c:[[@LINE-26]]:1-[[@LINE-26]]:61 in 'f' clauses 'schedule(dynamic, 2) num_threads(2)' region 0x{{[0-9a-f]+}}
// CHECK-DAG: otter: directive 'atomic' at {{.*}}verbose.c:[[@LINE-25]]:1-[[@LINE-25]]:19 in 'f'
// CHECK-DAG: otter: directive 'sections' at {{.*}}verbose.c:[[@LINE-21]]:1
// CHECK-DAG: otter: directive 'section' at {{.*}}verbose.c:[[@LINE-20]]:1
// CHECK-DAG: otter: directive 'single' at {{.*}}verbose.c:[[@LINE-18]]:1-[[@LINE-18]]:26 in 'f' clauses 'nowait'
// CHECK-DAG: otter: directive 'task' at {{.*}}verbose.c:[[@LINE-17]]:1-[[@LINE-17]]:34 in 'f' clauses 'depend(inout : x)'
// CHECK-DAG: otter: directive 'taskyield' at {{.*}}verbose.c:[[@LINE-16]]:1
// CHECK-DAG: otter: directive 'flush' at {{.*}}verbose.c:[[@LINE-14]]:1
// CHECK-DAG: otter: directive 'masked' at {{.*}}verbose.c:[[@LINE-14]]:1
// CHECK-DAG: otter: directive 'omp_set_lock' at {{.*}}verbose.c:[[@LINE-12]]:3-[[@LINE-12]]:18 in 'f'
// CHECK-DAG: otter: site '__kmpc_fork_call' in 'f' at {{.*}}verbose.c:[[@LINE-36]]:1 -> 'parallel for' at {{.*}}verbose.c:[[@LINE-36]]:1
// CHECK-DAG: otter: site '__kmpc_dispatch_init_4' in 'f.omp_outlined' at {{.*}} -> 'parallel for'
// CHECK-DAG: otter: site '__kmpc_fork_call' in 'f' at {{.*}}verbose.c:[[@LINE-33]]:1 -> 'parallel' at {{.*}}verbose.c:[[@LINE-33]]:1
// CHECK-DAG: otter: site '__kmpc_omp_task_with_deps' in {{.*}} -> 'task' at {{.*}}verbose.c:[[@LINE-25]]:1
// CHECK-DAG: otter: site '__kmpc_omp_taskyield' in {{.*}} -> 'taskyield' at {{.*}}verbose.c:[[@LINE-24]]:1
// CHECK-DAG: otter: site '__kmpc_omp_taskwait' in {{.*}} -> 'taskwait' at {{.*}}verbose.c:[[@LINE-24]]:1
// CHECK-DAG: otter: site '__kmpc_flush' in {{.*}} -> 'flush' at {{.*}}verbose.c:[[@LINE-23]]:1
// CHECK-DAG: otter: site '__kmpc_masked' in {{.*}} -> 'masked' at {{.*}}verbose.c:[[@LINE-23]]:1
// CHECK-DAG: otter: site 'omp_set_lock' in 'f' at {{.*}}verbose.c:[[@LINE-21]]:3 -> 'omp_set_lock' at {{.*}}verbose.c:[[@LINE-21]]:3
// CHECK-DAG: otter: site 'omp_unset_lock' in 'f' at {{.*}}verbose.c:[[@LINE-21]]:3 -> 'omp_unset_lock' at {{.*}}verbose.c:[[@LINE-21]]:3
// CHECK-NOT: warning
