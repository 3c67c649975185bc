// Which tables are compressed: by default only nodes.csv of a graph of more
// than OTTER_CSV_ZSTD_NODES nodes (graph.csv: OTTER_CSV_ZSTD_EDGES, 0 by
// default, never); the .zst file holds exactly the plain table, and the run
// names the files it wrote. otter-graph's --csv-zstd-nodes and
// --csv-zstd-edges do the same from the trace.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.plain && env %otter_env OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.plain %t 2> %t.plain.err
// RUN: rm -rf %t.n && env %otter_env OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.n OTTER_CSV_ZSTD_NODES=10 OTTER_DOT_MAX_NODES=10 %t 2> %t.n.err
// RUN: rm -rf %t.ne && env %otter_env OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.ne OTTER_CSV_ZSTD_NODES=10 OTTER_CSV_ZSTD_EDGES=10 %t 2> %t.ne.err
// RUN: FileCheck --check-prefix=PLAIN %s < %t.plain.err
// RUN: FileCheck --check-prefix=NODES %s < %t.n.err
// RUN: FileCheck --check-prefix=BOTH %s < %t.ne.err
// RUN: zstdcat %t.n/nodes.csv.zst | diff - %t.plain/nodes.csv
// RUN: diff %t.n/graph.csv %t.plain/graph.csv
// RUN: zstdcat %t.ne/nodes.csv.zst | diff - %t.plain/nodes.csv
// RUN: zstdcat %t.ne/graph.csv.zst | diff - %t.plain/graph.csv
// RUN: rm -rf %t.g && otter-graph %t.plain -o %t.g --csv-zstd-nodes 10 --csv-zstd-edges 10
// RUN: zstdcat %t.g/nodes.csv.zst | diff - %t.plain/nodes.csv
// RUN: zstdcat %t.g/graph.csv.zst | diff - %t.plain/graph.csv
// RUN: rm -rf %t.g2 && otter-graph %t.plain -o %t.g2 --csv-zstd-nodes 10
// RUN: zstdcat %t.g2/nodes.csv.zst | diff - %t.plain/nodes.csv
// RUN: diff %t.g2/graph.csv %t.plain/graph.csv
// RUN: not otter-graph %t.plain -o %t.g3 --csv-zstd-edges lots 2>&1 | FileCheck --check-prefix=BAD %s
#include <stdio.h>

int main(void) {
  int Sum = 0;
#pragma omp parallel
#pragma omp single
  for (int I = 0; I < 20; ++I) {
#pragma omp task shared(Sum)
    {
#pragma omp atomic
      Sum += I;
    }
  }
  printf("sum=%d\n", Sum);
  return 0;
}
// PLAIN: otter: wrote {{.*}} (nodes.csv graph.csv graph.gv)
// NODES: the full graph is in nodes.csv.zst and graph.csv{{$}}
// NODES: otter: wrote {{.*}} (nodes.csv.zst graph.csv graph.gv)
// BOTH: otter: wrote {{.*}} (nodes.csv.zst graph.csv.zst graph.gv)
// BAD: bad --csv-zstd-edges 'lots' (use a whole number of nodes, 0 for no limit)
