// Several singles in one parallel region: which member runs each single is
// the schedule's choice, and one member may run all of them. Between two
// barriers the members are interchangeable, so the graph must be the same
// whoever ran what: identical graph.txt over many runs and thread counts.
// (A taskwait in the last single would wait for the nowait single's task
// only when the same thread ran both: that is the program's own schedule
// dependence, so the test uses a taskgroup.)
//
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d*
// RUN: %otter-run OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.d1 %t
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d3 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d4 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d5 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d6 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d7 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d8 %t
// RUN: diff %t.d1/graph.txt %t.d2/graph.txt
// RUN: diff %t.d1/graph.txt %t.d3/graph.txt
// RUN: diff %t.d1/graph.txt %t.d4/graph.txt
// RUN: diff %t.d1/graph.txt %t.d5/graph.txt
// RUN: diff %t.d1/graph.txt %t.d6/graph.txt
// RUN: diff %t.d1/graph.txt %t.d7/graph.txt
// RUN: diff %t.d1/graph.txt %t.d8/graph.txt
// RUN: FileCheck %s < %t.d1/graph.txt
// RUN: %check-rebuild %t.d1
#include <stdio.h>
#include <unistd.h>

static int work(int n) {
  volatile int s = 0;
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp single
    {
#pragma omp task
      work(1000);
#pragma omp task
      work(1000);
    }
#pragma omp single nowait
    {
      usleep(1000);
#pragma omp task
      work(10);
    }
#pragma omp single
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp task
        work(10);
      }
    }
#pragma omp masked
    x++;
  }
  printf("x=%d\n", x);
  return 0;
}

// Three members, three singles: every single_begin/single_end pair stays on
// one implicit task, and the executor's tasks hang off it.
// CHECK: # otter canonical graph v1: 36 nodes, 46 edges
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
// CHECK-NEXT:   -> n[[T1:[0-9]+]] create
// CHECK-NEXT:   -> n[[T2:[0-9]+]] create
// CHECK-NEXT:   -> n[[IB1:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[T2]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] sync
// CHECK-NEXT: n[[SB2]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[SB3]] single_begin parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB1]] scope
// CHECK-NEXT: n[[IB1]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE1:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE2:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE3:[0-9]+]] scope
// CHECK-NEXT: n[[SE1]] single_end parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[SB4:[0-9]+]] scope
// CHECK-NEXT: n[[SE2]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB5:[0-9]+]] scope
// CHECK-NEXT: n[[SE3]] single_end parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB6:[0-9]+]] scope
// CHECK-NEXT: n[[SB4]] single_begin parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[T3:[0-9]+]] create
// CHECK-NEXT:   -> n[[SE4:[0-9]+]] scope
// CHECK-NEXT: n[[T3]] task parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2:[0-9]+]] sync
// CHECK-NEXT: n[[SE4]] single_end parent=n[[IT1]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[SB7:[0-9]+]] scope
// CHECK-NEXT: n[[SB5]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE5:[0-9]+]] scope
// CHECK-NEXT: n[[SE5]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB8:[0-9]+]] scope
// CHECK-NEXT: n[[SB6]] single_begin parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE6:[0-9]+]] scope
// CHECK-NEXT: n[[SE6]] single_end parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SB9:[0-9]+]] scope
// CHECK-NEXT: n[[SB7]] single_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[SB8]] single_begin parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[SB9]] single_begin parent=n[[IT3]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[TGB1:[0-9]+]] scope
// CHECK-NEXT: n[[TGB1]] taskgroup_begin parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T4:[0-9]+]] create
// CHECK-NEXT:   -> n[[TGE1:[0-9]+]] scope
// CHECK-NEXT: n[[T4]] task parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[T5:[0-9]+]] create
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[T5]] task parent=n[[T4]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[TGE1]] sync
// CHECK-NEXT: n[[TGE1]] taskgroup_end parent=n[[IT3]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB2]] scope
// CHECK-NEXT: n[[IB2]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[SE7:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE8:[0-9]+]] scope
// CHECK-NEXT:   -> n[[SE9:[0-9]+]] scope
// CHECK-NEXT: n[[SE7]] single_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[MB1:[0-9]+]] scope
// CHECK-NEXT: n[[SE8]] single_end parent=n[[IT2]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3:[0-9]+]] scope
// CHECK-NEXT: n[[SE9]] single_end parent=n[[IT3]] at={{.*}} flags=executor
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[MB1]] masked_begin parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[ME1:[0-9]+]] scope
// CHECK-NEXT: n[[ME1]] masked_end parent=n[[IT1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[IB3]] scope
// CHECK-NEXT: n[[IB3]] barrier_implicit parent=n[[PB1]] at={{[^ ]*}}{{$}}
// CHECK-NEXT:   -> n[[PE1:[0-9]+]] scope
// CHECK-NEXT: n[[PE1]] parallel_end parent=n0 at={{[^ ]*}}{{$}}
