// Two profiles compared: the same program sampled twice (alone, no trace),
// its slow part four times longer in the second run. `otter profile A B`
// and `otter diff A B` (two sampled runs without a trace) list slowPart
// first among the functions, with B - A at least +100 ms of exclusive time
// (about +600 ms: 0.3 s more on each of two threads; a coarse bound, the
// machine may be loaded), before the steady part, which did not change.
// Wall-clock timers: on a loaded machine the CPU clock's ticks come few and
// heavy (11 samples of weight up to 135 in one run here: docs/sampling.md),
// so one sample can move 100 ms between the two parts; elapsed-time ticks
// keep coming, about 1,000 per second per thread.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.a %t.b
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.a OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t 1 | FileCheck --check-prefix=OUT %s
// RUN: env %otter_env OTTER_OUTPUT_DIR=%t.b OTTER_SAMPLE=1000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t 4 | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile %t.a %t.b | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter diff %t.a %t.b | FileCheck --check-prefix=TABLE %s
// RUN: %otter_bin/bin/otter profile --json %t.a %t.b | python3 -c "import json,sys; d=json.load(sys.stdin); f=d['functions'][0]; assert f['name']=='slowPart' and f['exclusive_delta_ns']==f['exclusive_b_ns']-f['exclusive_a_ns']>0, f; print('ok')" | FileCheck --check-prefix=JSON %s
#include <stdio.h>
#include <stdlib.h>

// The loop in the function itself: its time is the function's exclusive.
// A fixed amount of work (about 0.1 s per Units here), no clock calls: a
// thread preempted in a system call would be sampled in libc, outside the
// part that called it.
#define BURN(Units)                                                            \
  volatile double Acc = 0; /* one per thread: no shared cache line */         \
  for (long I = 0; I < (Units) * 20000000L; ++I)                               \
  Acc = Acc * 0.5 + I
// TABLE: per function (definition file:line):
// TABLE-NEXT: incl_A
// TABLE-NEXT: {{.*}} {{\+[1-9][0-9][0-9]+\.[0-9]}}  slowPart (profile-diff.c:[[@LINE+1]])
__attribute__((noinline)) static void slowPart(int N) { BURN(N); }
__attribute__((noinline)) static void steadyPart(void) { BURN(1); }

int main(int Argc, char **Argv) {
  const int N = Argc > 1 ? atoi(Argv[1]) : 1;
#pragma omp parallel num_threads(2)
  {
    slowPart(N);
    steadyPart();
  }
  printf("done\n");
  return 0;
}
// OUT: done
// JSON: ok
