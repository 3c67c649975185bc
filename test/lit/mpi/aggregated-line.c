// An MPI job whose ranks' graphs are above OTTER_DOT_MAX_NODES: every
// rank writes an aggregated graph.gv, and the job says so in one line
// (rank 0's, as for the "wrote" line), not one line per rank (issue 27
// item 6).
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && env OTTER_DOT_MAX_NODES=5 %mpirun -np 3 otter-run -o %t %t.prog > %t.out 2> %t.err
// RUN: grep -c "is aggregated" %t.err | FileCheck --check-prefix=ONCE %s
// RUN: FileCheck --check-prefix=LINE %s < %t.err
// RUN: grep -l "otter aggregated task graph" %t/rank-0/graph.gv %t/rank-1/graph.gv %t/rank-2/graph.gv | wc -l | FileCheck --check-prefix=ALL %s
// The job's graph.gv (otter-graph) by the same limit: one node per rank
// and construct and per collective call site, with counts, and a valid
// dot file; the full one with --dot-max-nodes 0.
// RUN: otter-graph %t -o %t/jg --dot-max-nodes 5 2> %t/jg.err
// RUN: FileCheck --check-prefix=JOBLINE %s < %t/jg.err
// RUN: FileCheck --check-prefix=JOBDOT %s < %t/jg/graph.gv
// RUN: dot -Tsvg %t/jg/graph.gv -o /dev/null
// RUN: otter-graph %t -o %t/jfull --dot-max-nodes 0 --csv-zstd-nodes 0 --csv-zstd-edges 0
// RUN: not grep -q "otter aggregated job graph" %t/jfull/graph.gv
// The job's two big tables: zstd-compressed above 5,000 nodes by default
// (6,000 tasks here), plain when the limits are given as 0.
// RUN: zstdcat %t/jg/nodes.csv.zst | head -1 | FileCheck --check-prefix=NODES %s
// RUN: zstdcat %t/jg/graph.csv.zst | head -1 | FileCheck --check-prefix=EDGES %s
// RUN: test ! -e %t/jg/nodes.csv && test ! -e %t/jg/graph.csv
// RUN: test -f %t/jfull/nodes.csv && test -f %t/jfull/graph.csv && test ! -e %t/jfull/nodes.csv.zst
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 2000; ++i) {
#pragma omp task shared(n)
    {
#pragma omp atomic
      n += 1;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return n == 2000 ? 0 : 1;
}

// ONCE: 1
// LINE: otter: rank-0/graph.gv is aggregated, one node per construct ({{[0-9]+}} nodes > OTTER_DOT_MAX_NODES=5), as is every rank's above that many nodes; the full graphs are in nodes.csv and graph.csv
// ALL: 3
// JOBLINE: otter-graph: the job's graph.gv is aggregated, one node per rank and construct ({{[0-9]+}} nodes > --dot-max-nodes 5; 0: the full graph)
// JOBDOT: // otter aggregated job graph:
// JOBDOT: label="aggregated: {{[0-9]+}} nodes in {{[0-9]+}} constructs of 3 ranks"
// JOBDOT-DAG: label="rank 2\ntask\n{{.*}}aggregated-line.c:[[#@LINE-17]]:{{[0-9]+}}\n×2000"
// JOBDOT-DAG: label="MPI_Barrier\n{{.*}}aggregated-line.c:[[#@LINE-12]]:{{[0-9]+}}\n×1"
// NODES: id,rank,node,kind,parent
// EDGES: source,target,kind
