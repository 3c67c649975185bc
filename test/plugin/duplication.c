// Code duplication after the pass (tail duplication, block placement, loop
// transforms in codegen, LTO inlining) must not duplicate label symbols:
// every site's labels are numeric local labels, every copy gets its own
// record. Build at every level; the assembler must not complain, and every
// record must decode with start < end.
// RUN: %clang -fopenmp -O0 -fplugin=%otter_plugin %s -o %t0 && %t0 | FileCheck --check-prefix=OUT %s
// RUN: otter-sites --summary %t0 | FileCheck %s
// RUN: %clang -fopenmp -O1 -fplugin=%otter_plugin %s -o %t1 && %t1 | FileCheck --check-prefix=OUT %s
// RUN: otter-sites --summary %t1 | FileCheck %s
// RUN: %clang -fopenmp -O2 -fplugin=%otter_plugin %s -o %t2 && %t2 | FileCheck --check-prefix=OUT %s
// RUN: otter-sites --summary %t2 | FileCheck %s
// RUN: %clang -fopenmp -O3 -funroll-loops -fplugin=%otter_plugin %s -o %t3 && %t3 | FileCheck --check-prefix=OUT %s
// RUN: otter-sites --summary %t3 | FileCheck %s
// RUN: %clang -fopenmp -Os -fplugin=%otter_plugin %s -o %ts && %ts | FileCheck --check-prefix=OUT %s
// RUN: %clang -fopenmp -O3 -flto -fplugin=%otter_plugin %s -o %tl && %tl | FileCheck --check-prefix=OUT %s
// RUN: otter-sites --summary %tl | FileCheck %s
#include <omp.h>
#include <stdio.h>

static inline int step(int i, int *acc) {
  if (i % 3 == 0) {
#pragma omp critical
    *acc += 1;
  } else if (i % 3 == 1) {
#pragma omp taskyield
    *acc += 2;
  } else {
#pragma omp flush
    *acc += 3;
  }
  return *acc;
}

int main(int argc, char **argv) {
  (void)argv;
  int acc = 0, n = 8 + argc;
  omp_lock_t l;
  omp_init_lock(&l);
  for (int i = 0; i < n; ++i) {
    if (i & 1) {
      omp_set_lock(&l);
      step(i, &acc);
      omp_unset_lock(&l);
    } else {
      step(i, &acc);
    }
    if (i > 3)
      continue;
#pragma omp taskwait
  }
#pragma omp parallel num_threads(2) reduction(+ : acc)
  for (int i = 0; i < 4; ++i) {
    if (omp_get_thread_num() == i % 2) {
#pragma omp barrier
    }
    step(i, &acc);
  }
  printf("acc=%d\n", acc);
  omp_destroy_lock(&l);
  return 0;
}
// OUT: acc=
// CHECK: summary: {{[0-9]+}} directives, {{[0-9]+}} sites, 0 errors
