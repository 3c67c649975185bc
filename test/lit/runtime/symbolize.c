// OTTER_SYMBOLIZE=1 on a program built without the plugin, with debug info:
// approximate labels get file:line from llvm-symbolizer; the program's
// output and exit code are those of the untraced run. The symbolizer runs
// while libomp holds its locks (a buffer flushed at thread end, the tool's
// finalize): it must not deadlock there (a fork() did, in libomp's atfork
// handler), hence the timeout. An annotation (otter/otter.h, inlined into
// its caller) gets the caller's line, not the header's.
// RUN: %clang -g -fopenmp -I%otter_src/include %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: sh -c 'rm -rf %t.d && timeout 120 env %otter_env OTTER_OUTPUT_DIR=%t.d \
// RUN:   OTTER_GRAPH_FORMAT=canon OTTER_SYMBOLIZE=1 %t > %t.traced 2> %t.err; \
// RUN:   echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: FileCheck --check-prefix=MARK %s < %t.d/graph.txt
// Without it, only module+offset.
// RUN: rm -rf %t.n && not %otter-run OTTER_OUTPUT_DIR=%t.n OTTER_TRACE=0 %t > /dev/null 2>&1
// RUN: FileCheck --check-prefix=NOSYM %s < %t.n/graph.txt
#include <otter/otter.h>
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp task
    {
#pragma omp atomic
      n += 1;
    }
  }
  // MARK: mark parent={{[^ ]+}} at={{[^ ]*}}symbolize.c:[[@LINE+1]]:{{[0-9]+}} name="done"
  otter_mark("done");
  printf("n=%d\n", n);
  return 2;
}

// CHECK: implicit_task parent={{[^ ]+}} at={{[^ ]*}}symbolize.c:{{[0-9]+}}
// CHECK: task parent={{[^ ]+}} at={{[^ ]*}}symbolize.c:{{[0-9]+}}
// NOSYM-NOT: symbolize.c:
// NOSYM: implicit_task parent={{[^ ]+}} at=~{{[^ ]*}}+0x
