// OTTER_SYMBOLIZE=1 on a program built without the plugin, with debug info:
// approximate labels get file:line from llvm-symbolizer; the program's
// output and exit code are those of the untraced run. The symbolizer runs
// while libomp holds its locks (a buffer flushed at thread end, the tool's
// finalize): it must not deadlock there (a fork() did, in libomp's atfork
// handler), hence the timeout. An annotation (otter/otter.h, inlined into
// its caller) gets the caller's line, not the header's. Each label is the
// call's own line (the byte before the return address), marked approximate
// (~), and the lines are those the plugin gives the same program.
// RUN: %clang -g -fopenmp -I%otter_src/include %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: sh -c 'rm -rf %t.d && timeout 120 env %otter_env OTTER_OUTPUT_DIR=%t.d \
// RUN:   OTTER_GRAPH_FORMAT=canon OTTER_SYMBOLIZE=1 %t > %t.traced 2> %t.err; \
// RUN:   echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: FileCheck --check-prefix=MARK %s < %t.d/graph.txt
// The same program with the plugin: the same construct lines.
// RUN: %otter-cc -g -I%otter_src/include %s -o %t.plugin
// RUN: rm -rf %t.p && not env %otter_env OTTER_OUTPUT_DIR=%t.p OTTER_GRAPH_FORMAT=canon OTTER_TRACE=0 %t.plugin > /dev/null 2>&1
// RUN: sed -n 's/^n[0-9]* \([a-z_]*\) .* at=[^ ]*symbolize.c:\([0-9]*\):.*/\1 \2/p' %t.d/graph.txt | sort > %t.sym.lines
// RUN: sed -n 's/^n[0-9]* \([a-z_]*\) .* at=[^ ]*symbolize.c:\([0-9]*\):.*/\1 \2/p' %t.p/graph.txt | sort > %t.plugin.lines
// RUN: FileCheck --check-prefix=LINES %s < %t.sym.lines
// RUN: diff %t.sym.lines %t.plugin.lines
// Without it, only module+offset.
// RUN: rm -rf %t.n && not %otter-run OTTER_OUTPUT_DIR=%t.n OTTER_TRACE=0 %t > /dev/null 2>&1
// RUN: FileCheck --check-prefix=NOSYM %s < %t.n/graph.txt
#include <otter/otter.h>
#include <stdio.h>

int main(void) {
  int n = 0;
  // CHECK: implicit_task parent={{[^ ]+}} at=~{{[^ ]*}}symbolize.c:[[@LINE+2]]:
  // LINES: implicit_task [[@LINE+1]]
#pragma omp parallel num_threads(2)
  {
    // CHECK: task parent={{[^ ]+}} at=~{{[^ ]*}}symbolize.c:[[@LINE+2]]:
    // LINES: task [[@LINE+1]]
#pragma omp task
    {
#pragma omp atomic
      n += 1;
    }
  }
  // MARK: mark parent={{[^ ]+}} at=~{{[^ ]*}}symbolize.c:[[@LINE+1]]:{{[0-9]+}} name="done"
  otter_mark("done");
  printf("n=%d\n", n);
  return 2;
}

// NOSYM-NOT: symbolize.c:
// NOSYM: implicit_task parent={{[^ ]+}} at=~{{[^ ]*}}+0x
