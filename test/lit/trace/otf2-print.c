// The OTF2 trace of a small program as otf2-print sees it: one location per
// thread, regions per source construct with file:line (exact, plugin
// labels), and the events of the encountering thread in order.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t
// RUN: otf2-print -G %t.d/trace/traces.otf2 2>&1 | FileCheck --check-prefix=DEFS --implicit-check-not=warning %s
// RUN: otf2-print -L 0 %t.d/trace/traces.otf2 2>&1 | FileCheck --check-prefix=EVT --implicit-check-not=warning %s
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    x++;
#pragma omp task
    x++;
#pragma omp taskwait
  }
  printf("x=%d\n", x);
  return 0;
}

// DEFS: CLOCK_PROPERTIES {{.*}}Ticks per Seconds: 1000000000
// DEFS-DAG: LOCATION {{.*}}Name: "OpenMP thread 0" {{.*}}Type: CPU_THREAD
// DEFS-DAG: LOCATION {{.*}}Name: "OpenMP thread 1" {{.*}}Type: CPU_THREAD
// DEFS-DAG: LOCATION_GROUP {{.*}}Name: "process {{[0-9]+}}"{{.*}}Type: PROCESS
// DEFS-DAG: REGION {{.*}}Name: "parallel @ {{.*}}otf2-print.c:[[@LINE-17]]" {{.*}}Role: PARALLEL, Paradigm: "OpenMP"{{.*}}File: "{{.*}}otf2-print.c" {{.*}}Begin: [[@LINE-17]]
// DEFS-DAG: REGION {{.*}}Name: "single @ {{.*}}otf2-print.c:[[@LINE-17]]" {{.*}}Role: SINGLE
// DEFS-DAG: REGION {{.*}}Name: "task @ {{.*}}otf2-print.c:[[@LINE-16]]" {{.*}}Role: TASK
// DEFS-DAG: REGION {{.*}}Name: "task @ {{.*}}otf2-print.c:[[@LINE-15]]" {{.*}}Role: TASK
// DEFS-DAG: REGION {{.*}}Name: "taskwait @ {{.*}}otf2-print.c:[[@LINE-14]]" {{.*}}Role: TASK_WAIT
// DEFS-DAG: ATTRIBUTE {{.*}}Name: "otter:task"
// DEFS-DAG: CALLING_CONTEXT_PROPERTY {{.*}}Name: "otter:code"

// EVT: ENTER {{.*}}Region: "initial thread"
// EVT: ENTER {{.*}}Region: "initial task"
// EVT: THREAD_FORK {{.*}}Model: "OpenMP"{{.*}}Requested Threads: 2
// EVT: ENTER {{.*}}Region: "parallel @
// EVT: THREAD_TEAM_BEGIN
// EVT: ENTER {{.*}}Region: "implicit task"
// EVT: THREAD_TASK_CREATE
// EVT: THREAD_TASK_CREATE
// A taskwait and its wait begin and end together: one region, not two.
// EVT: ENTER {{.*}}Region: "taskwait @
// EVT-NOT: (wait)
// EVT: LEAVE {{.*}}Region: "taskwait @
// EVT: LEAVE {{.*}}Region: "implicit task"
// EVT: THREAD_TEAM_END
// EVT: LEAVE {{.*}}Region: "parallel @
// EVT: THREAD_JOIN
