// clang's OpenMPIRBuilder code generation (-fopenmp-enable-irbuilder) writes
// ident_t from the call's debug location alone: the plugin turns line tables
// on for it (and strips them again), so that -O0 builds label every call
// exactly instead of failing.
//
// REQUIRES: plugin
// RUN: %otter-cc -O0 -fopenmp-enable-irbuilder %s -o %t 2> %t.cc
// RUN: not grep otter: %t.cc
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-graph %t.d/graph.txt
#include <stdio.h>
int main(void) {
  int n = 0;
  // CHECK: parallel_begin parent=n0 at={{.*}}irbuilder.c:[[@LINE+1]]:1
#pragma omp parallel num_threads(2)
  {
    // CHECK: critical_begin {{.*}}irbuilder.c:[[@LINE+1]]:1
#pragma omp critical
    n += 1;
    // CHECK: barrier {{.*}}irbuilder.c:[[@LINE+1]]:1
#pragma omp barrier
  }
  printf("%d\n", n);
  return 0;
}
// OUT: 2
