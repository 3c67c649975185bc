// Labels: unnamed and named critical sections, one inside a task.
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
static int n;
int main(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    n += 1;
#pragma omp critical(other)
    n += 2;
#pragma omp single
    {
#pragma omp task
      {
#pragma omp critical(other)
        n += 4;
      }
    }
  }
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=10

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 22 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-28]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-29]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-29]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-29]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-29]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-28]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-27]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-28]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-37]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-39]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-40]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/critical.c:[[@LINE-48]]:1{{$}}
