// Tasks with a detach clause: an if(0) task whose event is fulfilled after
// its body ended reports switch, detach, then late_fulfill (its last
// report); deferred ones are fulfilled early or late. Every task record goes
// back to a free list at its last report: none is still in use at the end
// (the late-fulfilled ones were never freed: 3000 of them here).
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: sh -c 'rm -rf %t.d && %otter-run OTTER_VERBOSE=1 OTTER_OUTPUT_DIR=%t.d %t > %t.traced 2> %t.err; echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck %s < %t.err
// RUN: otter dump --no-time --kind task_schedule %t.d | FileCheck --check-prefix=DUMP %s
// RUN: %check-rebuild %t.d
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 3000; ++i) {
      omp_event_handle_t ev;
#pragma omp task detach(ev) if (0)
      {
#pragma omp atomic
        n++;
      }
      omp_fulfill_event(ev);
    }
    omp_event_handle_t evs[8];
    for (int i = 0; i < 8; ++i) {
      omp_event_handle_t ev;
#pragma omp task detach(ev)
      {
#pragma omp atomic
        n++;
      }
      evs[i] = ev;
    }
    for (int i = 0; i < 8; ++i)
      omp_fulfill_event(evs[i]);
#pragma omp taskwait
  }
  printf("n=%d\n", n);
  return 0;
}

// CHECK: otter: wrote {{.*}}: 2 threads, 1 parallel regions, 3008 tasks
// CHECK: otter: task records: {{[0-9]+}} made, 0 still in use at the end

// DUMP: task_schedule prior=[[C:[0-9]+]] status=switch next=[[T:[0-9]+]]
// DUMP-NEXT: task_schedule prior=[[T]] status=detach next=[[C]]
// DUMP-NEXT: task_schedule prior=[[T]] status=late_fulfill next=0
