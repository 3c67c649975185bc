// C++: a lambda spawning tasks (taskwait syncs them) and a function
// template instantiated twice, each instance with a taskgroup around its tasks.
//
// RUN: %clangxx -fopenmp %s -o %t
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
#include <cstdio>
template <typename T> static T sum(const T *v, int n) {
  T s = 0;
#pragma omp taskgroup
  for (int i = 0; i < n; ++i) {
#pragma omp task shared(s)
    {
#pragma omp atomic
      s += v[i];
    }
  }
  return s;
}
int main() {
  int vi[3] = {1, 2, 3};
  double vd[2] = {0.5, 1.5};
  int r = 0;
  double d = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    auto spawn = [&](int k) {
#pragma omp task shared(r)
      {
#pragma omp atomic
        r += k;
      }
    };
    spawn(1);
    spawn(2);
#pragma omp taskwait
    r += sum(vi, 3);
    d = sum(vd, 2);
  }
  std::printf("done %d\n", r + d > 0);
  return 0;
}

// ---- expected graph (see the comment at the top) ----
// OUT: done 1
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: wrote

// CHECK: # otter canonical graph v1: 23 nodes, 31 edges
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
// CHECK-NEXT:   -> n[[TW1:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TW1]] sync
// CHECK-NEXT: n[[TW1]] taskwait parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGB1:[0-9]+]] scope
// CHECK-NEXT: n[[TGB1]] taskgroup_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T3:[0-9]+]] create
// CHECK-NEXT:   -> n[[T4:[0-9]+]] create
// CHECK-NEXT:   -> n[[T5:[0-9]+]] create
// CHECK-NEXT:   -> n[[TGE1:[0-9]+]] scope
// CHECK-NEXT: n[[T3]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[T4]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[T5]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[TGE1]] taskgroup_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGB2:[0-9]+]] scope
// CHECK-NEXT: n[[TGB2]] taskgroup_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T6:[0-9]+]] create
// CHECK-NEXT:   -> n[[T7:[0-9]+]] create
// CHECK-NEXT:   -> n[[TGE2:[0-9]+]] scope
// CHECK-NEXT: n[[T6]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE2]] sync
// CHECK-NEXT: n[[T7]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE2]] sync
// CHECK-NEXT: n[[TGE2]] taskgroup_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
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
