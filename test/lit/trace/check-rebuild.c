// %check-rebuild (test/lit/Inputs/check-rebuild.sh), with which the graph
// tests check that the graph rebuilt from the trace equals the one written
// at exit, fails when they differ: one file of a run's output altered at a
// time, a file missing on one side, a trace that does not read, a format it
// does not know. Without this, a helper that always passed would pass every
// test that uses it.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t | FileCheck --check-prefix=OUT %s
// RUN: %check-rebuild %t.d
// RUN: %check-rebuild --format all -o %t.all %t.d
// RUN: %check-rebuild --format canon %t.d
// RUN: %check-rebuild --format csv,dot %t.d
// RUN: %check-rebuild --trace %t.d/trace/traces.otf2 %t.d
//
// graph.txt: one sync edge made a scope edge.
// RUN: rm -rf %t.x && cp -r %t.d %t.x && sed -i '0,/ sync$/s// scope/' %t.x/graph.txt
// RUN: not cmp -s %t.d/graph.txt %t.x/graph.txt
// RUN: not %check-rebuild %t.x 2>&1 | FileCheck --check-prefix=TXT %s
// RUN: not %check-rebuild --format canon %t.x 2>&1 | FileCheck --check-prefix=TXT %s
// RUN: %check-rebuild --format csv %t.x
// TXT: check-rebuild: {{.*}}.x/graph.txt differs
// TXT-NOT: check-rebuild:
//
// nodes.csv: its last node dropped; graph.csv: one edge doubled.
// RUN: rm -rf %t.x && cp -r %t.d %t.x && sed -i '$d' %t.x/nodes.csv
// RUN: not %check-rebuild %t.x 2>&1 | FileCheck --check-prefix=NODES %s
// NODES: check-rebuild: {{.*}}.x/nodes.csv differs
// RUN: rm -rf %t.x && cp -r %t.d %t.x && sed -i '2p' %t.x/graph.csv
// RUN: not %check-rebuild --format csv %t.x 2>&1 | FileCheck --check-prefix=EDGES %s
// EDGES: check-rebuild: {{.*}}.x/graph.csv differs
//
// graph.gv: compared for dot and all only.
// RUN: rm -rf %t.x && cp -r %t.d %t.x && echo '// extra' >> %t.x/graph.gv
// RUN: not %check-rebuild --format all %t.x 2>&1 | FileCheck --check-prefix=DOT %s
// RUN: not %check-rebuild --format dot %t.x 2>&1 | FileCheck --check-prefix=DOT %s
// RUN: %check-rebuild %t.x
// DOT: check-rebuild: {{.*}}.x/graph.gv differs
//
// A file on one side only: graph.txt gone from the run's output; an mpi.csv
// the trace has no MPI calls for.
// RUN: rm -rf %t.x && cp -r %t.d %t.x && rm %t.x/graph.txt
// RUN: not %check-rebuild %t.x 2>&1 | FileCheck --check-prefix=TXT %s
// RUN: rm -rf %t.x && cp -r %t.d %t.x && cp %t.d/graph.csv %t.x/mpi.csv
// RUN: not %check-rebuild %t.x 2>&1 | FileCheck --check-prefix=MPI %s
// MPI: check-rebuild: {{.*}}.x/mpi.csv differs
//
// Nothing to rebuild from: the trace gone; and an unknown format.
// RUN: rm -rf %t.x && cp -r %t.d %t.x && rm -r %t.x/trace
// RUN: not %check-rebuild %t.x 2>&1 | FileCheck --check-prefix=NOTRACE %s
// NOTRACE: otter: error:
// RUN: not %check-rebuild --format canon,svg %t.d 2>&1 | FileCheck --check-prefix=FORMAT %s
// FORMAT: check-rebuild: unknown format 'svg'
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    x++;
#pragma omp task
    x++;
#pragma omp taskwait
  }
  printf("x=%d\n", x);
  return 0;
}
// OUT: x=2
