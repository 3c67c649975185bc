// Tasks created by every thread of a team of 3: each task's parent is its
// implicit task; the explicit barrier syncs the 6 tasks created before it, the
// region's end barrier the 3 created after it.
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
#include <omp.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp task
    {
#pragma omp atomic
      n++;
    }
#pragma omp task
    {
#pragma omp atomic
      n++;
    }
#pragma omp barrier
#pragma omp task
    {
#pragma omp atomic
      n++;
    }
  }
  printf("n=%d\n", n);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: n=9
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 17 nodes, 27 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT3:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[T2:[0-9]+]] create
// CHECK-NEXT:   -> n[[B1:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T3:[0-9]+]] create
// CHECK-NEXT:   -> n[[T4:[0-9]+]] create
// CHECK-NEXT:   -> n[[B1]] scope
// CHECK-NEXT: n[[IT3]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T5:[0-9]+]] create
// CHECK-NEXT:   -> n[[T6:[0-9]+]] create
// CHECK-NEXT:   -> n[[B1]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[T3]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[T4]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[T5]] task parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[T6]] task parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] sync
// CHECK-NEXT: n[[B1]] barrier parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T7:[0-9]+]] create
// CHECK-NEXT:   -> n[[T8:[0-9]+]] create
// CHECK-NEXT:   -> n[[T9:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[T7]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[T8]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[T9]] task parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
