// `otter simulate` with target offload (docs/offload.md, "Simulate"): a
// target region is replayed on its device for its measured duration, no
// speed-up invented for it. sync: four host tasks, then a synchronous
// `target teams distribute parallel for` much longer than them, whose
// kernel the host plugin runs on several threads: at 1, 2 and 4 cores the
// prediction never drops below the region's duration (the encountering
// task waits in it; its kernel's threads are not host work divided among
// the cores). nowait: a `target nowait` task as long as the host tasks
// created after it: it runs on its device, not on a core, and the
// prediction on one core overlaps it with the host tasks. The output is
// unchanged under the tracer.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: env %offload_env OMP_NUM_THREADS=2 %t > %t.plain
// RUN: env %offload_env OMP_NUM_THREADS=2 %t nowait >> %t.plain
// RUN: rm -rf %t.s %t.n
// RUN: %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.s %t > %t.out
// RUN: %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.n %t nowait >> %t.out
// RUN: diff %t.plain %t.out
// RUN: otter dump %t.s --kind target_begin,target_end,task_create,task_schedule > %t.s.dump
// RUN: otter simulate --json --cores 1,2,4 %t.s > %t.s.json
// RUN: python3 %S/Inputs/simulate-check.py sync %t.s.dump %t.s.json | FileCheck --check-prefix=SYNC %s
// RUN: otter dump %t.n --kind target_begin,target_end,task_create,task_schedule > %t.n.dump
// RUN: otter simulate --json --cores 1,2,4 %t.n > %t.n.json
// RUN: python3 %S/Inputs/simulate-check.py nowait %t.n.dump %t.n.json | FileCheck --check-prefix=NOWAIT %s
// RUN: otter simulate --cores 1,2,4 %t.n | FileCheck --check-prefix=TEXT %s
#include <stdio.h>
#include <string.h>

static double spin(long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += 1e-9 * (double)(i & 7);
  return s;
}

int main(int argc, char **argv) {
  int nowait = argc > 1 && !strcmp(argv[1], "nowait");
  double h[8] = {0}, k[4] = {0}, s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int t = 0; t < 4; ++t) {
#pragma omp task firstprivate(t) shared(h)
      h[t] = spin(500000);
    }
#pragma omp taskwait
    if (!nowait) {
#pragma omp target teams distribute parallel for map(tofrom : k)
      for (int i = 0; i < 4; ++i) {
        double x = 0;
        for (long j = 0; j < 8000000; ++j)
          x += 1e-9 * (double)(j & 7);
        k[i] = x;
      }
    } else {
#pragma omp target nowait map(tofrom : s) depend(out : s)
      {
        for (long j = 0; j < 20000000; ++j)
          s += 1e-9 * (double)(j & 7);
      }
      for (int t = 0; t < 8; ++t) {
#pragma omp task firstprivate(t) shared(h)
        h[t] = spin(2000000);
      }
#pragma omp taskwait
    }
  }
  printf("%s h>0=%d k>0=%d s>0=%d\n", nowait ? "nowait" : "sync", h[3] > 0,
         nowait || k[3] > 0, !nowait || s > 0);
  return 0;
}

// SYNC: target regions: 1
// SYNC-NEXT: target_regions: 1
// SYNC-NEXT: device_ns is the regions' time: yes
// SYNC-NEXT: 1 cores: predicted >= the region's duration: yes
// SYNC-NEXT: 2 cores: predicted >= the region's duration: yes
// SYNC-NEXT: 4 cores: predicted >= the region's duration: yes
// SYNC-NEXT: the kernel's threads are not host work: yes

// NOWAIT: target regions: 1
// NOWAIT-NEXT: target_regions: 1
// NOWAIT-NEXT: device_ns is the regions' time: yes
// NOWAIT-NEXT: 1 cores: predicted >= the region's duration: yes
// NOWAIT-NEXT: 2 cores: predicted >= the region's duration: yes
// NOWAIT-NEXT: 4 cores: predicted >= the region's duration: yes
// NOWAIT-NEXT: 1 core: the host tasks overlap the nowait target: yes

// TEXT: work {{.*}} on the host
// TEXT-NEXT: device {{.*}} in 1 target region(s), each replayed on its device for its measured time
// TEXT: cores predicted
// TEXT-NEXT: {{^ +1 }}
// TEXT-NEXT: {{^ +2 }}
// TEXT-NEXT: {{^ +4 }}
