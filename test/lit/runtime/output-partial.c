// One graph file that cannot be written does not keep the others from being
// written (issue 28: on a full disk graph.gv went missing, and the files
// after it too, with no word about them): every selected output is
// attempted, each failure is named on the one error line, and what was
// written is said and listed in the manifest as usual. Here graph.gv cannot
// be written because a directory of that name is in the way.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d/graph.gv
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=all %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck %s < %t.err
// RUN: test -s %t.d/nodes.csv && test -s %t.d/graph.csv && test -s %t.d/graph.txt
// RUN: FileCheck --check-prefix=MANIFEST %s < %t.d/.otter-files
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("n=%d\n", n);
  return 0;
}

// OUT: n=2
// CHECK: otter: error: {{.*}}graph.gv{{.*}} (check OTTER_OUTPUT_DIR)
// CHECK-NEXT: otter: wrote {{.*}} (nodes.csv graph.csv graph.txt): 2 threads
// MANIFEST-NOT: graph.gv
// MANIFEST: nodes.csv
// MANIFEST-NEXT: graph.csv
// MANIFEST-NEXT: graph.txt
// MANIFEST-NOT: graph.gv
