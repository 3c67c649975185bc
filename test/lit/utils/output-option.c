// -o means the same in every command that takes it (docs/utils.md,
// "Where the output goes"): a directory for a command that writes several
// files, a file for one that writes one (an existing directory, or a name
// ending in '/', gets the file under its default name); a missing
// directory, or a file's missing parent directories, are created. Each
// case below writes into a nested directory that does not exist yet.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.d %t.o && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
//
// Several files, -o DIR: graph, export --format csv (full and aggregated).
// RUN: otter graph --format csv,dot -o %t.o/graph/a/b %t.d | FileCheck --check-prefix=GRAPH %s
// GRAPH: wrote {{.*}}.o/graph/a/b/nodes.csv
// GRAPH-NEXT: wrote {{.*}}.o/graph/a/b/graph.csv
// GRAPH-NEXT: wrote {{.*}}.o/graph/a/b/graph.gv
// RUN: test -s %t.o/graph/a/b/nodes.csv && test -s %t.o/graph/a/b/graph.gv
// RUN: otter export --format csv -o %t.o/csv/a/b %t.d | FileCheck --check-prefix=CSV %s
// CSV: wrote {{.*}}.o/csv/a/b/nodes.csv
// CSV-NEXT: wrote {{.*}}.o/csv/a/b/graph.csv
// RUN: test -s %t.o/csv/a/b/graph.csv
// RUN: otter export --format csv --aggregate -o %t.o/agg/a/b %t.d | FileCheck --check-prefix=AGGCSV %s
// AGGCSV: wrote {{.*}}.o/agg/a/b/aggregate_nodes.csv
// AGGCSV-NEXT: wrote {{.*}}.o/agg/a/b/aggregate_edges.csv
// RUN: test -s %t.o/agg/a/b/aggregate_edges.csv
//
// One file, -o FILE: export --format perfetto, states, dot (full and
// aggregated, with --svg beside it), picture, report; simulate --svg FILE.
// RUN: otter export --format perfetto -o %t.o/pf/a/b/t.json %t.d | FileCheck --check-prefix=PERFETTO %s
// PERFETTO: wrote {{.*}}.o/pf/a/b/t.json
// RUN: python3 -c "import json,sys; json.load(open(sys.argv[1]))" %t.o/pf/a/b/t.json
// RUN: otter export --format states -o %t.o/st/a/b/s.csv %t.d | FileCheck --check-prefix=STATES %s
// STATES: wrote {{.*}}.o/st/a/b/s.csv
// RUN: test -s %t.o/st/a/b/s.csv
// RUN: otter export --format dot --svg -o %t.o/dot/a/b/full.gv %t.d | FileCheck --check-prefix=DOT %s
// DOT: wrote {{.*}}.o/dot/a/b/full.gv
// DOT-NEXT: wrote {{.*}}.o/dot/a/b/full.svg
// RUN: diff %t.o/dot/a/b/full.gv %t.o/graph/a/b/graph.gv
// RUN: ls -A %t.o/dot/a/b | FileCheck --check-prefix=DOTDIR --implicit-check-not={{.}} %s
// DOTDIR: full.gv
// DOTDIR-NEXT: full.svg
// RUN: otter export --format dot --aggregate -o %t.o/aggdot/a/b/agg.gv %t.d | FileCheck --check-prefix=AGGDOT %s
// AGGDOT: wrote {{.*}}.o/aggdot/a/b/agg.gv
// RUN: otter picture -o %t.o/pic/a/b/g.svg %t.d | FileCheck --check-prefix=PICTURE %s
// PICTURE: wrote {{.*}}.o/pic/a/b/g.svg (full graph)
// RUN: otter report --no-simulate -o %t.o/rep/a/b/r.html %t.d | FileCheck --check-prefix=REPORT %s
// REPORT: wrote {{.*}}.o/rep/a/b/r.html
// RUN: otter simulate --cores 1,2 --svg %t.o/sim/a/b/plot.svg %t.d > /dev/null
// RUN: test -s %t.o/sim/a/b/plot.svg
//
// A one-file command given a directory (existing, or ending in '/'): its
// default name inside it.
// RUN: otter picture -o %t.o/pic %t.d | FileCheck --check-prefix=INTO %s
// INTO: wrote {{.*}}.o/pic/graph.svg (full graph)
// RUN: otter report --no-simulate -o %t.o/new/dir/ %t.d | FileCheck --check-prefix=SLASH %s
// SLASH: wrote {{.*}}.o/new/dir/report.html
// RUN: otter export --format dot -o %t.o/graph/a/b %t.d | FileCheck --check-prefix=INTODOT %s
// INTODOT: wrote {{.*}}.o/graph/a/b/graph.gv
//
// A file where a directory must be: one error line naming it.
// RUN: not otter graph -o %t.o/pf/a/b/t.json/x %t.d 2>&1 | FileCheck --check-prefix=INWAY %s
// INWAY: otter: error: cannot create output directory '{{.*}}t.json{{.*}}'
// RUN: not otter report --no-simulate -o %t.o/pf/a/b/t.json/r.html %t.d 2>&1 | FileCheck --check-prefix=INWAY %s
//
// `otter graph` rebuilds the graph in its own process: a copy of otter with
// no otter-graph beside it or on PATH writes otter-graph's files.
// RUN: rm -rf %t.bin && mkdir %t.bin && cp %otter_bin/bin/otter %t.bin/otter
// RUN: env PATH=/usr/bin:/bin %t.bin/otter graph --format canon -o %t.o/alone %t.d
// RUN: otter-graph --format canon -o %t.o/ref %t.d
// RUN: diff %t.o/alone/graph.txt %t.o/ref/graph.txt
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 4; ++i) {
#pragma omp task shared(n)
    {
#pragma omp atomic
      n += i;
    }
  }
  printf("%d\n", n);
  return 0;
}
