// Tasks created inside worksharing loops (static,1, so which implicit task
// creates which task is fixed): the loop's barrier syncs them; tasks from the
// nowait loop are synced by the region's end barrier.
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
  int a[4] = {0};
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i)
      a[i] = i;
    }
#pragma omp for schedule(static, 1) nowait
    for (int i = 0; i < 2; i++) {
#pragma omp task firstprivate(i)
      a[i] += 1;
    }
  }
  printf("%d %d\n", a[0], a[3]);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: 1 3
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 21 nodes, 28 edges
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
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[T2:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[LB2]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T3:[0-9]+]] create
// CHECK-NEXT:   -> n[[T4:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[T3]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[T4]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[LE2:[0-9]+]] scope
// CHECK-NEXT: n[[LE1]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB3:[0-9]+]] scope
// CHECK-NEXT: n[[LE2]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB4:[0-9]+]] scope
// CHECK-NEXT: n[[LB3]] loop_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T5:[0-9]+]] create
// CHECK-NEXT:   -> n[[LE3:[0-9]+]] scope
// CHECK-NEXT: n[[T5]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] sync
// CHECK-NEXT: n[[LE3]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[LB4]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T6:[0-9]+]] create
// CHECK-NEXT:   -> n[[LE4:[0-9]+]] scope
// CHECK-NEXT: n[[T6]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] sync
// CHECK-NEXT: n[[LE4]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
