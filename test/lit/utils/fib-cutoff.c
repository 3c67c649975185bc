// fib(34) with a serial cutoff at 28: 66 tasks; the leaves (fib(27) and
// fib(26), computed serially) carry the work. Span ~= one fib(27) leaf (plus
// the fork and the creations above it), work ~= fib(34)'s serial time:
// parallelism ~= fib(34)/fib(27) ~= 29. A leaf descheduled on a loaded
// machine runs long (execution time is wall time) and lowers it (1.68 seen
// with the two cores busy elsewhere): the checks bound the span by the
// longest leaf and the parallelism by the leaves' measured times, and the
// absolute lower bound only says the tasks ran in parallel at all.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.json
// RUN: otter summary --json %t.d > %t.summary.json
// RUN: python3 %S/Inputs/check.py %t.json region.parallelism=1.05:32
// The two task constructs below (fib(n - 1), fib(n - 2)), by line:
// DEFINE: %{t1} = %(line+13)
// DEFINE: %{t2} = %(line+14)
// RUN: python3 %S/Inputs/check.py %t.json --summary %t.summary.json "rspan >= max(m%{t1}, m%{t2})" "rspan <= max(m%{t1}, m%{t2}) * 1.05 + 5e6" "rwork >= t%{t1} + t%{t2}" "rpar <= (t%{t1} + t%{t2}) / max(m%{t1}, m%{t2}) * 1.01"
// RUN: otter summary --json %t.d | FileCheck %s
// RUN: %check-rebuild --format csv %t.d
#include <omp.h>

static long serial(int n) { return n < 2 ? n : serial(n - 1) + serial(n - 2); }

static long fib(int n) {
  if (n < 28)
    return serial(n);
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  long r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(34);
  return r == 5702887 ? 0 : 1;
}
// CHECK: "explicit_tasks":66
