// Labels in a program mixing instrumented objects (this file, Inputs/mixed-b.c)
// and an uninstrumented one (Inputs/uninstr.c, linked between them, with and
// without line tables): the uninstrumented call sites get approximate labels
// (at=~symbol+0x.. or ~module+0x..), never an exact one, even for the
// taskloop whose code pointer is inside libomp (the stack walk must not
// wander past the uninstrumented caller onto an instrumented site).
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -fopenmp -O2 -c %S/Inputs/uninstr.c -o %t/uninstr2.o
// RUN: %otter-cc -O2 -c %s -o %t/main2.o
// RUN: %otter-cc -O2 -c %S/Inputs/mixed-b.c -o %t/b2.o
// RUN: %clang -fopenmp %t/main2.o %t/uninstr2.o %t/b2.o -o %t/prog2
// RUN: %clang -fopenmp -O0 -g -c %S/Inputs/uninstr.c -o %t/uninstr0.o
// RUN: %otter-cc -O0 -c %s -o %t/main0.o
// RUN: %otter-cc -O0 -c %S/Inputs/mixed-b.c -o %t/b0.o
// RUN: %clang -fopenmp %t/main0.o %t/uninstr0.o %t/b0.o -o %t/prog0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t/d0 %t/prog0 2>%t/err0 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t/d2 %t/prog2 2>%t/err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err2
// RUN: FileCheck %s < %t/d0/graph.txt
// RUN: FileCheck %s < %t/d2/graph.txt
// RUN: FileCheck --check-prefix=CSV %s < %t/d0/nodes.csv
// RUN: FileCheck --check-prefix=CSV %s < %t/d2/nodes.csv
// RUN: %check-rebuild %t/d2
#include <stdio.h>
int total;
void uninstr_work(void);
void uninstr_region(void);
void instr_after(void);
int main(void) {
#pragma omp parallel num_threads(2)
  uninstr_work();
  uninstr_region();
  instr_after();
#pragma omp parallel num_threads(2)
  {
#pragma omp taskloop num_tasks(2)
    for (int i = 0; i < 2; i++) {
#pragma omp atomic
      total += 100000;
    }
  }
  printf("total=%d\n", total);
  return 0;
}
// OUT: total=414428

// No file:line:col and no function from the uninstrumented object: uninstr_*
// are not in the executable's dynamic symbol table, so the labels are
// module+offset; none is exact.
// CSV-NOT: uninstr.c
// CSV-NOT: {{,(exact|fallback),.*uninstr|uninstr.*,(exact|fallback)$}}
// CSV-NOT: unknown
// The taskloop in uninstr_work (called from main's instrumented region): its
// code pointer is in libomp; the stack walk stops at the uninstrumented
// caller instead of reaching main's fork call site.
// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: 10 exact, 12 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, {{[0-9]+}} found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 81 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-34]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-58]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-59]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at=~{{[^ :]+}}+0x{{[0-9a-f]+}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:7:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:7:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:7:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:7:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/mixed-b.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-93]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-94]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-95]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-94]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-95]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-96]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-97]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-98]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-99]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-100]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-101]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-102]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-103]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-104]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-105]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-108]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/mixed.c:[[@LINE-109]]:1{{$}}
