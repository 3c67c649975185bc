// Sampling alone (OTTER_TRACE=0, what otter-run --sample sets) writes an
// OTF2 archive of the samples alone in DIR/trace/ (docs/sampling.md,
// docs/trace.md "Samples"): its locations hold CallingContextSample
// records and nothing else -- no Enter/Leave, no task or thread record --,
// defined as with the trace (interrupt generator, calling contexts,
// regions of paradigm SAMPLING, the sample attributes), the anchor saying
// so (OTTER::CONTENT). `otter profile` gives the same profile from the
// archive alone (samples.csv removed) as from samples.csv; with
// OTTER_SAMPLE_CSV=0 no samples.csv is written at all, and a crash saves
// the samples in the archive. The utilities that read events (summary,
// dump, otter-graph) say in one line that the archive holds only samples
// and name `otter profile`; `otter report` writes the sampled profile alone
// (saying why); `otter diff` of two such runs compares their profiles.
// RUN: %otter-cc -fno-omit-frame-pointer -g -O1 -rdynamic %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_VERBOSE=1 %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: test -s %t.d/samples.csv && test -s %t.d/modules.csv && test ! -e %t.d/graph.gv
// RUN: otf2-print %t.d/trace/traces.otf2 > %t.events
// RUN: FileCheck --check-prefix=EVENTS %s < %t.events
// RUN: awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ {print $1}' %t.events | sort -u | FileCheck --check-prefix=KINDS %s
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: otf2-print -A %t.d/trace/traces.otf2 | FileCheck --check-prefix=ANCHOR %s
// RUN: python3 %otter_src/test/lit/Inputs/check-otf2-samples.py %t.d | FileCheck --check-prefix=SAMPLES %s
// RUN: %otter_bin/bin/otter profile --json %t.d > %t.csv.json
// RUN: %otter_bin/bin/otter profile %t.d > %t.csv.txt
// RUN: rm %t.d/samples.csv
// RUN: %otter_bin/bin/otter profile --json %t.d | cmp - %t.csv.json
// RUN: %otter_bin/bin/otter profile %t.d | cmp - %t.csv.txt
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=TABLE %s
//
// The utilities that read events: one line naming otter profile.
// RUN: not %otter_bin/bin/otter summary %t.d 2>&1 | FileCheck --check-prefix=ONLY %s
// RUN: not %otter_bin/bin/otter dump %t.d 2>&1 | FileCheck --check-prefix=ONLY %s
// RUN: %otter_bin/bin/otter report -o %t.html %t.d | FileCheck --check-prefix=REPORT %s
// RUN: FileCheck --check-prefix=HTML %s < %t.html
// RUN: not %otter_bin/bin/otter-graph -o %t.g %t.d 2>&1 | FileCheck --check-prefix=ONLY %s
//
// OTTER_SAMPLE_CSV=0: the archive alone (modules.csv and sampling.csv
// beside it for the names and the rate).
// RUN: rm -rf %t.n && env %otter_env OTTER_OUTPUT_DIR=%t.n OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_SAMPLE_CSV=0 %t 2>%t.n.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=NOCSV %s < %t.n.err
// RUN: test ! -e %t.n/samples.csv && test -s %t.n/modules.csv && test -s %t.n/sampling.csv && test -s %t.n/trace/traces.otf2
// RUN: %otter_bin/bin/otter profile %t.n | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter diff %t.d %t.n | FileCheck --check-prefix=DIFF %s
//
// A crash with OTTER_SAMPLE_CSV=0: the samples saved in the archive.
// RUN: rm -rf %t.c && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.c OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_SAMPLE_CSV=0 %t crash 2>%t.c.err; echo status=$?' | FileCheck --check-prefix=CRASH %s
// RUN: FileCheck --check-prefix=CRASHERR %s < %t.c.err
// RUN: %otter_bin/bin/otter profile %t.c | FileCheck --check-prefix=TABLE %s
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

volatile double Sink;

// TABLE: samples: {{[0-9]+}} of 2 threads, 1000.0 us per timer period

// DEFS-DAG: INTERRUPT_GENERATOR {{.*}}Name: "OTTER_SAMPLE timer"{{.*}}Mode: TIME{{.*}}Period: 1000000
// DEFS-DAG: ATTRIBUTE {{.*}}Name: "otter:sample_state"
// DEFS-DAG: LOCATION {{.*}}Name: "OpenMP thread 0"
// DEFS-DAG: REGION {{.*}}Name: "slow"{{.*}}Paradigm: SAMPLING
// DEFS-DAG: CALLING_CONTEXT {{[0-9]+}} {{.*}}Region: "slow"
// DEFS-DAG: CALLING_CONTEXT_PROPERTY {{.*}}"otter:sample_address"
// DEFS-NOT: Paradigm: OPENMP
// EVENTS: CALLING_CONTEXT_SAMPLE {{.*}}Calling Context: "slow"{{.*}}Interrupt Generator: "OTTER_SAMPLE timer"
// KINDS: CALLING_CONTEXT_SAMPLE
// KINDS-EMPTY:
// ANCHOR: Property name OTTER::CONTENT
// ANCHOR-NEXT: Property value samples
__attribute__((noinline)) void slow(void) {
  for (long I = 0; I < 50000000; ++I)
    Sink = Sink * 0.5 + I;
}
__attribute__((noinline)) void fast(void) {
  for (long I = 0; I < 5000000; ++I)
    Sink = Sink * 0.5 + I;
}

int main(int Argc, char **Argv) {
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int I = 0; I < 4; ++I) {
#pragma omp task
    {
      // TABLE: task alone-archive.c:[[@LINE-2]]
      slow();
      fast();
    }
  }
  if (Argc > 1 && !strcmp(Argv[1], "crash")) {
    fflush(stdout);
    raise(SIGSEGV);
  }
  printf("done\n");
  return 0;
}

// OUT: done
// ERR: otter: wrote {{.*}}/trace/ (OTF2, samples alone): {{[1-9][0-9]*}} samples
// ERR: otter: wrote {{.*}} (samples.csv): 2 threads, {{[1-9][0-9]*}} samples
// ERR: otter: recorded 0 events
// SAMPLES: ok
// ONLY: error: '{{.*}}/trace/traces.otf2' holds only samples (a run sampled alone: OTTER_SAMPLE with OTTER_TRACE=0), no events to read; otter profile {{.*}} reads them
// REPORT: wrote {{.*}}.html (the sampled profile alone: the run was sampled without a trace)
// HTML: <div id="samples-alone">Sampled without a trace (OTTER_SAMPLE with OTTER_TRACE=0): the report holds the sampled profile alone.
// HTML: <section id="profile"><h2>Sampled profile</h2>
// HTML: <tr><td>slow <span class="muted">(alone-archive.c:
// HTML-NOT: <section id="overview">
// NOCSV: otter: wrote {{.*}}: 2 threads, {{[1-9][0-9]*}} samples (in trace/)
// DIFF: per function (definition file:line):
// DIFF: slow (alone-archive.c:
// CRASH: status=139
// CRASHERR: the program crashed; saved the samples in {{.*}}/trace/
