// Pictures show source paths relative to the directory the program's
// absolute paths share (issue 26 item 4), with one rule for all of them:
// graph.gv (the runtime's, aggregated or not, and otter-graph's) and the
// report's tables say so and use it, as otter picture does; the data files
// (nodes.csv, graph.txt) keep the paths as recorded.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d %t.agg %t.rebuilt && %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > /dev/null
// RUN: FileCheck --check-prefix=GV %s < %t.d/graph.gv
// RUN: FileCheck --check-prefix=CSV %s < %t.d/nodes.csv
// RUN: FileCheck --check-prefix=TXT %s < %t.d/graph.txt
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.agg OTTER_DOT_MAX_NODES=1 %t > /dev/null
// RUN: FileCheck --check-prefix=AGG %s < %t.agg/graph.gv
// RUN: otter-graph %t.d --format dot -o %t.rebuilt 2> /dev/null
// RUN: FileCheck --check-prefix=GV %s < %t.rebuilt/graph.gv
// RUN: otter report --no-simulate -o %t.html %t.d > /dev/null
// RUN: FileCheck --check-prefix=REPORT %s < %t.html
// RUN: not grep -q "utils/relative-paths.c:" %t.html
#include <stdio.h>

int main(void) {
  int n = 0;
  // GV: n1 [label="parallel_begin\nrelative-paths.c:[[@LINE+6]]:1"
  // GV: paths relative to {{/.*}}/test/lit/utils/</TD>
  // CSV: parallel_begin,0,0,{{/.*}}/test/lit/utils/relative-paths.c,[[@LINE+4]],1,main
  // TXT: n1 parallel_begin parent=n0 at={{/.*}}/test/lit/utils/relative-paths.c:[[@LINE+3]]:1
  // AGG: [label="parallel_begin\nrelative-paths.c:[[@LINE+2]]:1
  // AGG: one node per construct, {{.*}}; paths relative to {{/.*}}/test/lit/utils/</TD>
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("n=%d\n", n);
  return 0;
}

// REPORT: <div class="muted" id="paths">Source paths relative to {{/.*}}/test/lit/utils/</div>
// REPORT: <td>relative-paths.c:{{[0-9]+}}</td>
