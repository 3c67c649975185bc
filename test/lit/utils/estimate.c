// otter estimate, like scorep-score: per construct the events of the
// traced run, their share and bytes, the predicted size and recording time
// (x --scale), the constants' sources in the header; --max-size writes a
// filter file that leaves out the function making the most events
// (many_tasks), not the one making few (few_tasks), and tracing the
// program again with that filter really stays under the size. A size the
// functions cannot get under fails with the reason; a run sampled alone
// (no trace) is refused.
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter estimate %t.d | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter estimate --scale 10 %t.d | FileCheck --check-prefix=SCALE %s
// RUN: %otter_bin/bin/otter estimate --max-size 40K -o %t.filter %t.d | FileCheck --check-prefix=FIT %s
// RUN: FileCheck --check-prefix=FILTER %s < %t.filter
// RUN: rm -rf %t.f && env %otter_env OTTER_OUTPUT_DIR=%t.f OTTER_GRAPH_FORMAT=none OTTER_FILTER=%t.filter %t | FileCheck --check-prefix=OUT %s
// RUN: python3 -c "import os,sys; n=sum(os.path.getsize(os.path.join(r,f)) for r,_,fs in os.walk(sys.argv[1]) for f in fs); print('fits' if n <= 40*1024 else 'too big: %%d bytes' %% n)" %t.f/trace | FileCheck --check-prefix=SIZE %s
// RUN: python3 -c "import os,sys; n=sum(os.path.getsize(os.path.join(r,f)) for r,_,fs in os.walk(sys.argv[1]) for f in fs); print('fits' if n <= 40*1024 else 'too big: %%d bytes' %% n)" %t.d/trace | FileCheck --check-prefix=BIG %s
// RUN: not %otter_bin/bin/otter estimate --max-size 1K -o %t.none %t.d 2>&1 | FileCheck --check-prefix=NOFIT %s
// RUN: rm -rf %t.s && env %otter_env OTTER_OUTPUT_DIR=%t.s OTTER_SAMPLE=100 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t > /dev/null
// RUN: not %otter_bin/bin/otter estimate %t.s 2>&1 | FileCheck --check-prefix=SAMPLED %s
// RUN: %otter_bin/bin/otter estimate --help | FileCheck --check-prefix=HELP %s
// RUN: %otter_bin/bin/otter estimate --json %t.d | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['constructs'][0]['function'], d['events'] == sum(c['events'] for c in d['constructs']))" | FileCheck --check-prefix=JSON %s
#include <stdio.h>

// TABLE: bytes per event: {{[0-9.]+}} (the archive's {{[0-9]+}} bytes of event files / {{[0-9]+}} events
// TABLE: cost per event: {{[0-9.]+}} ns (measured by the run at its start
// TABLE: predicted: {{[0-9]+}} events
// TABLE: events share MB construct (function)
// SCALE: the traced run x 10 (--scale)
// FIT: wrote {{.*}}.filter: predicted {{[0-9.]+}} MB with it
// FILTER: exclude function many_tasks
// FILTER-NOT: few_tasks
// SIZE: fits
// BIG: too big
// NOFIT: otter: error: the trace cannot fit in 1K
// SAMPLED: otter estimate needs a trace of the run
// HELP: usage: otter estimate [--scale X] [--max-size SIZE]
// JSON: many_tasks True

static volatile long Sink;

__attribute__((noinline)) void many_tasks(void) {
  for (int I = 0; I < 3000; ++I) {
#pragma omp task
    // TABLE-NEXT: {{ *[0-9]+ +[0-9.]+ % +[0-9.]+}}  task estimate.c:[[@LINE-1]] (many_tasks)
    Sink += I;
  }
#pragma omp taskwait
}

__attribute__((noinline)) void few_tasks(void) {
  for (int I = 0; I < 5; ++I) {
#pragma omp task
    Sink += I;
  }
#pragma omp taskwait
}

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    many_tasks();
    few_tasks();
  }
  printf("sink %ld\n", (long)Sink);
  return 0;
}
// OUT: sink
