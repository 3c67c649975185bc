// Labels: tasks created by every thread of a team of 3, before and after an
// explicit barrier, and tasks created inside a worksharing loop.
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
#pragma omp parallel num_threads(3)
  {
#pragma omp task
    {
#pragma omp atomic
      n++;
    }
#pragma omp barrier
#pragma omp task
    {
#pragma omp atomic
      n++;
    }
#pragma omp for
    for (int i = 0; i < 3; i++) {
#pragma omp task
      {
#pragma omp atomic
        n += 10;
      }
    }
  }
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=36

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 24 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-31]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-34]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-33]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-41]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-41]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-42]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-56]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/team-tasks.c:[[@LINE-57]]:1{{$}}
