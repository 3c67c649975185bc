// otter simulate: 8 independent tasks of 4 ms in a team of 2. The replay
// without overheads (--ideal) takes exactly the work on one core and the
// span on many, and a greedy time in between; with the overheads measured,
// the replay on the trace's own 2 threads comes near the measured run (the
// machine may be loaded: loose), the one on 8 cores within a greedy
// schedule's bound, and the bounds are those of otter parallelism.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism --json %t.d > %t.par.json
// RUN: otter simulate --json %t.d > %t.sim.json
// RUN: otter simulate --json --ideal --cores 1,3,256 %t.d > %t.ideal.json
// RUN: python3 %S/Inputs/simulate_check.py %t.par.json %t.sim.json %t.ideal.json
// RUN: otter simulate --cores 2,8 %t.d | FileCheck %s
// CHECK: work
// CHECK: span
// CHECK: burdened span
// CHECK: measured {{.*}} on 2 thread(s)
// CHECK: cores predicted speedup efficiency work/P span burdened
// CHECK-NEXT: {{^ +2 }}
// CHECK-NEXT: {{^ +8 }}
// The pictures: the scalability plot (a point per core count, the bounds,
// the measured run), the full graph (few tasks), the aggregated one with
// the critical path in red. Each is well-formed SVG.
// RUN: otter simulate --cores 1,2,4 --svg %t.plot.svg %t.d > /dev/null
// RUN: python3 -c "import xml.dom.minidom as m; m.parse('%t.plot.svg')"
// RUN: FileCheck %s --check-prefix=PLOT < %t.plot.svg
// PLOT: Predicted time on P cores
// PLOT-COUNT-3: <circle {{.*}}<title>{{[124]}} cores:
// PLOT: measured: 2 threads
// PLOT: burdened span
// RUN: otter picture -o %t.full.svg %t.d | FileCheck %s --check-prefix=FULL
// FULL: wrote {{.*}}.full.svg (full graph)
// RUN: python3 -c "import xml.dom.minidom as m; m.parse('%t.full.svg')"
// RUN: FileCheck %s --check-prefix=FULLSVG < %t.full.svg
// FULLSVG: simulate.c:[[#TASKLINE:]]
// RUN: otter picture --aggregate -o %t.agg.svg %t.d | FileCheck %s --check-prefix=AGG
// AGG: wrote {{.*}}.agg.svg (aggregated graph)
// RUN: python3 -c "import xml.dom.minidom as m; m.parse('%t.agg.svg')"
// RUN: FileCheck %s --check-prefix=AGGSVG < %t.agg.svg
// AGGSVG: <title>otter_aggregate</title>
// AGGSVG: on the path:
// AGGSVG: #c0392b
// RUN: not otter picture --full --aggregate %t.d 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: otter: error: --full and --aggregate exclude each other
// RUN: not otter simulate --cores 0 %t.d 2>&1 | FileCheck %s --check-prefix=BADCORES
// BADCORES: otter: error: --cores: '0' is not a core count (1..65535)
// RUN: not otter simulate --bogus %t.d 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: otter: error: unknown option '--bogus' for 'simulate'
// RUN: not otter simulate %t.nonexistent 2>&1 | FileCheck %s --check-prefix=NOARCH
// NOARCH: otter: error: {{.*}}nonexistent
// RUN: otter simulate --help | FileCheck %s --check-prefix=HELP
// HELP: usage: otter simulate [--cores LIST]
#include "Inputs/spin.h"

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 8; ++i) {
#pragma omp task
      spin_ms(4);
    }
#pragma omp taskwait
  }
  return 0;
}
