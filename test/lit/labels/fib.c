// Labels: recursive tasks (fib(4)): every task, at every depth, carries the
// line of its own task directive; every taskwait the taskwait's.
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
static int fib(int k) {
  if (k < 2)
    return k;
  int x, y;
#pragma omp task shared(x)
  x = fib(k - 1);
#pragma omp task shared(y)
  y = fib(k - 2);
#pragma omp taskwait
  return x + y;
}
int main(void) {
  int r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(4);
  printf("fib=%d\n", r);
  return 0;
}
// OUT: fib=3

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 23 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-16]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-17]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-18]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-18]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-29]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-31]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-30]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-29]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-32]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-31]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-34]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-37]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-31]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-32]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-33]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-34]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/fib.c:[[@LINE-37]]:1{{$}}
