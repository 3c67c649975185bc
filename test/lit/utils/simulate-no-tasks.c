// A program without explicit tasks (a parallel loop): the replay can only
// place the traced threads' implicit tasks, so `otter simulate` predicts no
// more cores than were traced and says why in one line instead of printing
// a flat curve; no "per task" figure is printed (issue 26 item 3).
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.1 %t.2
// RUN: env %otter_env OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.1 %t > /dev/null 2>&1
// RUN: env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.2 %t > /dev/null 2>&1
// RUN: otter simulate %t.1 | FileCheck --check-prefix=ONE %s
// RUN: otter simulate %t.2 | FileCheck --check-prefix=TWO %s
// RUN: otter simulate --json %t.1 | FileCheck --check-prefix=JSON %s
// RUN: otter parallelism %t.2 | FileCheck --check-prefix=PAR %s
#include <stdio.h>

int main(void) {
  double s = 0;
  for (int r = 0; r < 5; r++) {
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 100000; i++)
      s += i * 0.5;
  }
  printf("%g\n", s);
  return 0;
}

// ONE: scheduling cost not used (no explicit tasks)
// ONE-NOT: per task
// ONE: cores predicted
// ONE-NEXT: {{^ +1 }}
// ONE-NEXT: not predicted beyond 1 core(s): no explicit tasks: the replay can only place the 1 traced thread(s)' implicit tasks
// TWO: cores predicted
// TWO-NEXT: {{^ +1 }}
// TWO-NEXT: {{^ +2 }}
// TWO-NEXT: not predicted beyond 2 core(s)
// JSON: "tasks":0,
// JSON-SAME: "applies_up_to_cores":1,"limit":"no explicit tasks:
// PAR: burdened span {{.*}}(each region on the path pays its fork and join; no explicit tasks)
