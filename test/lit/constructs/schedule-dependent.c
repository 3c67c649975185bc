// Tasks created inside a dynamic loop and inside sections: which member ran
// which chunk or section is the schedule's choice, and docs/graph.md says
// what of it the graph keeps (the implicit task each task hangs off, and so
// the create edges' sources). This test pins the rest: every run gives the
// same nodes -- kind and source line, with the same counts -- and the same
// number of edges of each kind, and each run's graph rebuilds from its trace.
//
// Why not canonicalise the chunks too: a taskwait inside a chunk waits for
// every task its implicit task created before, in earlier chunks of the same
// thread too; moving chunks between implicit tasks would change what the
// graph says the taskwait waited for.
//
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d1 %t.d2 %t.d3
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d1 %t | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d3 %t | FileCheck --check-prefix=OUT %s
// RUN: cut -d, -f2,6 %t.d1/nodes.csv | sort | uniq -c > %t.d1.kinds
// RUN: cut -d, -f3 %t.d1/graph.csv | sort | uniq -c > %t.d1.edges
// RUN: cut -d, -f2,6 %t.d2/nodes.csv | sort | uniq -c > %t.d2.kinds
// RUN: cut -d, -f3 %t.d2/graph.csv | sort | uniq -c > %t.d2.edges
// RUN: cut -d, -f2,6 %t.d3/nodes.csv | sort | uniq -c > %t.d3.kinds
// RUN: cut -d, -f3 %t.d3/graph.csv | sort | uniq -c > %t.d3.edges
// RUN: diff %t.d1.kinds %t.d2.kinds
// RUN: diff %t.d1.kinds %t.d3.kinds
// RUN: diff %t.d1.edges %t.d2.edges
// RUN: diff %t.d1.edges %t.d3.edges
// RUN: FileCheck --check-prefix=KINDS %s < %t.d1.kinds
// RUN: %check-rebuild %t.d1
// RUN: %check-rebuild %t.d2
#include <stdio.h>
#include <unistd.h>

static int hits[64];

int main(void) {
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 8; i++) {
      if (i % 3 == 0)
        usleep(200); // uneven chunks: the other member takes more
#pragma omp task
      __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
    }
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp task
        __atomic_fetch_add(&hits[8], 1, __ATOMIC_RELAXED);
      }
#pragma omp section
      {
#pragma omp task
        __atomic_fetch_add(&hits[9], 1, __ATOMIC_RELAXED);
      }
#pragma omp section
      {
#pragma omp task
        __atomic_fetch_add(&hits[10], 1, __ATOMIC_RELAXED);
      }
    }
  }
  int sum = 0;
  for (int i = 0; i < 64; i++)
    sum += hits[i];
  printf("sum=%d\n", sum);
  return 0;
}
// OUT: sum=11

// The loop's 8 tasks and one per section, whoever ran them.
// KINDS-DAG: {{^ +}}8 task,[[@LINE-31]]{{$}}
// KINDS-DAG: {{^ +}}1 task,[[@LINE-25]]{{$}}
// KINDS-DAG: {{^ +}}1 task,[[@LINE-21]]{{$}}
// KINDS-DAG: {{^ +}}1 task,[[@LINE-17]]{{$}}
// KINDS-DAG: {{^ +}}2 loop_begin,[[@LINE-39]]{{$}}
// KINDS-DAG: {{^ +}}2 sections_begin,[[@LINE-33]]{{$}}
