// Labels: explicit tasks and taskwait; untied, if(0), final (with a task
// inside the final task) and mergeable tasks; taskyield.
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
#pragma omp single
  {
#pragma omp task
    {
#pragma omp atomic
      n += 1;
    }
#pragma omp task untied
    {
#pragma omp atomic
      n += 2;
#pragma omp taskyield
    }
#pragma omp taskwait
#pragma omp task if (0)
    n += 4;
#pragma omp task final(1)
    {
#pragma omp task
      {
#pragma omp atomic
        n += 8;
      }
    }
#pragma omp task mergeable
    {
#pragma omp atomic
      n += 16;
    }
#pragma omp taskwait
  }
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=31

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 19 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-45]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-47]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-48]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-43]]:1 flags=untied{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-38]]:1 flags=undeferred|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-37]]:1 flags=final{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-36]]:1 flags=undeferred|final|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-31]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-27]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-57]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-58]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-59]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-61]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/tasks.c:[[@LINE-62]]:1{{$}}
