// Worksharing loops (static, dynamic, guided nowait): a loop_begin/loop_end
// pair on each thread; the loop's implicit barrier is one team node inside the
// construct (between begin and end on every strand); the nowait loop has none
// and its ends join the region's barrier.
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
  int a[16] = {0};
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 16; i++)
      a[i] += 1;
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 16; i++)
      a[i] += 2;
#pragma omp for schedule(guided) nowait
    for (int i = 0; i < 16; i++)
      a[i] += 4;
  }
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += a[i];
  printf("s=%d\n", s);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: s=112
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 20 nodes, 22 edges
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
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[LB2]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[LE2:[0-9]+]] scope
// CHECK-NEXT: n[[LE1]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB3:[0-9]+]] scope
// CHECK-NEXT: n[[LE2]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB4:[0-9]+]] scope
// CHECK-NEXT: n[[LB3]] loop_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] scope
// CHECK-NEXT: n[[LB4]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE3:[0-9]+]] scope
// CHECK-NEXT:   -> n[[LE4:[0-9]+]] scope
// CHECK-NEXT: n[[LE3]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB5:[0-9]+]] scope
// CHECK-NEXT: n[[LE4]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LB6:[0-9]+]] scope
// CHECK-NEXT: n[[LB5]] loop_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE5:[0-9]+]] scope
// CHECK-NEXT: n[[LE5]] loop_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[LB6]] loop_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LE6:[0-9]+]] scope
// CHECK-NEXT: n[[LE6]] loop_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
