// Labels: sections (with and without nowait) and parallel sections.
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
static int a[5]; // a[3] and a[4]: the nowait sections may run at once
int main(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp sections
    {
#pragma omp section
      a[0] += 1;
#pragma omp section
      a[1] += 1;
#pragma omp section
      a[2] += 1;
    }
#pragma omp sections nowait
    {
      a[3] += 1;
#pragma omp section
      a[4] += 1;
    }
  }
#pragma omp parallel sections num_threads(2)
  {
    a[0] += 10;
#pragma omp section
    a[1] += 10;
  }
  printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
  return 0;
}
// OUT: 11 11 1 1 1

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 24 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-41]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-33]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-34]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-44]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-49]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-50]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-33]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-34]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_begin parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} sections_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/sections.c:[[@LINE-41]]:1{{$}}
