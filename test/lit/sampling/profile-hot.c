// `otter profile` finds the hot function inside a task: a task calls a slow
// function (~10x the work) and a fast one; sampled alone (no trace), the
// profile's function table puts the slow one first, the construct table
// names the task and the region by their directives (the plugin's site
// table), a flame graph drawn by OTTER (--svg) has their boxes, and the
// folded stacks are the user-model call paths: no runtime
// frame between the region, the task and its callees. A directory without
// samples gets one line saying so.
// RUN: %otter-cc -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile %t.d | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter profile --format folded %t.d > %t.folded
// RUN: python3 %otter_src/test/lit/Inputs/check-profile.py --folded %t.folded
// RUN: FileCheck --check-prefix=FOLDED %s < %t.folded
// RUN: %otter_bin/bin/otter profile --json %t.d | python3 %otter_src/test/lit/Inputs/check-profile.py --json - --hot slow
// RUN: %otter_bin/bin/otter profile --svg %t.svg %t.d | FileCheck --check-prefix=SVG %s
// RUN: python3 %otter_src/test/lit/Inputs/check-profile.py --svg %t.svg --label all --label slow --label fast --label "task profile-hot.c:"
// RUN: rm -rf %t.empty && mkdir %t.empty && %otter_bin/bin/otter profile %t.empty | FileCheck --check-prefix=EMPTY %s
#include <omp.h>
#include <stdio.h>

// TABLE: samples: {{[0-9]+}} of {{[12]}} threads, 1000.0 us per timer period
// TABLE: columns: incl_ms = time
// TABLE: per construct
// TABLE-NEXT: incl_ms excl_ms blamed work barrier taskwait lock idle overhead other construct

static volatile double Sink;
static void slow(void);
static void fast(void);

__attribute__((noinline)) static void solve(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    {
      // TABLE: task profile-hot.c:[[@LINE-2]]
      // FOLDED: {{^(main;solve;)?(parallel profile-hot.c:[0-9]+;)?}}task profile-hot.c:[[@LINE-3]];slow {{[0-9]+$}}
      slow();
      fast();
    }
#pragma omp taskwait
  }
}

// TABLE: per function
// TABLE-NEXT: incl_ms
// TABLE-NEXT: {{.*}} slow (profile-hot.c:[[@LINE+1]])
__attribute__((noinline)) static void slow(void) {
  for (long I = 0; I < 200000000; ++I)
    Sink = Sink * 0.5 + I;
}
__attribute__((noinline)) static void fast(void) {
  for (long I = 0; I < 20000000; ++I)
    Sink = Sink * 0.5 + I;
}

int main(void) {
  solve();
  printf("done\n");
  return 0;
}

// OUT: done
// SVG: wrote {{.*}}.svg
// EMPTY: otter profile: no samples in {{.*}}.empty (run the program with OTTER_SAMPLE=<Hz> or otter-run --sample)
