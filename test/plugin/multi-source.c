// Several sources in one clang command (one process): the directive table
// is reset per source file, and both files get their own records.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-verbose -c %s %S/Inputs/multi-b.c 2>&1 | FileCheck --check-prefix=VERBOSE %s
// RUN: %clang -fopenmp -fplugin=%otter_plugin %s %S/Inputs/multi-b.c -o %t/prog
// RUN: %t/prog | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t/prog | FileCheck %s
#include <stdio.h>
int second(int n);
int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  x += 1;
  printf("%d %d\n", x, second(10));
  return 0;
}
// VERBOSE: otter: directive 'parallel' at {{.*}}multi-source.c:[[@LINE-6]]:1
// VERBOSE: otter: directive 'atomic' at {{.*}}multi-source.c:[[@LINE-6]]:1
// VERBOSE: otter: site '__kmpc_fork_call' in 'main' at {{.*}}multi-source.c:[[@LINE-8]]:1 -> 'parallel'
// VERBOSE: otter: directive 'parallel for' at {{.*}}multi-b.c:3:1
// VERBOSE-NOT: multi-source.c
// VERBOSE: otter: site '__kmpc_fork_call' in 'second' at {{.*}}multi-b.c:3:1 -> 'parallel for'
// VERBOSE-NOT: multi-source.c
// OUT: 2 45
// CHECK-DAG: site {{.*}} "parallel" at {{.*}}multi-source.c:[[@LINE-14]]:1
// CHECK-DAG: site {{.*}} "parallel for" at {{.*}}multi-b.c:3:1
// CHECK: summary: 2 directives, {{.*}} 0 errors
