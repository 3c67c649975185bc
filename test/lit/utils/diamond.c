// A diamond A -> {B, C} -> D: A 10 ms, B 40 ms, C 10 ms, D 10 ms. Region
// work 70 ms, span 60 ms (A, B, D): parallelism 1.17. C is off the path.
// On a loaded machine a descheduled spin runs long (execution time is wall
// time): the checks relate span and path to the measured task times.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: otter summary --json %t.d > %t.summary.json
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "rspan >= t22 + max(t24, t26) + t28" "rspan <= (t22 + max(t24, t26) + t28) * 1.05 + 5e6" "rwork >= t22 + t24 + t26 + t28" "rwork <= (t22 + t24 + t26 + t28) * 1.05 + 5e6" "p22 >= t22 and p28 >= t28" "(p24 >= t24) == (t24 >= t26)" "(p26 == 0) == (t24 >= t26)"
// Perfetto: well-formed, every slice complete, flows for the edges.
// RUN: otter export --format perfetto -o %t.perfetto.json %t.d | FileCheck %s --check-prefix=EXPORT
// RUN: python3 -m json.tool %t.perfetto.json > /dev/null
// RUN: python3 %S/Inputs/perfetto_check.py %t.perfetto.json | FileCheck %s --check-prefix=PERFETTO
#include "Inputs/spin.h"

int main(void) {
  int a = 0, b = 0, c = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out : a)
    spin_ms(10);
#pragma omp task depend(in : a) depend(out : b)
    spin_ms(40);
#pragma omp task depend(in : a) depend(out : c)
    spin_ms(10);
#pragma omp task depend(in : b, c)
    spin_ms(10);
  }
  return a + b + c;
}
// EXPORT: wrote {{.*}}.perfetto.json
// PERFETTO: slices={{[0-9]+}} tasks=4 bad=0 flows={{[1-9][0-9]*}} unmatched=0 threads=2
// PERFETTO: task slice: task {{.*}}diamond.c:{{22|24|26|28}}

// RUN: %check-rebuild --format csv %t.d
