// Included tasks (otter/events.h, TaskIncluded): undeferred tasks, which
// the creating thread runs at once -- an if(0) task, the child of a final
// task, any task of a team of one thread -- carry the flag `included`; a
// deferred task does not. The schedule order says the same: every included
// task's creation is followed, on its thread, by the switch from its
// creator to it. The creator resumes only when an included task completes,
// so the graph joins it back (docs/graph.md): a sync edge from the task to
// what its creator does next -- each task it creates next, up to its next
// construct -- and, when the creator ends right after it (the final task's
// child), to what waits for the creator.
//
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: FileCheck --check-prefix=JOIN %s < %t.d/graph.txt
// RUN: otter dump --no-time --kind task_create,task_schedule %t.d > %t.dump
// RUN: grep -c 'task_create .*|included ' %t.dump | FileCheck --check-prefix=COUNT %s
// RUN: awk -f %S/Inputs/included-at-once.awk %t.dump
// RUN: %check-rebuild %t.d
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp masked
  {
#pragma omp task if (0)
    x += 1;
#pragma omp task final(1)
    {
#pragma omp task
      x += 10;
    }
#pragma omp task
    x += 100;
#pragma omp taskwait
  }
#pragma omp parallel num_threads(1)
  {
#pragma omp task
    x += 1000;
  }
  printf("x=%d\n", x);
  return 0;
}

// OUT: x=1111
// ERR: otter: callbacks, tasks (required): task_create always, task_schedule always
// ERR: otter: wrote {{.*}}: 2 threads, 2 parallel regions, 5 tasks

// Program order, whatever thread runs which task: if(0), final, its child,
// the deferred one, then the team of one's.
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}} flags=undeferred|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}} flags=final{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}} flags=undeferred|final|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}} flags=undeferred|included{{$}}

// COUNT: 3

// The joins: the if(0) task precedes its creator's next two creations and
// the taskwait; the final task's included child completes before the final
// task does, so the taskwait waits for it too; the team of one's task joins
// its implicit task at the barrier.
// JOIN:      {{^}}n[[UND:[0-9]+]] task parent={{[^ ]+}} at={{[^ ]*}} flags=undeferred|included{{$}}
// JOIN-NEXT: {{^}}  -> n[[FIN:[0-9]+]] sync{{$}}
// JOIN-NEXT: {{^}}  -> n[[DEF:[0-9]+]] sync{{$}}
// JOIN-NEXT: {{^}}  -> n[[TW:[0-9]+]] sync{{$}}
// JOIN-NEXT: {{^}}n[[FIN]] task parent={{[^ ]+}} at={{[^ ]*}} flags=final{{$}}
// JOIN-NEXT: {{^}}  -> n{{[0-9]+}} create{{$}}
// JOIN-NEXT: {{^}}  -> n[[TW]] sync{{$}}
// JOIN-NEXT: {{^}}n{{[0-9]+}} task parent=n[[FIN]] at={{[^ ]*}} flags=undeferred|final|included{{$}}
// JOIN-NEXT: {{^}}  -> n[[TW]] sync{{$}}
// JOIN-NEXT: {{^}}n[[DEF]] task parent={{[^ ]+}} at={{[^ ]*}}{{$}}
// JOIN-NEXT: {{^}}  -> n[[TW]] sync{{$}}
// JOIN-NEXT: {{^}}n[[TW]] taskwait
// JOIN:      {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}} flags=undeferred|included{{$}}
// JOIN-NEXT: {{^}}  -> n[[BAR:[0-9]+]] sync{{$}}
// JOIN-NEXT: {{^}}n[[BAR]] barrier_implicit
