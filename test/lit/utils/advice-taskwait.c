// A taskwait with nothing to wait for: its only child runs undeferred (an
// if(0) clause), so whenever the taskwait is reached the child has
// completed. diagnose advises removing it, with the time predicted by
// replaying the program without it: less than the replay as it is (the
// runtime's time to leave each taskwait is gone; the loop's work keeps the
// single thread on the critical path).
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d > %t.json
// RUN: python3 %S/Inputs/advice_check.py %t.json taskwait | FileCheck %s --check-prefix=JSON
#include "Inputs/spin.h"
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 200; ++i) {
#pragma omp task if (0) shared(n)
    {
      spin_ms(0.05);
      n += i;
    }
    // CHECK: advice:    (taskwait) at {{.*}}advice-taskwait.c:[[@LINE+4]]: remove the taskwait at {{.*}}advice-taskwait.c:[[@LINE+4]]: whenever it is reached, every child it could wait for has completed
    // CHECK-NEXT: replayed:  taskwait removed: its 200 instances
    // CHECK-NEXT: predicted: {{.*}} -> {{.*}} on 2 core(s), gain {{[0-9.]+}}%
    // JSON: {{sync_wait|needless_taskwait}} taskwait {{.*}}advice-taskwait.c:[[@LINE+1]] cores=2 after<before=True after<=before=True transformation=taskwait removed
#pragma omp taskwait
  }
  printf("%d\n", n);
  return 0;
}
