// `otter report` with target offload (docs/utils.md, "otter report"): the
// per-thread timeline has a row per device beneath the threads, its
// kernels and transfers coloured by kind, with their legend entries, and a
// dashed line from the host thread to the device for each of the three
// kernels; the
// data block gives the device's time per kind (a transfer to the device at
// the `target data` region's entry, the kernels, a transfer from the device
// at its exit) and its bins (the transfer to the device before the kernels;
// the transfer back, well under a millisecond, may share its bins with the
// last kernel and the deletions, so it is checked in the totals only). The
// same program built
// without offload (its target regions run on the host as ordinary code)
// has no device row and no device legend entry.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: otter report -o %t.html %t.d
// RUN: FileCheck %s < %t.html
// RUN: FileCheck --check-prefix=DEVICE %s < %t.html
// The host thread waits for its device from a target construct's begin to
// its end (a state of every view, checked against otter dump), and the
// construct stays on the critical path.
// RUN: %check-states --report --expect-wait target --expect-wait target_enter_data %t.d | FileCheck --check-prefix=STATES %s
// RUN: otter parallelism %t.d | FileCheck --check-prefix=PATH %s
// RUN: %otter-cc %s -o %t.host
// RUN: rm -rf %t.h && env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.h %t.host > %t.hout
// RUN: FileCheck --check-prefix=OUT %s < %t.hout
// RUN: otter report -o %t.host.html %t.h
// RUN: FileCheck --check-prefix=HOST %s < %t.host.html
#include <stdio.h>
#define N (1 << 20)

static double a[N];

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = i;
// PATH: span {{.*}} ({{.*}} of it waiting for devices in target constructs: in the span, not in work)
// PATH: critical path
// PATH: target_enter_data {{.*}}report.c:[[#@LINE+1]]
#pragma omp target data map(tofrom : a)
  {
    for (int r = 0; r < 3; ++r) {
// PATH: {{^ +}}target {{.*}}report.c:[[#@LINE+1]]
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        a[i] = 0.5 * a[i] + 1;
    }
  }
  printf("a[10]=%g\n", a[10]);
  return 0;
}

// OUT: a[10]=3

// CHECK: <section id="timeline">
// CHECK: >thread 0</text>
// CHECK: >device 0</text><rect {{.*}}fill="#ec7063" data-device="0" data-op="t"/>
// CHECK-SAME: fill="#f4d03f" data-device="0" data-op="k"/>
// CHECK-SAME: stroke-dasharray="2,2" data-link="kernel"/>
// CHECK-SAME: stroke-dasharray="2,2" data-link="kernel"/>
// CHECK-SAME: stroke-dasharray="2,2" data-link="kernel"/>
// CHECK-NOT: data-link
// CHECK: waiting for a device (in a target construct)
// CHECK: <span><i class="sw" style="background:#f4d03f"></i>device: kernel</span>
// CHECK-SAME: device: transfer to the device
// CHECK-SAME: device: transfer from the device
// CHECK: "devices":[{"device":0,"kernel_ns":{{[1-9][0-9]*}},"to_device_ns":{{[1-9][0-9]*}},"from_device_ns":{{[1-9][0-9]*}},"data_op_ns":{{[0-9]+}},"bins":"{{[^"]*t[^"]*k[^"]*}}"}]

// HOST: <section id="timeline">
// HOST-NOT: >device 0</text>
// HOST-NOT: device: kernel
// HOST-NOT: data-link
// HOST: "devices":[]
// STATES: states: ok

// The kernels' threads' constructs are the device's, said under the table.
// DEVICE: <section id="constructs">
// DEVICE: (device)</td>
// DEVICE: (device): a device's work, not the host program's
