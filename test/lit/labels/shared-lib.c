// Labels from shared libraries built with the plugin: one linked to the
// program (Inputs/shlib.c), one dlopen'ed after the tool started
// (Inputs/dlplugin.c): their nodes carry exact labels with the library's
// source file; the site index rescans when the library appears.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %otter-cc -O0 -fPIC -shared %S/Inputs/shlib.c -o %t/libshlib0.so
// RUN: %otter-cc -O0 -fPIC -shared %S/Inputs/dlplugin.c -o %t/dlplugin0.so
// RUN: %otter-cc -O0 %s -L%t -lshlib0 -Wl,-rpath,%t -ldl -o %t/prog0
// RUN: %otter-cc -O2 -fPIC -shared %S/Inputs/shlib.c -o %t/libshlib2.so
// RUN: %otter-cc -O2 -fPIC -shared %S/Inputs/dlplugin.c -o %t/dlplugin2.so
// RUN: %otter-cc -O2 %s -L%t -lshlib2 -Wl,-rpath,%t -ldl -o %t/prog2
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t/d0 %t/prog0 %t/dlplugin0.so 2>%t/err0 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t/d2 %t/prog2 %t/dlplugin2.so 2>%t/err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err2
// RUN: FileCheck %s < %t/d0/graph.txt
// RUN: FileCheck %s < %t/d2/graph.txt
// RUN: %check-rebuild %t/d2
#include <dlfcn.h>
#include <stdio.h>
int shlib_work(int n);
int main(int argc, char **argv) {
  int r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = shlib_work(10);
  // The tool is running; now load the other library.
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : 0;
  if (!h) {
    printf("dlopen failed\n");
    return 1;
  }
  int (*work)(int) = (int (*)(int))dlsym(h, "dlplugin_work");
  int d = work(10);
  printf("r=%d d=%d\n", r, d);
  return 0;
}
// OUT: r=145 d=2045

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 43 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-24]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-25]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-26]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-26]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:4:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:9:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:11:1 flags=undeferred|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:9:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/shlib.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-41]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-42]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-43]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-44]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/shared-lib.c:[[@LINE-47]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskloop_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:9:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:7:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:15:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:16:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:16:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:16:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:16:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:5:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/Inputs/dlplugin.c:5:1{{$}}
