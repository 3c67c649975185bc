// untied, if(0) and final tasks: flags on the task nodes (if(0) and the
// child of a final task are undeferred, and included: run at once by the
// thread that creates them). Their creator resumes only when they complete:
// the if(0) task joins what its creator does next (the final task's creation,
// the taskwait); the final task's included child completes before the final
// task does, so the taskwait that waits for the final task waits for it.
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
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task untied
    x++;
#pragma omp task if (0)
    x++;
#pragma omp task final(1)
    {
#pragma omp task
      x++;
    }
#pragma omp taskwait
  }
  printf("x=%d\n", x);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: x=3
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 16 nodes, 22 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB1:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB2:[0-9]+]] scope
// CHECK-NEXT: n[[SB1]] single_begin parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[T2:[0-9]+]] create
// CHECK-NEXT:   -> n[[T3:[0-9]+]] create
// CHECK-NEXT:   -> n[[TW1:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{.*}} flags=untied
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT1]] at={{.*}} flags=undeferred|included{{$}}
// CHECK-NEXT:   -> n[[T3]] sync
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[T3]] task parent=n[[IT1]] at={{.*}} flags=final
// CHECK-NEXT:   -> n[[T4:[0-9]+]] create
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[T4]] task parent=n[[T3]] at={{.*}} flags=undeferred|final|included{{$}}
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[TW1]] taskwait parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[SB2]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE2:[0-9]+]] scope
// CHECK-NEXT: n[[SE1]] single_end parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] scope
// CHECK-NEXT: n[[SE2]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
