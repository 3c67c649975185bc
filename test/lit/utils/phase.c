// --phase NAME (docs/utils.md, "One phase"): summary, parallelism, diagnose
// and export restricted to one phase of the program, every occurrence of
// it, with what it created: "setup" holds one parallel region of 3 tasks,
// "solve" occurs twice with a region of 4 tasks each; the region after the
// phases (5 tasks) is in neither. An unknown name is one line listing the
// phases; the full-graph export does not take --phase.
// RUN: %otter-cc -I%otter_src/include %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: otter summary %t.d | FileCheck --check-prefix=ALL %s
// RUN: otter summary --phase solve %t.d 2> %t.err | FileCheck --check-prefix=SOLVE %s
// RUN: FileCheck --check-prefix=SOLVE-ERR %s < %t.err
// RUN: otter summary --phase=setup %t.d 2> %t.err | FileCheck --check-prefix=SETUP %s
// RUN: FileCheck --check-prefix=SETUP-ERR %s < %t.err
// RUN: otter summary --phase solve --json %t.d 2>/dev/null | FileCheck --check-prefix=JSON %s
// RUN: otter parallelism --full --phase solve %t.d 2>/dev/null | FileCheck --check-prefix=PAR %s
// RUN: otter parallelism --phase solve --json %t.d 2>/dev/null | FileCheck --check-prefix=PARJSON %s
// RUN: otter diagnose --phase solve --json %t.d 2>/dev/null | FileCheck --check-prefix=DIAG %s
// RUN: rm -rf %t.x && mkdir %t.x
// RUN: otter export --format perfetto --phase setup -o %t.x/setup.json %t.d 2>/dev/null
// RUN: grep -o '"cat":"task"' %t.x/setup.json | wc -l | FileCheck --check-prefix=THREE %s
// RUN: otter export --format perfetto -o %t.x/all.json %t.d
// RUN: grep -o '"cat":"task"' %t.x/all.json | wc -l | FileCheck --check-prefix=SIXTEEN %s
// RUN: otter export --format csv --aggregate --phase solve -o %t.x %t.d 2>/dev/null
// RUN: FileCheck --check-prefix=AGG %s < %t.x/aggregate_nodes.csv
// RUN: not otter summary --phase nope %t.d 2> %t.err
// RUN: FileCheck --check-prefix=UNKNOWN --match-full-lines %s < %t.err
// RUN: not otter export --format dot --phase solve %t.d 2>&1 | FileCheck --check-prefix=DOT %s
// RUN: not otter dump --phase solve %t.d 2>&1 | FileCheck --check-prefix=DUMP %s
#include "Inputs/spin.h"
#include <otter/otter.h>
#include <stdio.h>

static int spawn(int n) {
  int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
#pragma omp single
  {
    for (int i = 0; i < n; ++i) {
#pragma omp task shared(s)
      {
#pragma omp atomic
        s += i;
      }
    }
    spin_ms(20); // the region's critical path runs through this implicit task
  }
  return s;
}

int main(void) {
  otter_phase_begin("setup");
  int total = spawn(3);
  otter_phase_end();
  for (int round = 0; round < 2; ++round) {
    otter_phase_begin("solve");
    total += spawn(4);
    otter_phase_end();
  }
  total += spawn(5);
  printf("total %d\n", total);
  return 0;
}

