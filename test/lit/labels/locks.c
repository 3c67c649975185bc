// Labels: omp_set/unset/test_lock and nest locks (labels are the calls'
// own line:col: omp_set_lock and omp_unset_lock are their own "directives").
//
// Every node must carry its construct's exact file:line:col (implicit tasks
// and implicit barriers: their region's), the same at -O0 and -O2.
//
// REQUIRES: plugin
// RUN: rm -rf %t.d0 %t.d2
// RUN: %otter-cc -O0 %s -o %t0 2>%t.cc0
// RUN: %otter-cc -O2 %s -o %t2 2>%t.cc2
// RUN: not grep otter: %t.cc0 %t.cc2
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d0 %t0 2>%t.err0 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d2 %t2 2>%t.err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err2
// RUN: FileCheck %s < %t.d0/graph.txt
// RUN: FileCheck %s < %t.d2/graph.txt
// RUN: %check-rebuild %t.d2
#include <stdio.h>
#include <omp.h>
static int n;
int main(void) {
  omp_lock_t l;
  omp_nest_lock_t nl;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
#pragma omp parallel num_threads(2)
  {
    omp_set_lock(&l);
    n += 1;
    omp_unset_lock(&l);
    while (!omp_test_lock(&l)) {
    }
    n += 2;
    omp_unset_lock(&l);
    omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
    n += 4;
      omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
  }
  omp_destroy_nest_lock(&nl);
  omp_destroy_lock(&l);
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=14

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 22 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-31]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-32]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-31]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-30]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-30]]:13{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-28]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-28]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-28]]:7 flags=reacquire{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-27]]:7 flags=reacquire{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-27]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-39]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-38]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-38]]:13{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-36]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-36]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_begin parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-36]]:7 flags=reacquire{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-35]]:7 flags=reacquire{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} nest_lock_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-35]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-49]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/locks.c:[[@LINE-50]]:1{{$}}
