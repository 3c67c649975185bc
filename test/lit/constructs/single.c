// single and single nowait on 3 threads: a single_begin/end pair on every
// thread, flags=executor on the one that ran it (canonical order puts it in the
// same place whichever thread it was); a barrier only for the single without
// nowait. Each single is in its own region (see below).
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
  // One single per region: with two, whether the same member executes both
  // depends on the schedule, and the builder cannot yet canonicalise that
  // (see the report in the commit message).
#pragma omp parallel num_threads(3)
  {
#pragma omp single
    x++;
  }
#pragma omp parallel num_threads(3)
  {
#pragma omp single nowait
    x++;
  }
  printf("x=%d\n", x);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: x=2
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 26 nodes, 31 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT3:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB1:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB2:[0-9]+]] scope
// CHECK-NEXT: n[[IT3]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB3:[0-9]+]] scope
// CHECK-NEXT: n[[SB1]] single_begin parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[SB2]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[SB3]] single_begin parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE3:[0-9]+]] scope
// CHECK-NEXT: n[[SE1]] single_end parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] scope
// CHECK-NEXT: n[[SE2]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[SE3]] single_end parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB2:[0-9]+]] scope
// CHECK-NEXT: n[[PB2]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT4:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT5:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT6:[0-9]+]] scope
// CHECK-NEXT: n[[IT4]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB4:[0-9]+]] scope
// CHECK-NEXT: n[[IT5]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB5:[0-9]+]] scope
// CHECK-NEXT: n[[IT6]] implicit_task parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB6:[0-9]+]] scope
// CHECK-NEXT: n[[SB4]] single_begin parent=n[[IT4]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE4:[0-9]+]] scope
// CHECK-NEXT: n[[SE4]] single_end parent=n[[IT4]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[SB5]] single_begin parent=n[[IT5]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE5:[0-9]+]] scope
// CHECK-NEXT: n[[SE5]] single_end parent=n[[IT5]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[SB6]] single_begin parent=n[[IT6]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[SE6:[0-9]+]] scope
// CHECK-NEXT: n[[SE6]] single_end parent=n[[IT6]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE2:[0-9]+]] scope
// CHECK-NEXT: n[[PE2]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
