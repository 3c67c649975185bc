// otter dump prints the events the runtime recorded for tasks: creation
// with flags and dependences, schedule, taskwait and taskgroup with their
// waits, each thread's events in order (one thread: a deterministic stream).
// Ids are matched by variables, code addresses by their source line.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=1 %t
// RUN: otter dump --no-time %t.d | grep -v thread_cpu | FileCheck %s
// RUN: otter dump --no-time --kind task_create,task_dependence %t.d | FileCheck %s --check-prefix=KIND
// RUN: otter dump %t.d | FileCheck %s --check-prefix=TIME
// RUN: %check-rebuild %t.d
#include <stdio.h>

int main(void) {
  int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : x)
    x = 1;
#pragma omp task depend(in : x) depend(inout : y) untied
    y = x + 1;
#pragma omp taskwait
#pragma omp taskgroup
    {
#pragma omp task final(1)
      x++;
    }
  }
  printf("%d %d\n", x, y);
  return 0;
}

// CHECK:      thread 0
// CHECK-NEXT: thread_begin type=initial
// CHECK-NEXT: implicit_task_begin task=[[INIT:[0-9]+]] parallel=0 team_size=1 index=1 flags=initial
// CHECK-NEXT: parallel_begin task=[[INIT]] parallel=[[PAR:[0-9]+]] requested=1 flags=team code={{.*}}dump-tasks.c:[[@LINE-21]]:1
// CHECK-NEXT: implicit_task_begin task=[[IMPL:[0-9]+]] parallel=[[PAR]] team_size=1 index=0 flags=implicit
// CHECK-NEXT: work_begin task=[[IMPL]] kind=single_executor count=1 code={{.*}}dump-tasks.c:[[@LINE-22]]:1
// libomp reports depend(out) as inout.
// CHECK-NEXT: task_create creator=[[IMPL]] child=[[T1:[0-9]+]] flags=explicit|undeferred|has_dependences|included code={{.*}}dump-tasks.c:[[@LINE-22]]:1
// CHECK-NEXT: task_dependence task=[[T1]] address=[[X:0x[0-9a-f]+]] type=inout
// CHECK-NEXT: task_schedule prior=[[IMPL]] status=switch next=[[T1]]
// CHECK-NEXT: task_schedule prior=[[T1]] status=complete next=[[IMPL]]
// CHECK-NEXT: task_create creator=[[IMPL]] child=[[T2:[0-9]+]] flags=explicit|undeferred|untied|has_dependences|included code={{.*}}dump-tasks.c:[[@LINE-24]]:1
// CHECK-NEXT: task_dependence task=[[T2]] address=[[X]] type=in
// CHECK-NEXT: task_dependence task=[[T2]] address=[[Y:0x[0-9a-f]+]] type=inout
// CHECK:      task_schedule prior=[[T2]] status=complete next=[[IMPL]]
// CHECK-NEXT: sync_begin task=[[IMPL]] parallel=[[PAR]] kind=taskwait code={{.*}}dump-tasks.c:[[@LINE-26]]:1
// CHECK-NEXT: sync_wait_begin task=[[IMPL]] parallel=[[PAR]] kind=taskwait code={{.*}}dump-tasks.c:[[@LINE-27]]:1
// CHECK-NEXT: sync_wait_end task=[[IMPL]] parallel=[[PAR]] kind=taskwait code={{.*}}dump-tasks.c:[[@LINE-28]]:1
// CHECK-NEXT: sync_end task=[[IMPL]] parallel=[[PAR]] kind=taskwait code={{.*}}dump-tasks.c:[[@LINE-29]]:1
// CHECK-NEXT: sync_begin task=[[IMPL]] parallel=[[PAR]] kind=taskgroup code={{.*}}dump-tasks.c:[[@LINE-29]]:1
// CHECK-NEXT: task_create creator=[[IMPL]] child=[[T3:[0-9]+]] flags=explicit|undeferred|final|included code={{.*}}dump-tasks.c:[[@LINE-28]]:1
// CHECK-NEXT: task_schedule prior=[[IMPL]] status=switch next=[[T3]]
// CHECK-NEXT: task_schedule prior=[[T3]] status=complete next=[[IMPL]]
// A taskgroup waits at its end.
// CHECK-NEXT: sync_wait_begin task=[[IMPL]] parallel=[[PAR]] kind=taskgroup code={{.*}}dump-tasks.c:[[@LINE-34]]:1
// CHECK-NEXT: sync_wait_end task=[[IMPL]] parallel=[[PAR]] kind=taskgroup code={{.*}}dump-tasks.c:[[@LINE-35]]:1
// CHECK-NEXT: sync_end task=[[IMPL]] parallel=[[PAR]] kind=taskgroup code={{.*}}dump-tasks.c:[[@LINE-36]]:1
// CHECK-NEXT: work_end task=[[IMPL]] kind=single_executor count=1 code={{.*}}dump-tasks.c:[[@LINE-44]]:1
// CHECK-NEXT: sync_begin task=[[IMPL]] parallel=[[PAR]] kind=barrier_implicit_workshare code={{.*}}dump-tasks.c:[[@LINE-45]]:1
// CHECK:      sync_end task=[[IMPL]] parallel=[[PAR]] kind=barrier_implicit_workshare
// CHECK:      implicit_task_end task=[[IMPL]]
// CHECK-NEXT: parallel_end task=[[INIT]] parallel=[[PAR]] code={{.*}}dump-tasks.c:[[@LINE-49]]:1
// CHECK-NEXT: implicit_task_end task=[[INIT]]
// CHECK-NEXT: thread_end
// CHECK-NOT:  {{.}}

// KIND:      thread 0
// KIND-NEXT: task_create {{.*}}child=[[T1:[0-9]+]]
// KIND-NEXT: task_dependence task=[[T1]]
// KIND-NEXT: task_create {{.*}}child=[[T2:[0-9]+]]
// KIND-NEXT: task_dependence task=[[T2]]
// KIND-NEXT: task_dependence task=[[T2]]
// KIND-NEXT: task_create {{.*}}final{{.*}}
// KIND-NOT:  {{.}}

// With times: ns of CLOCK_MONOTONIC first, never decreasing (not checked
// here: the reader keeps the order recorded).
// TIME:      thread 0
// TIME-NEXT: {{^[0-9]+}} thread_begin type=initial
