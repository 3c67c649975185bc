// A diamond A -> {B, C} -> D: A 10 ms, B 40 ms, C 10 ms, D 10 ms. Region
// work 70 ms, span 60 ms (A, B, D): parallelism 1.17. C is off the path.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: python3 %S/Inputs/check.py %t.json region.work_ns=66e6:105e6 region.span_ns=57e6:90e6 region.parallelism=1.0:1.35 rpath=19:0.1 rpath=21:0.5 rpath=25:0.1 nopath=23
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
// PERFETTO: task slice: task {{.*}}diamond.c:{{19|21|23|25}}
