// A program built with GCC uses libgomp, which has no OMPT interface: it
// cannot be traced, and otter-run says so in one line instead of letting it
// run untraced without a word; its output and exit code are unchanged.
// With --libomp it runs on LLVM's libomp (which implements libgomp's entry
// points) and is traced.
// RUN: gcc -fopenmp %s -o %t
// RUN: %t > %t.plain
// RUN: rm -rf %t.d && %otter_bin/bin/otter-run -o %t.d %t > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: test ! -e %t.d
// RUN: rm -rf %t.d && %otter_bin/bin/otter-run --libomp -f canon -o %t.d %t > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=TRACED %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2) reduction(+ : x)
  x += 1;
  printf("x=%d\n", x);
  return 0;
}

// WARN: otter-run: warning: {{.*}} uses GCC's OpenMP runtime (libgomp), which has no tool interface: its OpenMP constructs will not be traced; build it with clang (otter-clang), or add --libomp
// WARN-NOT: otter: wrote
// TRACED-NOT: warning
// TRACED: otter: wrote {{.*}}: 2 threads, 1 parallel regions
// CHECK: parallel_begin parent=n0
// CHECK-COUNT-2: implicit_task
