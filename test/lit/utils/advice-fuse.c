// Two thousand tiny parallel regions forked back to back: each region's fork
// and join cost far more than its loop's work. diagnose advises fusing them
// into one region, with the time predicted by replaying the program with
// the regions merged (one fork and one join, every thread running its part
// of each loop in turn): less than the replay as it is.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d > %t.json
// RUN: python3 %S/Inputs/advice_check.py %t.json fuse_regions | FileCheck %s --check-prefix=JSON
#include <stdio.h>

int main(void) {
  double a[64] = {0};
  for (int r = 0; r < 2000; ++r) {
    // CHECK: advice:    (fuse_regions) at {{.*}}advice-fuse.c:[[@LINE+4]]: fuse the consecutive parallel regions at {{.*}}advice-fuse.c:[[@LINE+4]]: open one parallel region
    // CHECK-NEXT: replayed:  fused regions: 1 run(s) of consecutive regions (2000 regions) become 1 region(s) with one fork and one join each
    // CHECK-NEXT: predicted: {{.*}} -> {{.*}} on 2 core(s), gain {{[0-9.]+}}%
    // JSON: {{low_parallel_benefit|sync_wait|region_overhead}} fuse_regions {{.*}}advice-fuse.c:[[@LINE+1]] cores=2 after<before=True after<=before=True transformation=fused regions
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 64; ++i)
      a[i] += i * 0.5;
  }
  printf("%g\n", a[7]);
  return 0;
}
