// Labels: taskloop with grainsize, num_tasks and nogroup. Its tasks are
// created from inside libomp (codeptr_ra in __kmp_taskloop): the stack walk
// must still give them the taskloop's line.
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
// RUN: FileCheck --check-prefix=CSV %s < %t.d0/nodes.csv
// RUN: FileCheck --check-prefix=CSV %s < %t.d2/nodes.csv
// RUN: FileCheck %s < %t.d0/graph.txt
// RUN: FileCheck %s < %t.d2/graph.txt
// With full LTO (gold): the same labels, no site-table warning.
// RUN: rm -rf %t.dl
// RUN: %otter-cc -O2 -flto -fuse-ld=gold %s -o %tl
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.dl %tl 2>%t.errl | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.errl
// RUN: FileCheck %s < %t.dl/graph.txt
// RUN: %check-rebuild %t.d2
#include <stdio.h>
static int a[16];
int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskloop grainsize(4)
    for (int i = 0; i < 8; i++)
      a[i] += 1;
#pragma omp taskloop num_tasks(3)
    for (int i = 0; i < 6; i++)
      a[i] += 2;
#pragma omp taskloop num_tasks(2) nogroup
    for (int i = 0; i < 8; i++)
      a[i] += 4;
#pragma omp taskwait
  }
#pragma omp parallel master taskloop num_tasks(2) num_threads(2)
  for (int i = 8; i < 16; i++)
    a[i] += 8;
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += a[i];
  printf("s=%d\n", s);
  return 0;
}
// OUT: s=116
// The taskloop's tasks (and its begin/end, reported from inside libomp) are
// found by the stack walk, out to the bracketed __kmpc_taskloop call: exact.
// CSV-NOT: {{approximate|unknown|fallback}}
// CSV: ,task,{{.*}}/taskloop.c,[[@LINE-24]],1,{{.*}},exact,,,{{$}}
// CSV-NOT: {{approximate|unknown|fallback}}

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 42 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-40]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-39]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-41]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-42]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-43]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-44]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-42]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-43]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-44]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-45]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-48]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-48]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-49]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-59]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-60]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-61]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-62]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-64]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-65]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-52]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-53]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-54]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-55]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-56]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-57]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-58]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-59]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-60]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-61]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-62]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-63]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/taskloop.c:[[@LINE-64]]:1{{$}}
