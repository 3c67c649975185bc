// A diamond A -> {B, C} -> D: A 10 ms, B 40 ms, C 10 ms, D 10 ms. Region
// work 70 ms, span 60 ms (A, B, D): parallelism 1.17. C is off the path.
// On a loaded machine a descheduled spin runs long (execution time is wall
// time): the checks relate span and path to the measured task times.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: otter summary --json %t.d > %t.summary.json
// The task constructs A, B, C and D below, by line:
// DEFINE: %{A} = %(line+17)
// DEFINE: %{B} = %(line+18)
// DEFINE: %{C} = %(line+19)
// DEFINE: %{D} = %(line+20)
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "rspan >= t%{A} + max(t%{B}, t%{C}) + t%{D}" "rspan <= (t%{A} + max(t%{B}, t%{C}) + t%{D}) * 1.05 + 5e6" "rwork >= t%{A} + t%{B} + t%{C} + t%{D}" "rwork <= (t%{A} + t%{B} + t%{C} + t%{D}) * 1.05 + 5e6" "p%{A} >= t%{A} and p%{D} >= t%{D}" "(p%{B} >= t%{B}) == (t%{B} >= t%{C})" "(p%{C} == 0) == (t%{B} >= t%{C})"
// Perfetto: well-formed, every slice complete, flows for the edges.
// RUN: otter export --format perfetto -o %t.perfetto.json %t.d | FileCheck %s --check-prefix=EXPORT
// RUN: python3 -m json.tool %t.perfetto.json > /dev/null
// RUN: python3 %S/Inputs/perfetto_check.py %t.perfetto.json | FileCheck %s --check-prefix=PERFETTO
// RUN: %check-rebuild --format csv %t.d
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
// PERFETTO: slices={{[0-9]+}} tasks=4 bad=0 flows={{[1-9][0-9]*}} unmatched=0 threads=4 states={{[1-9][0-9]*}}
// Every task construct has its slices, named by its line:
// PERFETTO-DAG: task slice: task {{.*}}diamond.c:[[@LINE-14]]{{$}}
// PERFETTO-DAG: task slice: task {{.*}}diamond.c:[[@LINE-13]]{{$}}
// PERFETTO-DAG: task slice: task {{.*}}diamond.c:[[@LINE-12]]{{$}}
// PERFETTO-DAG: task slice: task {{.*}}diamond.c:[[@LINE-11]]{{$}}
