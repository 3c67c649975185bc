// Output names: the runtime (OTTER_GRAPH_FORMAT) and otter-graph (--format,
// also through `otter graph`) read them with one parser (graph/outputs.h),
// so they take the same names and aliases, and a wrong one gets the same
// one-line answer naming it and listing the valid names.
// RUN: %clang -fopenmp %s -o %t
// An alias and upper case, in both.
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=' GV ,Txt' %t 2> %t.err
// RUN: FileCheck --check-prefix=ALIAS %s < %t.err
// RUN: ls %t.d | FileCheck --check-prefix=FILES %s
// RUN: rm -rf %t.re && otter-graph %t.d -o %t.re --format ' GV ,Txt'
// RUN: ls %t.re | FileCheck --check-prefix=FILES %s
// RUN: diff %t.d/graph.gv %t.re/graph.gv
// A wrong name: the runtime warns once and writes the default files; the
// utilities stop before reading anything.
// RUN: rm -rf %t.b && env %otter_env OTTER_OUTPUT_DIR=%t.b OTTER_GRAPH_FORMAT=dot,graphml %t 2> %t.berr
// RUN: FileCheck --check-prefix=RUNTIME %s < %t.berr
// RUN: not otter-graph %t.d -o %t.x --format dot,graphml 2> %t.gerr
// RUN: FileCheck --check-prefix=GRAPH --implicit-check-not=otter %s < %t.gerr
// RUN: not otter graph --format=graphml -o %t.x %t.d 2> %t.oerr
// RUN: FileCheck --check-prefix=OTTER --implicit-check-not=otter %s < %t.oerr
// RUN: not otter-graph %t.d -o %t.x --format dot,,csv 2>&1 | FileCheck --check-prefix=EMPTY %s
// RUN: not otter-graph %t.d -o %t.x --format none 2>&1 | FileCheck --check-prefix=NONE %s
// RUN: test ! -e %t.x
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("n=%d\n", n);
  return 0;
}

// ALIAS: otter: wrote {{.*}} (graph.gv graph.txt): 2 threads
// FILES-NOT: .csv
// FILES: graph.gv
// FILES-NEXT: graph.txt
// FILES-NOT: .csv

// RUNTIME: otter: warning: OTTER_GRAPH_FORMAT='dot,graphml' is not valid ('graphml' is unknown) (use a comma list of csv, dot, canon, all, none); using the default dot,csv
// RUNTIME: otter: wrote {{.*}} (nodes.csv graph.csv graph.gv): 2 threads

// GRAPH: otter: error: bad --format 'dot,graphml': 'graphml' is unknown (use a comma list of csv, dot, canon, all)
// OTTER: otter: error: bad --format 'graphml': 'graphml' is unknown (use a comma list of csv, dot, canon, all)
// EMPTY: otter: error: bad --format 'dot,,csv': an empty name (use a comma list of csv, dot, canon, all)
// NONE: otter: error: bad --format 'none': 'none' is unknown (use a comma list of csv, dot, canon, all)
