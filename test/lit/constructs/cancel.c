// cancel: without OMP_CANCELLATION the directives do nothing. With it, a
// task cancels its taskgroup (cancel node in the task, flags=taskgroup) and
// every member cancels the parallel region (libomp then runs its cancellation
// barriers, reported as two extra implicit barriers).
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
// RUN: rm -rf %t.cancel1 %t.cancel2
// RUN: %otter-run OMP_CANCELLATION=true OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.cancel1 %t
// RUN: %otter-run OMP_CANCELLATION=true OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.cancel2 %t
// RUN: diff %t.cancel1/graph.txt %t.cancel2/graph.txt
// RUN: FileCheck --check-prefix=CANCEL %s < %t.cancel1/graph.txt
#include <stdio.h>
int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp cancel taskgroup
      }
    }
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp cancel parallel
  }
  printf("x=%d\n", x);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: x=0
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 19 nodes, 22 edges
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
// CHECK-NEXT:   -> n[[TGB1:[0-9]+]] scope
// CHECK-NEXT: n[[TGB1]] taskgroup_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[TGE1:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[TGE1]] taskgroup_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
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
// CHECK-NEXT:   -> n[[PB2:[0-9]+]] scope
// CHECK-NEXT: n[[PB2]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT3:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT4:[0-9]+]] scope
// CHECK-NEXT: n[[IT3]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[IT4]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE2:[0-9]+]] scope
// CHECK-NEXT: n[[PE2]] parallel_end parent=n0 at={{[^ ]*}}{{$}}

// CANCEL: # otter canonical graph v1: 24 nodes, 27 edges
// CANCEL-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[PB1:[0-9]+]] scope
// CANCEL-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IT1:[0-9]+]] scope
// CANCEL-NEXT:   -> n[[IT2:[0-9]+]] scope
// CANCEL-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[SB1:[0-9]+]] scope
// CANCEL-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[SB2:[0-9]+]] scope
// CANCEL-NEXT: n[[SB1]] single_begin parent=n[[IT1]] at={{.*}} flags=executor
// CANCEL-NEXT:   -> n[[TGB1:[0-9]+]] scope
// CANCEL-NEXT: n[[TGB1]] taskgroup_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[T1:[0-9]+]] create
// CANCEL-NEXT:   -> n[[TGE1:[0-9]+]] scope
// CANCEL-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[CN1:[0-9]+]] scope
// CANCEL-NEXT: n[[CN1]] cancel parent=n[[T1]] at={{.*}} flags=taskgroup
// CANCEL-NEXT:   -> n[[TGE1]] sync
// CANCEL-NEXT: n[[TGE1]] taskgroup_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IB1:[0-9]+]] scope
// CANCEL-NEXT: n[[SB2]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IB1]] scope
// CANCEL-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[SE1:[0-9]+]] scope
// CANCEL-NEXT:   -> n[[SE2:[0-9]+]] scope
// CANCEL-NEXT: n[[SE1]] single_end parent=n[[IT1]] at={{.*}} flags=executor
// CANCEL-NEXT:   -> n[[IB2:[0-9]+]] scope
// CANCEL-NEXT: n[[SE2]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IB2]] scope
// CANCEL-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[PE1:[0-9]+]] scope
// CANCEL-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[PB2:[0-9]+]] scope
// CANCEL-NEXT: n[[PB2]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IT3:[0-9]+]] scope
// CANCEL-NEXT:   -> n[[IT4:[0-9]+]] scope
// CANCEL-NEXT: n[[IT3]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[CN2:[0-9]+]] scope
// CANCEL-NEXT: n[[IT4]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[CN3:[0-9]+]] scope
// CANCEL-NEXT: n[[CN2]] cancel parent=n[[IT3]] at={{.*}} flags=parallel
// CANCEL-NEXT:   -> n[[IB3:[0-9]+]] scope
// CANCEL-NEXT: n[[CN3]] cancel parent=n[[IT4]] at={{.*}} flags=parallel
// CANCEL-NEXT:   -> n[[IB3]] scope
// CANCEL-NEXT: n[[IB3]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IB4:[0-9]+]] scope
// CANCEL-NEXT: n[[IB4]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[IB5:[0-9]+]] scope
// CANCEL-NEXT: n[[IB5]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CANCEL-NEXT:   -> n[[PE2:[0-9]+]] scope
// CANCEL-NEXT: n[[PE2]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
