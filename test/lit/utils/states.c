// The state timeline's property on real traces (test/lit/Inputs/
// check-states.py): for programs that wait in each kind of construct --
// tasks and a taskwait, explicit and implicit barriers, a critical section
// and a lock, a taskgroup, nested parallel regions -- `otter export
// --format states` covers every thread from its first event to its last
// (running + waiting + scheduling + idle + tool = wall time, against `otter
// dump`), every waiting interval lies in a wait `otter dump` shows, and
// the waiting per construct is `otter summary`'s (and `otter diagnose`'s),
// in the CSV, the JSON and the report's timeline data.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.tw && env %otter_env OTTER_OUTPUT_DIR=%t.tw OMP_NUM_THREADS=2 %t taskwait
// RUN: %check-states --report --expect-wait taskwait --expect-wait barrier_implicit %t.tw | FileCheck %s --check-prefix=TW
// TW: states: ok (2 threads)
// TW-NEXT: waiting in: {{.*}}taskwait
// RUN: rm -rf %t.bar && env %otter_env OTTER_OUTPUT_DIR=%t.bar OMP_NUM_THREADS=2 %t barrier
// RUN: %check-states --expect-wait barrier %t.bar | FileCheck %s --check-prefix=BAR
// BAR: states: ok (2 threads)
// RUN: rm -rf %t.mx && env %otter_env OTTER_OUTPUT_DIR=%t.mx OMP_NUM_THREADS=2 %t mutex
// RUN: %check-states --report --expect-wait critical --expect-wait lock %t.mx | FileCheck %s --check-prefix=MX
// MX: states: ok (2 threads)
// MX-NEXT: waiting in: {{.*}}critical, lock
// RUN: rm -rf %t.tg && env %otter_env OTTER_OUTPUT_DIR=%t.tg OMP_NUM_THREADS=2 %t taskgroup
// RUN: %check-states --expect-wait taskgroup %t.tg | FileCheck %s --check-prefix=TG
// TG: states: ok (2 threads)
// RUN: rm -rf %t.nest && env %otter_env OTTER_OUTPUT_DIR=%t.nest OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=2 %t nested
// RUN: %check-states --report --expect-wait barrier_implicit %t.nest | FileCheck %s --check-prefix=NEST
// NEST: states: ok ({{[3-9]}} threads)
//
// The CSV's header and rows, the JSON, the file written by default.
// RUN: otter export --format states -o %t.csv %t.tw | FileCheck %s --check-prefix=WROTE
// WROTE: wrote {{.*}}.csv
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// CSV: thread,start_ns,end_ns,state,construct,region_id,task,label
// CSV: {{^}}0,{{[0-9]+}},{{[0-9]+}},running,initial_task,0,{{[0-9]+}},(program){{$}}
// CSV: ,waiting,taskwait,{{[0-9]+}},{{[0-9]+}},{{.*}}states.c:[[@LINE+15]]{{$}}
// RUN: otter export --format states --json -o - %t.tw | FileCheck %s --check-prefix=JSON
// JSON: {"intervals":[
// JSON: "state":"waiting","construct":"taskwait"
// JSON: "threads":[
// JSON: "wall_ns":
// RUN: not otter export --format states --aggregate %t.tw 2>&1 | FileCheck %s --check-prefix=AGG
// AGG: otter: error: --aggregate and --svg apply to --format dot/csv
#include "Inputs/spin.h"
#include <omp.h>
#include <string.h>

static omp_lock_t lock;

static void tasks_and_taskwait(void) {
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < 4; ++i) {
#pragma omp task
      spin_ms(2);
    }
#pragma omp taskwait
  }
}

static void barriers(void) {
#pragma omp parallel
  {
    spin_ms(omp_get_thread_num() ? 1 : 4);
#pragma omp barrier
    spin_ms(omp_get_thread_num() ? 4 : 1);
  }
}

static void mutexes(void) {
  omp_init_lock(&lock);
#pragma omp parallel
  {
    for (int i = 0; i < 3; ++i) {
#pragma omp critical
      spin_ms(1);
      omp_set_lock(&lock);
      spin_ms(1);
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);
}

static void taskgroup(void) {
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup
  {
    for (int i = 0; i < 4; ++i) {
#pragma omp task
      spin_ms(2);
    }
  }
}

static void nested(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    spin_ms(omp_get_thread_num() ? 1 : 3);
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "taskwait";
  if (!strcmp(m, "taskwait"))
    tasks_and_taskwait();
  else if (!strcmp(m, "barrier"))
    barriers();
  else if (!strcmp(m, "mutex"))
    mutexes();
  else if (!strcmp(m, "taskgroup"))
    taskgroup();
  else
    nested();
  return 0;
}
