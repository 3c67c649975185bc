// Labels: mutexinoutset and inoutset groups, a depobj dependence, and the
// depobj constructs themselves (no runtime call site that reaches OMPT).
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
int main(void) {
  int x = 0, y = 0, s = 0, t = 0;
  omp_depend_t o;
#pragma omp depobj(o) depend(inout: y)
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out: x)
    x = 1;
#pragma omp task depend(mutexinoutset: x)
    {
#pragma omp atomic
      s += x;
    }
#pragma omp task depend(mutexinoutset: x)
    {
#pragma omp atomic
      s += x;
    }
#pragma omp task depend(in: x)
    x = s;
#pragma omp task depend(depobj: o)
    y = 1;
#pragma omp task depend(inoutset: y)
    {
#pragma omp atomic
      t += y;
    }
#pragma omp task depend(inoutset: y)
    {
#pragma omp atomic
      t += y;
    }
#pragma omp task depend(inout: y)
    y = t;
  }
#pragma omp depobj(o) destroy
  printf("x=%d y=%d\n", x, y);
  return 0;
}
// OUT: x=2 y=2

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 19 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-48]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-48]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-47]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-46]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-42]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-38]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-37]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-36]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-32]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-28]]:1 flags=has_dependences{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-57]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-58]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-59]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-60]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-62]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/mutexinoutset.c:[[@LINE-63]]:1{{$}}
