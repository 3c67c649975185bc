// The samples in the OTF2 trace (docs/trace.md, "Samples"): sampled with
// the trace on, each thread's samples are CallingContextSample records of
// its location, merged in time order with its events (check-trace: OTF2's
// tools read the archive, times never go back), the same samples with the
// same call paths and states as samples.csv (check-otf2-samples.py), and
// defined as Score-P defines them: an interrupt generator, a calling
// context per call path node, a region of paradigm SAMPLING per sampled
// function (named by the dynamic symbol table: -rdynamic). OTTER's reader
// skips them: the graph rebuilt from the trace equals the live one. With
// samples.csv removed, `otter profile` reads the archive's samples and
// finds the same hot function.
// RUN: %otter-cc -fno-omit-frame-pointer -g -O1 -rdynamic %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_GRAPH_FORMAT=canon,csv OTTER_VERBOSE=1 %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-trace %t.d
// RUN: %check-rebuild %t.d
// RUN: python3 %otter_src/test/lit/Inputs/check-otf2-samples.py %t.d | FileCheck --check-prefix=SAMPLES %s
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: otf2-print %t.d/trace/traces.otf2 | FileCheck --check-prefix=EVENTS %s
// RUN: %otter_bin/bin/otter profile --json %t.d > %t.csv.json
// RUN: rm %t.d/samples.csv
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --hot slow
// RUN: %otter_bin/bin/otter profile --json %t.d | cmp - %t.csv.json
#include <omp.h>
#include <stdio.h>

volatile double Sink;

// TABLE: samples: {{[0-9]+}} of 2 threads, 1000.0 us per timer period

// DEFS-DAG: INTERRUPT_GENERATOR {{.*}}Name: "OTTER_SAMPLE timer"{{.*}}Mode: TIME{{.*}}Period: 1000000
// DEFS-DAG: ATTRIBUTE {{.*}}Name: "otter:sample_state"
// DEFS-DAG: REGION {{.*}}Name: "slow"{{.*}}Paradigm: SAMPLING
// DEFS-DAG: REGION {{.*}}Name: "fast"{{.*}}Paradigm: SAMPLING
// DEFS-DAG: CALLING_CONTEXT {{[0-9]+}} {{.*}}Region: "slow"
// DEFS-DAG: CALLING_CONTEXT_PROPERTY {{.*}}"otter:sample_address"
// EVENTS: CALLING_CONTEXT_SAMPLE {{.*}}Calling Context: "slow"{{.*}}Interrupt Generator: "OTTER_SAMPLE timer"
__attribute__((noinline)) void slow(void) {
  for (long I = 0; I < 50000000; ++I)
    Sink = Sink * 0.5 + I;
}
__attribute__((noinline)) void fast(void) {
  for (long I = 0; I < 5000000; ++I)
    Sink = Sink * 0.5 + I;
}

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int I = 0; I < 4; ++I) {
#pragma omp task
    {
      // TABLE: task otf2-samples.c:[[@LINE-2]]
      slow();
      fast();
    }
  }
  printf("done\n");
  return 0;
}

// OUT: done
// ERR: otter: wrote {{.*}}/trace/ (OTF2): {{[0-9]+}} events, {{.*}}, {{[0-9]+}} samples
// SAMPLES: ok