// OUT: total 25
// ALL: constructs   initial_task=1 implicit_task=8 task=16 parallel=4 single=8 barrier_implicit=16
// Two regions of 2 threads; the initial task as the phase's root, once.
// SOLVE: constructs   initial_task=1 implicit_task=4 task=8 parallel=2 single=4 barrier_implicit=8
// SOLVE: phase {{ *}}instances
// SOLVE-NEXT: {{^}}solve {{ *}}2
// SOLVE-NOT: setup
// SOLVE-ERR: otter: phase 'solve': 2 occurrences
// SETUP: constructs   initial_task=1 implicit_task=2 task=3 parallel=1 single=2 barrier_implicit=4
// SETUP-ERR: otter: phase 'setup': 1 occurrence{{$}}
// JSON: "explicit_tasks":8,"parallel_regions":2,
// JSON-SAME: "phases":[{"name":"solve","instances":2,
// The initial task's path runs through both occurrences, in order: in each,
// through the implicit task that runs the single (it spins 20 ms, longer
// than a task preempted on a loaded machine is likely to be held; without
// that, which of a region's tasks the path passes through, if any, is
// timing, and zero-length steps are not listed).
// PAR: parallel regions:
// PAR-NEXT: where
// PAR-NEXT: phase.c:36 {{ *}}2
// PAR: critical path ({{[0-9]+}} steps):
// PAR-NEXT: initial_task (program)
// PAR-COUNT-2: implicit_task {{.*}}phase.c:36
// PAR: top contributors
// Condensed (the default): the two occurrences' repeat shown once.
// RUN: otter parallelism --phase solve %t.d 2>/dev/null | FileCheck --check-prefix=CONDENSED %s
// CONDENSED: critical path (5 steps; a run of steps repeated back to back is shown once
// CONDENSED-NEXT: 2 times, 2 steps each: {{.*}}(4 steps)
// CONDENSED-NEXT: initial_task (program)
// CONDENSED-NEXT: implicit_task {{.*}}phase.c:36 {{.*}}(2 tasks)
// CONDENSED-NEXT: initial_task (program)
// CONDENSED-EMPTY:
// PARJSON: "regions":[{"region_id":{{[0-9]+}},"file":"{{.*}}phase.c","line":36,"instances":2,
// DIAG: "findings":[
// THREE: {{^}}3{{$}}
// SIXTEEN: {{^}}16{{$}}
// AGG-DAG: ,task,"{{.*}}phase.c:40",{{[0-9]+}},8,
// AGG-DAG: ,parallel,"{{.*}}phase.c:36",{{[0-9]+}},2,
// UNKNOWN: otter: error: no phase 'nope' in the trace; its phases: setup, solve
// DOT: otter: error: --phase applies to --format perfetto, states and --aggregate
// DUMP: otter: error: unknown option '--phase' for 'dump'
// ROWS: phases (each analysed alone, as --phase NAME):
// ROWS-NEXT: phase {{ *}}occurrences {{ *}}work {{ *}}span {{ *}}parallelism {{ *}}burdened
// ROWS-DAG: {{^}}  solve {{ *}}2 {{ *}}{{[0-9.]+ [mun]?s}}
// ROWS-DAG: {{^}}  setup {{ *}}1 {{ *}}{{[0-9.]+ [mun]?s}}
// ROWS: critical path
// REPORT: <div id="phase">Phase <b>solve</b> only
// PICTURE: wrote {{.*}}solve.svg (aggregated graph)
// ONE: {{^}}1{{$}}
// PICFULL: otter: error: --phase draws the aggregated graph
// DIFFNO: otter: error: '{{.*}}': no phase 'nope' in the trace; its phases: setup, solve

// Without --phase, parallelism has a row per phase: the phase alone, the
// numbers of --phase NAME. simulate, report and diff take --phase too: the
// phase's work and span; picture draws the phase's aggregated graph.
// RUN: otter parallelism %t.d | FileCheck --check-prefix=ROWS %s
// RUN: otter parallelism --json %t.d > %t.x/all.json
// RUN: otter parallelism --phase solve --json %t.d > %t.x/solve.json 2>/dev/null
// RUN: otter parallelism --phase setup --json %t.d > %t.x/setup.json 2>/dev/null
// RUN: otter simulate --phase solve --cores 1,2 --json %t.d > %t.x/sim.json 2> %t.err
// RUN: FileCheck --check-prefix=SOLVE-ERR %s < %t.err
// RUN: otter report --phase solve --no-simulate -o %t.x/solve.html %t.d 2>/dev/null
// RUN: FileCheck --check-prefix=REPORT %s < %t.x/solve.html
// RUN: otter diff --phase solve --json %t.d %t.d > %t.x/diff.json 2>/dev/null
// RUN: python3 %S/Inputs/phase_rows.py %t.x/all.json solve=%t.x/solve.json setup=%t.x/setup.json --simulate solve %t.x/sim.json --report solve %t.x/solve.html --diff solve %t.x/diff.json
// RUN: otter picture --phase solve -o %t.x/solve.svg %t.d 2>/dev/null | FileCheck --check-prefix=PICTURE %s
// RUN: grep -c 'phase.c:40' %t.x/solve.svg | FileCheck --check-prefix=ONE %s
// RUN: grep -c '>8x, ' %t.x/solve.svg | FileCheck --check-prefix=ONE %s
// RUN: not otter picture --full --phase solve %t.d 2>&1 | FileCheck --check-prefix=PICFULL %s
// RUN: not otter simulate --phase nope %t.d 2>&1 | FileCheck --check-prefix=UNKNOWN --match-full-lines %s
// RUN: not otter report --phase nope -o %t.x/nope.html %t.d 2>&1 | FileCheck --check-prefix=UNKNOWN --match-full-lines %s
// RUN: not otter diff --phase nope %t.d %t.d 2>&1 | FileCheck --check-prefix=DIFFNO %s
