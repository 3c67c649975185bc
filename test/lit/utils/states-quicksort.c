// The quicksort: a recursive-task quicksort with a taskwait per
// level on 2 threads. A task waiting in its own taskwait is waiting, not
// running: `otter export --format states` has waiting/taskwait intervals,
// each inside a taskwait wait that `otter dump` shows on that thread, and
// the report's timeline data (its otter-data block) counts them as waiting
// per thread exactly as the export does (check-states.py --report).
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: %check-states --report --expect-wait taskwait %t.d | FileCheck %s
// CHECK: states: ok (2 threads)
// CHECK-NEXT: waiting in: {{.*}}taskwait
// RUN: otter export --format states -o - %t.d | FileCheck %s --check-prefix=ROWS
// ROWS: thread,start_ns,end_ns,state,construct,region_id,task,label
// ROWS: ,running,task,{{[0-9]+}},{{[0-9]+}},{{.*}}states-quicksort.c:[[@LINE+25]]{{$}}
// ROWS: ,waiting,taskwait,{{[0-9]+}},{{[0-9]+}},{{.*}}states-quicksort.c:[[@LINE+24]]{{$}}
#include "Inputs/spin.h"
#include <stdlib.h>

static void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

static int partition(int *v, int n) {
  int pivot = v[n - 1], p = 0;
  for (int i = 0; i < n - 1; ++i)
    if (v[i] < pivot)
      swap(&v[i], &v[p++]);
  swap(&v[p], &v[n - 1]);
  return p;
}

static void quicksort(int *v, int n) {
  if (n < 2)
    return;
  spin_ms(0.002 * n); // work proportional to the partition
  int p = partition(v, n);
#pragma omp task if (n > 64)
  quicksort(v, p);
#pragma omp task if (n > 64)
  quicksort(v + p + 1, n - p - 1);
#pragma omp taskwait
}

int main(void) {
  enum { N = 4096 };
  static int v[N];
  srand(1);
  for (int i = 0; i < N; ++i)
    v[i] = rand();
#pragma omp parallel num_threads(2)
#pragma omp single
  quicksort(v, N);
  for (int i = 1; i < N; ++i)
    if (v[i - 1] > v[i])
      return 1;
  return 0;
}
