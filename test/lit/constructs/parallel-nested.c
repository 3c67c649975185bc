// Nested parallel: each of the 2 outer implicit tasks encounters an inner
// region of 2 (parallel_begin/end parent = that implicit task; inner implicit
// tasks and inner barrier parent = the inner parallel_begin). With
// OMP_MAX_ACTIVE_LEVELS=1 the inner teams are serialized (one implicit task
// each); libomp reports no end barrier for them but the graph still has it.
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
// RUN: rm -rf %t.serial1 %t.serial2
// RUN: %otter-run OMP_MAX_ACTIVE_LEVELS=1 OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.serial1 %t
// RUN: %otter-run OMP_MAX_ACTIVE_LEVELS=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.serial2 %t
// RUN: diff %t.serial1/graph.txt %t.serial2/graph.txt
// RUN: FileCheck --check-prefix=SERIAL %s < %t.serial1/graph.txt
#include <stdio.h>
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      n++;
    }
  }
  printf("n=%d\n", n);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: n=2
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 14 nodes, 14 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB2:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB3:[0-9]+]] scope
// CHECK-NEXT: n[[PB2]] parallel_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT3:[0-9]+]] scope
// CHECK-NEXT: n[[IT3]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] scope
// CHECK-NEXT: n[[PB3]] parallel_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT4:[0-9]+]] scope
// CHECK-NEXT: n[[IT4]] implicit_task parent=n[[PB3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE2:[0-9]+]] scope
// CHECK-NEXT: n[[PE2]] parallel_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE3:[0-9]+]] scope
// CHECK-NEXT: n[[PE3]] parallel_end parent=n0 at={{[^ ]*}}{{$}}

// SERIAL: # otter canonical graph v1: 14 nodes, 14 edges
// SERIAL-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PB1:[0-9]+]] scope
// SERIAL-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IT1:[0-9]+]] scope
// SERIAL-NEXT:   -> n[[IT2:[0-9]+]] scope
// SERIAL-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PB2:[0-9]+]] scope
// SERIAL-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PB3:[0-9]+]] scope
// SERIAL-NEXT: n[[PB2]] parallel_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IT3:[0-9]+]] scope
// SERIAL-NEXT: n[[IT3]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IB1:[0-9]+]] scope
// SERIAL-NEXT: n[[IB1]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PE1:[0-9]+]] scope
// SERIAL-NEXT: n[[PE1]] parallel_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IB2:[0-9]+]] scope
// SERIAL-NEXT: n[[PB3]] parallel_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IT4:[0-9]+]] scope
// SERIAL-NEXT: n[[IT4]] implicit_task parent=n[[PB3]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IB3:[0-9]+]] scope
// SERIAL-NEXT: n[[IB3]] barrier_implicit parent=n[[PB3]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PE2:[0-9]+]] scope
// SERIAL-NEXT: n[[PE2]] parallel_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[IB2]] scope
// SERIAL-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// SERIAL-NEXT:   -> n[[PE3:[0-9]+]] scope
// SERIAL-NEXT: n[[PE3]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
