// `otter diagnose`'s offload findings (docs/utils.md), host offload: a
// target construct run in a loop that maps the same array to the device
// at every instance is `repeated_transfer` (a `target data` region around
// the loop would map it once), with the bytes each instance moved; a long
// synchronous target region, on which the encountering thread waits, is
// `target_wait` (a `nowait` would let it work meanwhile). Each finding
// names its directive's file:line and says what to change there. The
// host plugin runs the kernels as parallel regions on threads of its own:
// device work, marked so in the summary, whose threads' wait between
// kernels is no OpenMP idle threads and which has no findings (with a GPU
// these threads do not exist).
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: otter diagnose %t.d | FileCheck %s
// RUN: otter diagnose --json %t.d | FileCheck --check-prefix=JSON %s
// RUN: otter diagnose %t.d | FileCheck --check-prefix=HOST %s
// RUN: otter summary %t.d | FileCheck --check-prefix=SUMMARY %s
#include <stdio.h>
#define N 1000

int main(void) {
  static double a[N];
  double s = 0;
  for (int r = 0; r < 5; ++r) {
#pragma omp target teams distribute parallel for map(tofrom : a)
    for (int i = 0; i < N; ++i)
      a[i] += 1;
  }
#pragma omp target map(tofrom : s)
  {
    for (long i = 0; i < 20000000; ++i)
      s += 1e-9 * (double)(i & 7);
  }
  printf("a[10]=%g s>0=%d\n", a[10], s > 0);
  return 0;
}

// OUT: a[10]=5 s>0=1

// CHECK-DAG: repeated_transfer{{.*}}diagnose.c:[[@LINE-15]]
// CHECK-DAG: 5 instances of target teams distribute parallel for each moved 8000 bytes to the device
// CHECK-DAG: target_wait{{.*}}diagnose.c:[[@LINE-13]]
// CHECK-DAG: `nowait` at {{.*}}diagnose.c:[[@LINE-14]]
// JSON-DAG: "check":"repeated_transfer","kind":"target"
// JSON-DAG: "check":"target_wait","kind":"target"
// HOST-NOT: {{idle_threads|low_parallel_benefit|sync_wait|thread_imbalance}}
// HOST: target_wait
// HOST-NOT: {{idle_threads|low_parallel_benefit|sync_wait|thread_imbalance}}
// SUMMARY-NOT: idle:
// SUMMARY: parallel {{.*}} (device)
// SUMMARY-NOT: idle:
// SUMMARY: (device): a device's work, not the host program's
// SUMMARY-NOT: idle:
