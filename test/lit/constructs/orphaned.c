// Orphaned constructs in a function, called outside any parallel region
// (loop, single and barrier bind to the initial task: their barriers have
// parent = initial_task) and inside a region of 2.
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
static int a[8];
static void work(void) {
#pragma omp for
  for (int i = 0; i < 8; i++)
    a[i] += 1;
#pragma omp single
  {
#pragma omp task
    a[0] += 10;
  }
#pragma omp barrier
}
int main(void) {
  // Outside any parallel region: the loop binds to the initial task's team.
  work();
#pragma omp parallel num_threads(2)
  work();
  printf("%d %d\n", a[0], a[7]);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: 22 2
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 26 nodes, 30 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB1:[0-9]+]] scope
// CHECK-NEXT: n[[LB1]] loop_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE1:[0-9]+]] scope
// CHECK-NEXT: n[[LE1]] loop_end parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB1:[0-9]+]] scope
// CHECK-NEXT: n[[SB1]] single_begin parent=n0 at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n0 at={{.*}} flags=undeferred|included{{$}}
// CHECK-NEXT:   -> n[[IB2]] sync
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE1:[0-9]+]] scope
// CHECK-NEXT: n[[SE1]] single_end parent=n0 at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[B1:[0-9]+]] scope
// CHECK-NEXT: n[[B1]] barrier parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB2:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB3:[0-9]+]] scope
// CHECK-NEXT: n[[LB2]] loop_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[LB3]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[LE3:[0-9]+]] scope
// CHECK-NEXT: n[[LE2]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB2:[0-9]+]] scope
// CHECK-NEXT: n[[LE3]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB3:[0-9]+]] scope
// CHECK-NEXT: n[[SB2]] single_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB4:[0-9]+]] scope
// CHECK-NEXT: n[[SB3]] single_begin parent=n[[IT2]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[T2:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB4]] scope
// CHECK-NEXT: n[[T2]] task parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB4]] sync
// CHECK-NEXT: n[[IB4]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE3:[0-9]+]] scope
// CHECK-NEXT: n[[SE2]] single_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B2:[0-9]+]] scope
// CHECK-NEXT: n[[SE3]] single_end parent=n[[IT2]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[B2]] scope
// CHECK-NEXT: n[[B2]] barrier parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB5:[0-9]+]] scope
// CHECK-NEXT: n[[IB5]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
