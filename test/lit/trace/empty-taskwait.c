// An empty taskwait (its task's children done when it waits: on one thread,
// included tasks) is recorded as one buffer slot for its four events
// (SyncEndFolded, otter/events.h), which takes the task's sequence numbers
// as the four events would have: the archive's events carry the numbers the
// writer predicts, so no event but the join (the initial task's first event
// after the team) needs its sequence number as an attribute. A folded end
// that did not advance the task's sequence would put one on each event
// after a taskwait. (The thread_cpu samples, otter:event parameters of no
// task, carry theirs and are not counted.)
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=1 %t
// RUN: otf2-print -L 0 %t.d/trace/traces.otf2 2>&1 | grep '"otter:seq"' | grep -vc '"otter:event"' | FileCheck --check-prefix=SEQ %s
// RUN: otter dump --no-time %t.d | FileCheck %s
// RUN: %check-rebuild %t.d
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
  {
    for (int i = 0; i < 3; ++i) {
#pragma omp task
      x++;
#pragma omp taskwait
#pragma omp taskwait
    }
  }
  printf("x=%d\n", x);
  return 0;
}

// SEQ: {{^}}1{{$}}

// CHECK:      task_schedule prior={{[0-9]+}} status=complete
// CHECK-NEXT: sync_begin {{.*}}kind=taskwait
// CHECK-NEXT: sync_wait_begin {{.*}}kind=taskwait
// CHECK-NEXT: sync_wait_end {{.*}}kind=taskwait
// CHECK-NEXT: sync_end {{.*}}kind=taskwait
// CHECK-NEXT: sync_begin {{.*}}kind=taskwait
// CHECK-NEXT: sync_wait_begin {{.*}}kind=taskwait
// CHECK-NEXT: sync_wait_end {{.*}}kind=taskwait
// CHECK-NEXT: sync_end {{.*}}kind=taskwait
// CHECK-NEXT: task_create
