// ordered in a parallel for: ordered_begin/end pairs inside each thread's
// loop (static,1: 2 iterations per thread).
//
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d1 %t.d2 %t.d4 %t.dr
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.d1 %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d4 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.dr %t
// RUN: diff %t.d1/graph.txt %t.d2/graph.txt
// RUN: diff %t.d1/graph.txt %t.d4/graph.txt
// RUN: diff %t.d1/graph.txt %t.dr/graph.txt
// RUN: FileCheck %s < %t.d1/graph.txt
// RUN: %check-rebuild %t.d1
#include <stdio.h>
int main(void) {
  int last = -1, ok = 1;
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
  for (int i = 0; i < 4; i++) {
#pragma omp ordered
    {
      ok &= last == i - 1;
      last = i;
    }
  }
  printf("ok=%d\n", ok);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: ok=1
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 18 nodes, 18 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB1:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB2:[0-9]+]] scope
// CHECK-NEXT: n[[LB1]] loop_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OB1:[0-9]+]] scope
// CHECK-NEXT: n[[OB1]] ordered_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OE1:[0-9]+]] scope
// CHECK-NEXT: n[[OE1]] ordered_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OB2:[0-9]+]] scope
// CHECK-NEXT: n[[OB2]] ordered_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OE2:[0-9]+]] scope
// CHECK-NEXT: n[[OE2]] ordered_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE1:[0-9]+]] scope
// CHECK-NEXT: n[[LE1]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[LB2]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OB3:[0-9]+]] scope
// CHECK-NEXT: n[[OB3]] ordered_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OE3:[0-9]+]] scope
// CHECK-NEXT: n[[OE3]] ordered_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OB4:[0-9]+]] scope
// CHECK-NEXT: n[[OB4]] ordered_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[OE4:[0-9]+]] scope
// CHECK-NEXT: n[[OE4]] ordered_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE2:[0-9]+]] scope
// CHECK-NEXT: n[[LE2]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
