// Legible at real sizes: a stencil-like program of many parallel regions
// (a graph of about 2,000 nodes) gets the aggregated picture, because its
// full graph would be far taller than the limit; the output says which
// graph and why, and every SVG the tools write stays within 20,000 pt and
// 2 MB. The same program with a few steps gets the full graph. The
// report, rendered by headless Chromium, opens with the whole graph in its
// box (fitted), has the graph's legend, and the program's phases, task
// labels and marks; graph.gv and the pictures carry a legend, and nothing
// user-visible calls a path edge "critical".
// REQUIRES: plugin, chromium
// RUN: %otter-cc -I%otter_src/include %s -o %t
// RUN: rm -rf %t.d %t.small && %otter-run OTTER_OUTPUT_DIR=%t.d %t 220 | FileCheck --check-prefix=OUT %s
// OUT: sum {{[0-9]+}}
// RUN: otter picture -o %t.svg %t.d > %t.pic
// RUN: FileCheck --check-prefix=PIC %s < %t.pic
// PIC: wrote {{.*}}.svg (aggregated graph): the aggregated graph, one node per source construct: the full graph ({{[0-9,]+}} nodes, {{[0-9,]+}} deep) would be about {{.*}}, over the limits (20,000 pt tall or wide, 2.0 MB of SVG)
// RUN: python3 %S/Inputs/picture_limits.py --min-nodes 1500 --pictured %t.pic %t.svg
// RUN: FileCheck --check-prefix=LEGEND %s < %t.svg
// LEGEND: <title>legend</title>
// LEGEND: legend: one node per source construct
// LEGEND: creation, with its count
// LEGEND: on the longest path through the graph
// RUN: not grep -i '>critical<' %t.svg %t.d/graph.gv
// --full draws it anyway and says it is over the limits.
// RUN: otter picture --full -o %t.full.svg %t.d | FileCheck --check-prefix=FULL %s
// FULL: (full graph): the full task graph: {{[0-9,]+}} nodes, {{.*}} (as asked, over the limits: {{[0-9,]+}} pt tall)
// The runtime's graph.gv has its legend.
// RUN: FileCheck --check-prefix=GV %s < %t.d/graph.gv
// GV: legend [shape=none
// GV-SAME: parallel_begin, parallel_end
// GV-SAME: create</FONT>: the creating task
// A few steps: the full graph, within the limits, with its legend.
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.small %t 3 > /dev/null
// RUN: otter picture --json -o %t.small.svg %t.small | FileCheck --check-prefix=SMALL %s
// SMALL: {"written":["{{.*}}.small.svg"],"graph":"full","why":"the full task graph: {{[0-9,]+}} nodes, {{[0-9,]+}} deep, {{[0-9,]+}} pt tall, {{[0-9,]+}} pt wide, {{[0-9,]+}} kB (within 20,000 pt tall or wide, 2.0 MB of SVG)"}
// RUN: FileCheck --check-prefix=SMALLSVG %s < %t.small.svg
// SMALLSVG-DAG: <title>legend</title>
// SMALLSVG-DAG: implicit_task
// SMALLSVG-DAG: paths relative to
// The report: the aggregated graph, fitted, with the sections.
// RUN: otter report --cores 1,2 -o %t.html %t.d | FileCheck --check-prefix=WROTE %s
// WROTE: wrote {{.*}}.html
// RUN: python3 %S/Inputs/picture_limits.py %t.html
// RUN: not grep -i '>critical<' %t.html
// RUN: FileCheck --check-prefix=HTML %s < %t.html
// HTML: id="graph-why">Drawn: the aggregated graph, one node per source construct: the full graph
// HTML: id="graph-legend">Legend:
// HTML: class="gview" id="graph-aggregate"
// HTML: <title>legend</title>
// HTML: <section id="phases"><h2>Phases (2)</h2>
// HTML: data-phase="sweep"
// HTML: <section id="task-labels"><h2>Task labels (2)</h2>
// HTML: data-label="even"
// HTML: <section id="marks"><h2>Marks (4)</h2>
// HTML: data-mark="checkpoint"
// Chromium runs without LD_PRELOAD (a sanitizer build preloads its
// runtime, and the uninstrumented browser hangs with it).
// DEFINE: %{chrome} = env -u LD_PRELOAD chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir=%t.profile
// RUN: otter parallelism --json %t.d > %t.par.json
// RUN: otter simulate --json --cores 1,2 %t.d > %t.sim.json
// RUN: %{chrome} --window-size=1280,900 --enable-logging=stderr --v=0 --dump-dom file://%t.html > %t.dom 2> %t.log
// RUN: %{chrome} --screenshot=%t.png --window-size=1280,4000 file://%t.html 2> %t.shot.log
// RUN: python3 %S/Inputs/report_check.py %t.dom %t.par.json %t.sim.json %t.png %t.log aggregate annotations
#include <otter/otter.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
static double grid[2][N];

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 200;
  otter_phase_begin("init");
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < N; ++i)
    grid[0][i] = grid[1][i] = i % 7;
  otter_phase_end();
  otter_phase_begin("sweep");
  for (int t = 0; t < steps; ++t) {
    const double *in = grid[t % 2];
    double *out = grid[(t + 1) % 2];
#pragma omp parallel for num_threads(2)
    for (int i = 1; i < N - 1; ++i)
      out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
    if (t % 64 == 0)
      otter_mark("checkpoint");
  }
  otter_phase_end();
  long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
#pragma omp single
  for (int k = 0; k < 4; ++k) {
#pragma omp task shared(sum)
    {
      otter_task_label(k % 2 ? "odd" : "even");
#pragma omp atomic
      sum += (long)grid[steps % 2][k + 1];
    }
  }
  printf("sum %ld\n", sum);
  return 0;
}
