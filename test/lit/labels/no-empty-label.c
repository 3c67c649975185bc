// No node without a label (issue 25): host teams whose league has one team
// (teams ... if(false): libomp reports neither a parallel region for the
// team's initial task nor a teams barrier) used to make the team's initial
// task a root and leave its serialized parallel region, implicit task and
// barrier unlabelled; now they carry the teams construct's label. Untied
// tasks, nested. Every node but the program's own initial task has a file,
// a function or an address (nodes.csv), in the runtime's graph and in the
// one otter-graph rebuilds from the trace.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: %check-rebuild %t.d
// RUN: python3 -c "import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); bad=[r['id']+' '+r['kind'] for r in rows if r['parent'] and not (r['file'] or r['function'] or r['location'])]; roots=[r['id'] for r in rows if not r['parent']]; print('unlabelled:', len(bad), bad[:5]); print('roots:', len(roots))" %t.d/nodes.csv | FileCheck %s
#include <stdio.h>

static int fib(int n) {
  int a, b;
  if (n < 2)
    return n;
#pragma omp task untied shared(a)
  a = fib(n - 1);
#pragma omp task untied shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  int a[2] = {0, 0}, f = 0;
  volatile int attempt = 0;
  for (int r = 0; r < 3; ++r) {
#pragma omp teams distribute parallel for if (attempt >= 2)
    for (int i = 0; i < 2; i++)
      a[i] += 1;
  }
#pragma omp parallel num_threads(2)
#pragma omp single
  f = fib(10);
  printf("%d %d %d\n", a[0], a[1], f);
  return 0;
}
// OUT: 3 3 55
// CHECK: unlabelled: 0 []
// CHECK-NEXT: roots: 1
