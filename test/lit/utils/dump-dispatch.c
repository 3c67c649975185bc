// What otter dump shows of loop chunks, sections, taskloop and distribute
// chunks (ompt_callback_dispatch), flush and reduction, as libomp 19
// delivers them (runtime/ompt/tool.cpp): a static loop gives each thread one
// chunk (a team of one: none), a dynamic loop a chunk per dispatch (which
// thread gets which is timing: checked as a set), a section the sections
// construct (not which section), a deferred taskloop task its chunk as it
// starts (a task run as it is created, as in a team of one: none); a
// reduction is a sync region of kind reduction, reported when libomp
// combines by critical section or in a team of one, not by atomic updates
// (its default for two threads). None of them changes the graph.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter dump --no-time %t.d | FileCheck %s
// RUN: otter dump --no-time --kind dispatch %t.d | grep -o '[a-z_]*chunk start=[0-9]* iterations=[0-9]*' | sort | FileCheck %s --check-prefix=CHUNKS
// RUN: otter dump --no-time --kind task_schedule,dispatch %t.d | FileCheck %s --check-prefix=TASKLOOP
// RUN: otter dump --no-time --kind sync_begin %t.d | grep -c kind=reduction | FileCheck %s --check-prefix=ATOMIC
// RUN: rm -rf %t.c.d && %otter-run OTTER_OUTPUT_DIR=%t.c.d KMP_FORCE_REDUCTION=critical %t
// RUN: otter dump --no-time --kind sync_begin %t.c.d | grep -c kind=reduction | FileCheck %s --check-prefix=CRITICAL
// RUN: %check-rebuild %t.d
// RUN: %check-rebuild %t.c.d
#include <stdio.h>

int main(void) {
  int s = 0, a = 0, b = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 8; i++)
      ;
#pragma omp sections
    {
#pragma omp section
      a = 1;
#pragma omp section
      b = 1;
    }
#pragma omp flush
  }
#pragma omp parallel for schedule(dynamic, 3) num_threads(2)
  for (int i = 0; i < 7; i++)
    ;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(2)
  for (int i = 0; i < 6; i++)
    ;
#pragma omp parallel for reduction(+ : s) num_threads(1)
  for (int i = 0; i < 4; i++)
    s += i;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < 4; i++)
    s += i;
#pragma omp teams distribute num_teams(2)
  for (int i = 0; i < 4; i++)
    ;
  printf("%d %d %d\n", s, a, b);
  return 0;
}

// CHECK-LABEL: thread 0
// CHECK:      implicit_task_begin task=[[I0:[0-9]+]] parallel=[[PAR:[0-9]+]] team_size=2 index=0 flags=implicit
// CHECK-NEXT: work_begin task=[[I0]] kind=loop_static count=8 code={{.*}}dump-dispatch.c:[[@LINE-35]]:1
// CHECK-NEXT: dispatch task=[[I0]] kind=ws_loop_chunk start=0 iterations=4 code=-
// CHECK-NEXT: work_end task=[[I0]] kind=loop_static
// CHECK:      work_begin task=[[I0]] kind=sections count=2 code={{.*}}dump-dispatch.c:[[SECTIONS:[0-9]+]]:1
// CHECK-NEXT: dispatch task=[[I0]] kind=section start=0 iterations=0 code={{.*}}dump-dispatch.c:[[SECTIONS]]:1
// CHECK-NEXT: work_end task=[[I0]] kind=sections
// CHECK:      flush task=[[I0]] code={{.*}}dump-dispatch.c:[[@LINE-31]]:1
// A reduction alone: after the loop's end, without a code address (and a
// static loop in a team of one reports no chunk).
// CHECK:      work_begin task=[[ALONE:[0-9]+]] kind=loop_static count=4 code={{.*}}dump-dispatch.c:[[@LINE-24]]:1
// CHECK-NEXT: work_end task=[[ALONE]] kind=loop_static
// CHECK-NEXT: sync_begin task=[[ALONE]] parallel={{[0-9]+}} kind=reduction code=-
// CHECK-NEXT: sync_end task=[[ALONE]] parallel={{[0-9]+}} kind=reduction code=-
// CHECK-LABEL: thread 1
// CHECK:      implicit_task_begin task=[[I1:[0-9]+]] parallel=[[PAR]] team_size=2 index=1 flags=implicit
// CHECK-NEXT: work_begin task=[[I1]] kind=loop_static count=8
// CHECK-NEXT: dispatch task=[[I1]] kind=ws_loop_chunk start=4 iterations=4 code=-
// CHECK:      dispatch task=[[I1]] kind=section start=0 iterations=0 code={{.*}}dump-dispatch.c:[[SECTIONS]]:1
// CHECK:      flush task=[[I1]] code={{.*}}dump-dispatch.c:[[@LINE-43]]:1

// A taskloop task's chunk, in the task, as it starts (on either thread).
// TASKLOOP:      task_schedule prior={{[0-9]+}} status=switch next=[[T:[0-9]+]]
// TASKLOOP-NEXT: dispatch task=[[T]] kind=taskloop_chunk start={{[024]}} iterations=2 code=-
// TASKLOOP-NEXT: task_schedule prior=[[T]] status=complete

// CHUNKS:      distribute_chunk start=0 iterations=2
// CHUNKS-NEXT: distribute_chunk start=2 iterations=2
// CHUNKS-NEXT: taskloop_chunk start=0 iterations=2
// CHUNKS-NEXT: taskloop_chunk start=2 iterations=2
// CHUNKS-NEXT: taskloop_chunk start=4 iterations=2
// CHUNKS-NEXT: ws_loop_chunk start=0 iterations=2
// CHUNKS-NEXT: ws_loop_chunk start=0 iterations=3
// CHUNKS-NEXT: ws_loop_chunk start=0 iterations=4
// CHUNKS-NEXT: ws_loop_chunk start=2 iterations=2
// CHUNKS-NEXT: ws_loop_chunk start=3 iterations=3
// CHUNKS-NEXT: ws_loop_chunk start=4 iterations=4
// CHUNKS-NEXT: ws_loop_chunk start=6 iterations=1
// CHUNKS-NOT:  {{.}}

// Reductions: the one alone; with two threads, none by atomic updates, one
// per thread by critical section.
// ATOMIC: {{^1$}}
// CRITICAL: {{^3$}}
