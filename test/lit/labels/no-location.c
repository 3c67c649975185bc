// A runtime call with no source location at all (here a GNU line marker
// saying line 0; clang then writes ";unknown;" into its ident_t) must not
// fail the build: the plugin warns once and leaves the call unlabelled, so
// its events get the approximate label of an uninstrumented call. The
// other calls keep their exact labels.
//
// REQUIRES: plugin
// RUN: %otter-cc -O0 %s -o %t 2> %t.cc
// RUN: FileCheck --check-prefix=CC %s < %t.cc
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-graph %t.d/graph.txt
#include <stdio.h>
int main(void) {
  int n = 0;
# 0 "nowhere.c"
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
# 20 "no-location.c"
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("%d\n", n);
  return 0;
}
// CC: warning: otter: cannot place the call of '__kmpc_fork_call' in function 'main' {{.*}}labelled approximately
// CC-NOT: otter:
// OUT: 4
// CHECK: parallel_begin parent=n0 at=~
// CHECK: parallel_begin parent=n0 at=no-location.c:20:1
