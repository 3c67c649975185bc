// Dependences that cost parallelism or only repeat an order: eight tasks
// each declaring inout on one variable run one after the other (a chain
// that serialises the loop), and a task whose in(a) is implied by its in(b)
// on a task that itself waited for a. diagnose reports both at the task
// constructs, each with the time predicted by replaying the program without
// those edges: the chain's replay gains, the implied edge's cannot lose.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d > %t.json
// RUN: python3 %S/Inputs/advice_check.py %t.json dependences | FileCheck %s --check-prefix=JSON
#include "Inputs/spin.h"
#include <stdio.h>

int main(void) {
  double x = 0, a = 0, b = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 8; ++i) {
      // CHECK-DAG: advice:    (dependences) at {{.*}}advice-deps.c:[[@LINE+2]]: the tasks created at {{.*}}advice-deps.c:[[@LINE+2]] each depend on the one created before
      // JSON-DAG: serialising_dependences dependences {{.*}}advice-deps.c:[[@LINE+1]] cores=2 after<before=True after<=before=True transformation=chain edges removed
#pragma omp task depend(inout : x)
      spin_ms(10);
    }
#pragma omp task depend(out : a)
    spin_ms(1);
#pragma omp task depend(in : a) depend(out : b)
    spin_ms(1);
    // CHECK-DAG: advice:    (dependences) at {{.*}}advice-deps.c:[[@LINE+2]]: 1 dependences of the tasks created at {{.*}}advice-deps.c:[[@LINE+2]] are implied by others
    // JSON-DAG: redundant_dependences dependences {{.*}}advice-deps.c:[[@LINE+1]] cores=2 after<before={{True|False}} after<=before=True transformation=redundant edges removed
#pragma omp task depend(in : a, b)
    spin_ms(1);
  }
  printf("%g\n", x + a + b);
  return 0;
}
