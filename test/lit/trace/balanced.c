// Every location's Enter and Leave records nest (docs/trace.md, "Balanced
// regions"), where OMPT's reports do not: a taskgroup's wait reported
// apart at its begin but with its end (every taskgroup, so every taskloop),
// a nest lock acquired again by its owner (no mutex_acquired). And an
// explicit task's execution is a region of its task construct, nested in
// the wait it runs in. otf2-snapshots refused such archives ("unbalanced
// region events") before.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: %check-trace %t.d
// RUN: %check-rebuild --format all %t.d
// RUN: otf2-print %t.d/trace/traces.otf2 | grep -E '^(ENTER|LEAVE)' | sed -e 's/  */ /g' -e 's/ [0-9]* [0-9]* Region: / /' | FileCheck %s
// Two threads: tasks run where they are stolen, still balanced.
// RUN: rm -rf %t.d2 && %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t | FileCheck --check-prefix=OUT %s
// RUN: %check-trace %t.d2
// RUN: %check-rebuild --format all %t.d2
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 0;
  omp_nest_lock_t L;
  omp_init_nest_lock(&L);
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task shared(x)
      {
#pragma omp task shared(x)
        x++;
#pragma omp taskwait
      }
    }
#pragma omp taskloop num_tasks(2) shared(x)
    for (int i = 0; i < 4; i++) {
#pragma omp atomic
      x++;
    }
    omp_set_nest_lock(&L);
    omp_set_nest_lock(&L);
    x++;
    omp_unset_nest_lock(&L);
    omp_unset_nest_lock(&L);
  }
  omp_destroy_nest_lock(&L);
  printf("x=%d\n", x);
  return 0;
}
// OUT: x=6

// One thread: libomp runs each task at once, inside what created it.
// CHECK: ENTER "taskgroup @ {{.*}}balanced.c:28"
// CHECK-NEXT: ENTER "task @ {{.*}}balanced.c:30"
// CHECK-NEXT: ENTER "task @ {{.*}}balanced.c:32"
// CHECK-NEXT: LEAVE "task @ {{.*}}balanced.c:32"
// CHECK-NEXT: ENTER "taskwait @ {{.*}}balanced.c:34"
// CHECK-NEXT: LEAVE "taskwait @ {{.*}}balanced.c:34"
// CHECK-NEXT: LEAVE "task @ {{.*}}balanced.c:30"
// CHECK-NEXT: ENTER "taskgroup (wait) @ {{.*}}balanced.c:28"
// CHECK-NEXT: LEAVE "taskgroup (wait) @ {{.*}}balanced.c:28"
// CHECK-NEXT: LEAVE "taskgroup @ {{.*}}balanced.c:28"
// CHECK-NEXT: ENTER "taskgroup @ {{.*}}balanced.c:37"
// CHECK-NEXT: ENTER "taskloop @ {{.*}}balanced.c:37"
// CHECK-NEXT: ENTER "task @ {{.*}}balanced.c:37"
// CHECK-NEXT: LEAVE "task @ {{.*}}balanced.c:37"
// CHECK-NEXT: ENTER "task @ {{.*}}balanced.c:37"
// CHECK-NEXT: LEAVE "task @ {{.*}}balanced.c:37"
// CHECK-NEXT: LEAVE "taskloop @ {{.*}}balanced.c:37"
// CHECK-NEXT: ENTER "taskgroup (wait) @ {{.*}}balanced.c:37"
// CHECK-NEXT: LEAVE "taskgroup (wait) @ {{.*}}balanced.c:37"
// CHECK-NEXT: LEAVE "taskgroup @ {{.*}}balanced.c:37"
// CHECK-NEXT: ENTER "nest_lock (held) @ {{.*}}balanced.c:42"
// CHECK-NEXT: ENTER "nest_lock (nested) @ {{.*}}balanced.c:43"
// CHECK-NEXT: LEAVE "nest_lock (nested) @ {{.*}}balanced.c:43"
// CHECK-NEXT: LEAVE "nest_lock (held) @ {{.*}}balanced.c:42"
// CHECK: LEAVE "initial thread"
