// Labels: single copyprivate. libomp runs the broadcast's two barriers inside
// __kmpc_copyprivate and reports them with that call's return address, so
// the plugin brackets the call like any other: both barriers carry the
// single's exact line (they were approximate, libomp offsets, when the call
// was left unbracketed).
//
// REQUIRES: plugin
// RUN: rm -rf %t.d0 %t.d2
// RUN: %otter-cc -O0 %s -o %t0 2>%t.cc0
// RUN: %otter-cc -O2 %s -o %t2 2>%t.cc2
// RUN: not grep otter: %t.cc0 %t.cc2
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d0 %t0 2>%t.err0 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t2 2>%t.err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err2
// RUN: FileCheck --check-prefix=CSV %s < %t.d0/nodes.csv
// RUN: FileCheck --check-prefix=CSV %s < %t.d2/nodes.csv
// RUN: %check-rebuild %t.d2
#include <stdio.h>
int main(void) {
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
    int v = 0;
#pragma omp single copyprivate(v)
    v = 21;
    sum += v;
  }
  printf("sum=%d\n", sum);
  return 0;
}
// OUT: sum=42

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved

// The single's two broadcast barriers, then the region's own.
// CSV-NOT: {{approximate|unknown}}
// CSV:     ,barrier_implicit,{{[0-9]+}},,{{[^,]*}}/copyprivate.c,[[@LINE-14]],1,main,{{[^,]+}},,single,{{[^,]+}},exact,,,{{$}}
// CSV-NOT: {{approximate|unknown}}
// CSV:     ,barrier_implicit,{{[0-9]+}},,{{[^,]*}}/copyprivate.c,[[@LINE-16]],1,main,{{[^,]+}},,single,{{[^,]+}},exact,,,{{$}}
// CSV-NOT: {{approximate|unknown}}
// CSV:     ,barrier_implicit,{{[0-9]+}},,{{[^,]*}}/copyprivate.c,[[@LINE-21]],1,main,{{[^,]+}},,parallel,{{[^,]+}},exact,,,{{$}}
// CSV-NOT: {{approximate|unknown}}
