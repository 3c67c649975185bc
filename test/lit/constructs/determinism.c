// One program mixing many constructs; graph.txt must be byte-identical over
// 20 runs and over OMP_NUM_THREADS=1/2/4 (all team sizes are fixed by
// num_threads).
//
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.ref %t.d && mkdir -p %t.d
// RUN: %otter-run OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.ref %t | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.ref/graph.txt
// RUN: sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do for n in 1 2 4; do %otter-run OMP_NUM_THREADS=$n OTTER_OUTPUT_DIR=%t.d/$i-$n %t >/dev/null 2>&1 || exit 1; done; done'
// RUN: sh -c 'for f in %t.d/*/graph.txt; do cmp -s %t.ref/graph.txt $f || { echo "differs: $f"; exit 1; }; done'
#include <omp.h>
#include <stdio.h>

static int fib(int n) {
  int a, b;
  if (n < 2)
    return n;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  int a[16] = {0}, x = 0, y = 0, f = 0;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel num_threads(3)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 16; i++)
      a[i] = i;
#pragma omp for schedule(dynamic) nowait
    for (int i = 0; i < 16; i++)
      a[i] += 1;
#pragma omp critical
    x++;
    omp_set_lock(&l);
    y++;
    omp_unset_lock(&l);
#pragma omp barrier
#pragma omp masked
    {
#pragma omp taskgroup
      {
#pragma omp task depend(out: x)
        x = 1;
#pragma omp task depend(in: x)
        a[0] = x;
#pragma omp task depend(mutexinoutset: y)
        y++;
#pragma omp task depend(mutexinoutset: y)
        y++;
      }
#pragma omp taskloop num_tasks(4)
      for (int i = 0; i < 16; i++)
        a[i] *= 2;
      f = fib(4);
    }
#pragma omp task
    {
#pragma omp atomic
      y++;
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp sections
      {
#pragma omp section
        a[1]++;
#pragma omp section
        a[2]++;
      }
    }
  }
  omp_destroy_lock(&l);
  printf("f=%d\n", f);
  return 0;
}

// OUT: f=3
// CHECK: # otter canonical graph v1: {{[0-9]+}} nodes, {{[0-9]+}} edges
// CHECK-NEXT: n0 initial_task parent=-
// CHECK: parallel_begin parent=n0
// CHECK: taskloop_begin
// CHECK: parallel_end parent=n0
