// Without OTTER_OUTPUT_DIR the output goes to ./otter-<program>-<pid>/ and
// the summary line says where, with the counts.
// RUN: %clang -fopenmp %s -o %t.prog
// RUN: rm -rf %t.cwd && mkdir %t.cwd && cd %t.cwd && %otter-run %t.prog 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: ls %t.cwd | FileCheck --check-prefix=DIR %s
#include <stdio.h>

int main(void) {
#pragma omp parallel num_threads(3)
  {
#pragma omp task
    { }
  }
  return 0;
}

// CHECK: otter: wrote otter-{{.*}}.prog-{{[0-9]+}}/ (nodes.csv graph.csv graph.gv graph.txt): {{[0-9]+}} threads, 1 parallel regions, 3 tasks, {{[0-9]+}} nodes, {{[0-9]+}} edges
// DIR: otter-{{.*}}.prog-{{[0-9]+}}
