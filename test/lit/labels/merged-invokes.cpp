// Labels in C++ where API calls may unwind (invokes, a destructor to run):
// without the plugin's nomerge (plugin/NoMerge.cpp) -O2 made one invoke of
// the two omp_set_lock(&lock) ending the arms of an if/else: 4 of 5
// directives left, both lock_begin nodes at the else arm's line. More
// cases, in C: merged-calls.c.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %otter-cxx -O2 %s -o %t/O2 2>%t/cc
// RUN: %otter-cxx -O3 -g %s -o %t/O3g 2>>%t/cc
// RUN: not grep otter: %t/cc
// RUN: otter-sites --summary %t/O2 | FileCheck --check-prefix=SITES %s
// RUN: otter-sites --summary %t/O3g | FileCheck --check-prefix=SITES %s
// RUN: %otter-run OTTER_VERBOSE=1 OTTER_OUTPUT_DIR=%t/d2 %t/O2 2>%t/err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err2
// RUN: %otter-run OTTER_VERBOSE=1 OTTER_OUTPUT_DIR=%t/d3 %t/O3g 2>%t/err3 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err3
// RUN: FileCheck %s < %t/d2/graph.txt
// RUN: FileCheck %s < %t/d3/graph.txt
#include <cstdio>
#include <omp.h>

static omp_lock_t lock;
static int x;

struct Guard {
  ~Guard();
};
Guard::~Guard() { x += 100; }

__attribute__((noinline)) void arms(int c) {
  Guard g;
  if (c) {
    x += 1;
    omp_set_lock(&lock);
  } else {
    x += 2;
    omp_set_lock(&lock);
  }
  omp_unset_lock(&lock);
}

int main(int argc, char **) {
  omp_init_lock(&lock);
  arms(argc - 1);
  arms(argc);
  omp_destroy_lock(&lock);
  std::printf("x=%d\n", x);
  return 0;
}
// OUT: x=203

// SITES: summary: 5 directives, 5 sites, 0 errors

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NOT: {{warning|corrupt}}
// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 5 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-invokes.cpp:[[@LINE-23]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-invokes.cpp:[[@LINE-22]]:3{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-invokes.cpp:[[@LINE-28]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-invokes.cpp:[[@LINE-24]]:3{{$}}
