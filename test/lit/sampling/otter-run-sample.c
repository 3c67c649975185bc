// otter-run --sample is sampling alone: samples.csv and the archive of the
// samples alone (trace/), and neither the per-event trace
// nor the graph; --sample=HZ sets the rate, -f keeps graph files asked for.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && %otter_bin/bin/otter-run --sample -o %t.d %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: test -s %t.d/samples.csv && test -s %t.d/trace/traces.otf2 && test ! -e %t.d/graph.gv
// RUN: rm -rf %t.e && %otter_bin/bin/otter-run --sample=50 -f canon -v -o %t.e %t 2>%t.err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=RATE %s < %t.err2
// RUN: test -s %t.e/graph.txt && test -s %t.e/trace/traces.otf2
// RUN: %otter_bin/bin/otter-run --help | FileCheck --check-prefix=HELP %s
#include <stdio.h>

static volatile double Sink;

int main(void) {
#pragma omp parallel num_threads(2)
  for (int I = 0; I < 20000000; ++I)
    Sink = Sink * 0.5 + I;
  printf("done\n");
  return 0;
}

// OUT: done
// ERR: otter: wrote {{.*}} (samples.csv): 2 threads, {{[1-9][0-9]*}} samples
// RATE: otter: sampling: 50 Hz, signal {{[0-9]+}}, 2 threads sampled, 0 samples dropped
// HELP: --sample[=HZ]
// HELP: -h, --help
