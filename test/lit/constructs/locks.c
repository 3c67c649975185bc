// omp locks and nest locks: lock_begin/end for omp_set_lock and a successful
// omp_test_lock, nest_lock_begin/end for each (re)acquisition/release of a nest
// lock incl. omp_test_nest_lock; a level the owner re-acquires, and its
// release, carry flags=reacquire (the first acquisition and the last release
// do not); the masked region runs on member 0 only.
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
  omp_lock_t l;
  omp_nest_lock_t nl;
  int x = 0, got = 0;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
#pragma omp parallel num_threads(2)
  {
    omp_set_lock(&l);
    x++;
    omp_unset_lock(&l);
    omp_set_nest_lock(&nl);
    omp_set_nest_lock(&nl);
    x++;
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
#pragma omp barrier
#pragma omp masked
    {
      // Nobody else holds the locks here: both tests succeed.
      if (omp_test_lock(&l)) {
        got++;
        omp_unset_lock(&l);
      }
      if (omp_test_nest_lock(&nl)) {
        got++;
        omp_unset_nest_lock(&nl);
      }
    }
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  printf("x=%d got=%d\n", x, got);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: x=4 got=2
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 25 nodes, 26 edges
// CHECK-NEXT: n0 initial_task parent=- at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PB1:[0-9]+]] scope
// CHECK-NEXT: n[[PB1]] parallel_begin parent=n0 at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IT1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IT2:[0-9]+]] scope
// CHECK-NEXT: n[[IT1]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKB1:[0-9]+]] scope
// CHECK-NEXT: n[[IT2]] implicit_task parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKB2:[0-9]+]] scope
// CHECK-NEXT: n[[LKB1]] lock_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKE1:[0-9]+]] scope
// CHECK-NEXT: n[[LKE1]] lock_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLB1:[0-9]+]] scope
// CHECK-NEXT: n[[NLB1]] nest_lock_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLB2:[0-9]+]] scope
// CHECK-NEXT: n[[NLB2]] nest_lock_begin parent=n[[IT1]] at={{[^ ]*}} flags=reacquire{{$}}
// CHECK-NEXT:   -> n[[NLE1:[0-9]+]] scope
// CHECK-NEXT: n[[NLE1]] nest_lock_end parent=n[[IT1]] at={{[^ ]*}} flags=reacquire{{$}}
// CHECK-NEXT:   -> n[[NLE2:[0-9]+]] scope
// CHECK-NEXT: n[[NLE2]] nest_lock_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1:[0-9]+]] scope
// CHECK-NEXT: n[[LKB2]] lock_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKE2:[0-9]+]] scope
// CHECK-NEXT: n[[LKE2]] lock_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLB3:[0-9]+]] scope
// CHECK-NEXT: n[[NLB3]] nest_lock_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLB4:[0-9]+]] scope
// CHECK-NEXT: n[[NLB4]] nest_lock_begin parent=n[[IT2]] at={{[^ ]*}} flags=reacquire{{$}}
// CHECK-NEXT:   -> n[[NLE3:[0-9]+]] scope
// CHECK-NEXT: n[[NLE3]] nest_lock_end parent=n[[IT2]] at={{[^ ]*}} flags=reacquire{{$}}
// CHECK-NEXT:   -> n[[NLE4:[0-9]+]] scope
// CHECK-NEXT: n[[NLE4]] nest_lock_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[B1]] scope
// CHECK-NEXT: n[[B1]] barrier parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[MB1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[MB1]] masked_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKB3:[0-9]+]] scope
// CHECK-NEXT: n[[LKB3]] lock_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[LKE3:[0-9]+]] scope
// CHECK-NEXT: n[[LKE3]] lock_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLB5:[0-9]+]] scope
// CHECK-NEXT: n[[NLB5]] nest_lock_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[NLE5:[0-9]+]] scope
// CHECK-NEXT: n[[NLE5]] nest_lock_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[ME1:[0-9]+]] scope
// CHECK-NEXT: n[[ME1]] masked_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
