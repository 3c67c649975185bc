// A parallel region whose body ends in a call (the outlined function
// tail-calls it at -O2, so no frame names the region while it runs). Each
// sample carries the code address of its task's construct (samples.csv's
// region columns; the archive's otter:sample_region), so the profile
// still names the exact region, sampling alone or with the trace (from
// samples.csv and from the archive alone); built with -fno-optimize-sibling-calls, the
// frames name it too (docs/sampling.md). A task beside it (clang's task
// entry returns after the body: no tail call) keeps its own label, not
// the region's.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O2 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.d | FileCheck --check-prefix=ALONE --implicit-check-not='tail call' --implicit-check-not='(outside any construct)' %s
// RUN: head -1 %t.d/samples.csv | FileCheck --check-prefix=CSV %s
// RUN: rm -rf %t.t && env %otter_env OTTER_OUTPUT_DIR=%t.t OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.t | FileCheck --check-prefix=TRACED --implicit-check-not='tail call' --implicit-check-not='(outside any construct)' %s
// RUN: rm %t.t/samples.csv && %otter_bin/bin/otter profile --format folded %t.t | FileCheck --check-prefix=TRACED --implicit-check-not='tail call' --implicit-check-not='(outside any construct)' %s
// RUN: %otter_bin/bin/otter report -o %t.html %t.t && FileCheck --check-prefix=REPORT %s < %t.html
// RUN: %clang -fopenmp -fno-omit-frame-pointer -fno-optimize-sibling-calls -g -O2 %s -o %t.keep
// RUN: rm -rf %t.k && env %otter_env OTTER_OUTPUT_DIR=%t.k OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t.keep | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.k | FileCheck --check-prefix=KEEP --implicit-check-not='tail call' --implicit-check-not='(outside any construct)' %s
#include <stdio.h>

__attribute__((noinline)) void work(int T) {
  volatile double Acc = 0; // per thread
  for (long I = 0; I < 40000000L; ++I)
    Acc = Acc * 0.5 + I + T;
}

__attribute__((noinline)) void task_work(int T) {
  volatile double Acc = 0;
  for (long I = 0; I < 40000000L; ++I)
    Acc = Acc * 0.25 + I + T;
}

__attribute__((noinline)) void spawn(void) {
// ALONE-DAG: task tail-call.c:[[#@LINE+3]];task_work {{[0-9]+}}
// TRACED-DAG: task tail-call.c:[[#@LINE+2]];task_work {{[0-9]+}}
// KEEP-DAG: task tail-call.c:[[#@LINE+1]];task_work {{[0-9]+}}
#pragma omp task
  task_work(2);
}

int main(void) {
// ALONE-DAG: parallel tail-call.c:[[#@LINE+3]];work {{[0-9]+}}
// TRACED-DAG: parallel tail-call.c:[[#@LINE+2]];work {{[0-9]+}}
// KEEP-DAG: parallel tail-call.c:[[#@LINE+1]];work {{[0-9]+}}
#pragma omp parallel num_threads(2)
  work(1);
#pragma omp parallel num_threads(2)
#pragma omp single
  spawn();
  printf("done\n");
  return 0;
}
// OUT: done
// CSV: weight,truncated,runtime_skipped,region,region_kind,stack
// REPORT: {{[0-9]+}} samples of 2 threads,{{.*}}/trace/traces.otf2, its samples; otter profile prints the same
// REPORT: <td>parallel tail-call.c:{{[0-9]+}}</td>
