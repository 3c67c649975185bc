// otter report in a real browser: headless Chromium renders the HTML
// report of a small run (the full graph) and of a larger one (a chain of
// 400 dependent tasks: its full picture would be far taller than the
// limit, so the aggregated graph); the DOM holds the numbers `otter
// parallelism --json` and `otter simulate --json` print, the page's script
// ran and fitted the graph into its box, no script error and no console
// message, a screenshot is taken.
// REQUIRES: plugin, chromium
// RUN: %otter-cc -O1 %s -o %t
// Chromium runs without LD_PRELOAD: in a sanitizer build the test
// environment preloads the sanitizer runtime, and the (uninstrumented)
// browser hangs with it.
// DEFINE: %{chrome} = env -u LD_PRELOAD chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir=%t.profile
// RUN: rm -rf %t.d %t.big && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t 4
// RUN: otter report -o %t.html %t.d | FileCheck %s
// CHECK: wrote {{.*}}.html
// RUN: otter parallelism --json %t.d > %t.par.json
// RUN: otter simulate --json %t.d > %t.sim.json
// RUN: %{chrome} --enable-logging=stderr --v=0 --dump-dom file://%t.html > %t.dom 2> %t.log
// RUN: %{chrome} --screenshot=%t.png --window-size=1280,4000 file://%t.html 2> %t.shot.log
// RUN: python3 %S/Inputs/report_check.py %t.dom %t.par.json %t.sim.json %t.png %t.log full
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.big OMP_NUM_THREADS=2 %t 400
// RUN: otter report -o %t.big.html --cores 1,2,4 --window 0:5 %t.big
// RUN: otter parallelism --json %t.big > %t.big.par.json
// RUN: otter simulate --json --cores 1,2,4 %t.big > %t.big.sim.json
// RUN: %{chrome} --enable-logging=stderr --v=0 --dump-dom file://%t.big.html > %t.big.dom 2> %t.big.log
// RUN: %{chrome} --screenshot=%t.big.png --window-size=1280,4000 file://%t.big.html 2> %t.big.shot.log
// RUN: python3 %S/Inputs/report_check.py %t.big.dom %t.big.par.json %t.big.sim.json %t.big.png %t.big.log aggregate
// RUN: not otter report --window 5:1 %t.d 2>&1 | FileCheck %s --check-prefix=BADWIN
// BADWIN: otter: error: --window needs FROM:TO in ms, FROM < TO, not '5:1'
#include "Inputs/spin.h"
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int a = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < n; ++i) {
#pragma omp task depend(inout : a)
      spin_ms(0.01);
#pragma omp task
      spin_ms(0.02);
    }
#pragma omp taskwait
  }
  return a;
}
