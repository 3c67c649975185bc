// Hot teams (KMP_HOT_TEAMS_MAX_LEVEL) keep nested teams' workers alive
// between regions; when a later region uses fewer threads, the extra
// workers wait in a barrier that never ends, up to the end of the run: their
// thread, implicit task and barrier regions were left open. The writer
// closes every region still open when the trace is closed (docs/trace.md,
// "Balanced regions"). Nested teams of changing sizes, with tasks and
// detached tasks, as in LLVM's tasking/task_teams_stress_test.cpp.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: %t > %t.plain
// RUN: rm -rf %t.1 %t.3 %t.5
// RUN: %otter-run KMP_HOT_TEAMS_MAX_LEVEL=1 KMP_HOT_TEAMS_MODE=1 OTTER_OUTPUT_DIR=%t.1 %t > %t.traced1
// RUN: diff %t.plain %t.traced1
// RUN: %check-trace %t.1
// RUN: %check-rebuild %t.1
// RUN: %otter-run KMP_HOT_TEAMS_MAX_LEVEL=3 OTTER_OUTPUT_DIR=%t.3 %t > %t.traced3
// RUN: diff %t.plain %t.traced3
// RUN: %check-trace %t.3
// RUN: %check-rebuild %t.3
// RUN: %otter-run KMP_HOT_TEAMS_MAX_LEVEL=5 OTTER_OUTPUT_DIR=%t.5 %t > %t.traced5
// RUN: diff %t.plain %t.traced5
// RUN: %check-trace %t.5
#include <omp.h>
#include <stdio.h>

static int a;

static void tasks(void) {
  omp_event_handle_t h;
#pragma omp task
  {
#pragma omp atomic
    a++;
  }
#pragma omp barrier
#pragma omp task detach(h)
  {
#pragma omp atomic
    a++;
    omp_fulfill_event(h);
  }
#pragma omp barrier
}

static void base(int n) {
#pragma omp parallel num_threads(n)
  tasks();
}

static void nest(int f, int s) {
#pragma omp parallel num_threads(f)
  base(s);
}

static void nest2(int f, int s, int t) {
#pragma omp parallel num_threads(f)
  nest(s, t);
}

int main(void) {
  omp_set_max_active_levels(5);
  for (int i = 0; i < 3; i++) {
    base(4);
    base(1);
    base(2);
    nest(1, 1);
    nest(1, 5);
    nest(2, 6);
    nest(4, 3);
    nest(3, 2);
    nest2(1, 1, 2);
    nest2(2, 2, 1);
    nest2(4, 2, 2);
    nest2(1, 1, 1);
  }
  printf("a=%d\n", a);
  return 0;
}
