// Target offload in the OTF2 trace (docs/trace.md, "Devices"), host
// offload: a location group per device (ACCELERATOR) with an accelerator
// stream, on it the kernel and the transfers of each construct as regions
// named by their directive's line, in time order, a transfer's bytes as the
// parameter otter:bytes; on the host thread the target construct's region
// encloses its data operations and submission. Every location's regions
// are balanced (%check-rebuild checks it with otf2-print and
// otf2-snapshots), and the graph rebuilt from the trace equals the live
// one (OTTER's reader skips the device streams). The program's output is
// unchanged.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: env %offload_env OMP_NUM_THREADS=2 %t > %t.plain
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: diff %t.plain %t.out
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: otf2-print %t.d/trace/traces.otf2 | python3 %S/Inputs/device-events.py %t.d/trace/traces.otf2 | FileCheck %s
// RUN: otf2-print %t.d/trace/traces.otf2 | python3 %S/Inputs/device-events.py %t.d/trace/traces.otf2 --host | FileCheck --check-prefix=HOST %s
// RUN: %check-rebuild %t.d
// The Perfetto export: a track per device stream, the kernels and
// transfers on it, each with a flow from the host thread that ran it.
// RUN: otter export --format perfetto %t.d -o %t.json > /dev/null
// RUN: python3 %S/Inputs/perfetto-device.py %t.json | FileCheck --check-prefix=PERFETTO %s
#include <stdio.h>
#define N 1000

int main(void) {
  static double a[N];
  int x = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target data map(tofrom : a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] *= 2;
  }
#pragma omp target map(tofrom : x)
  x += 1;
  printf("x=%d a[10]=%g\n", x, a[10]);
  return 0;
}

// DEFS: LOCATION_GROUP {{.*}}Name: "device 0" {{.*}}Type: ACCELERATOR
// DEFS: LOCATION {{.*}}Name: "device 0 stream 0" {{.*}}Type: ACCELERATOR_STREAM
// DEFS: PARAMETER {{.*}}Name: "otter:bytes"

// The device's stream, in time order: the target data region's entry
// moves a (8000 B) to the device, the kernel runs, its exit moves a back;
// then the target region moves x (4 B) both ways around its kernel.
// CHECK: device 0 stream 0: transfer to device @ {{.*}}trace.c:[[@LINE-19]] bytes=8000
// CHECK: device 0 stream 0: kernel @ {{.*}}trace.c:[[@LINE-18]]
// CHECK: device 0 stream 0: transfer from device @ {{.*}}trace.c:[[@LINE-21]] bytes=8000
// CHECK: device 0 stream 0: transfer to device @ {{.*}}trace.c:[[@LINE-16]] bytes=4
// CHECK: device 0 stream 0: kernel @ {{.*}}trace.c:[[@LINE-17]]
// CHECK: device 0 stream 0: transfer from device @ {{.*}}trace.c:[[@LINE-18]] bytes=4

// PERFETTO: track device 0 stream 0
// PERFETTO: device 0 stream 0: transfer to device @ {{.*}}trace.c:[[@LINE-27]] bytes=8000
// PERFETTO: device 0 stream 0: kernel @ {{.*}}trace.c:[[@LINE-26]] bytes=0
// PERFETTO: device 0 stream 0: transfer from device @ {{.*}}trace.c:[[@LINE-29]] bytes=8000
// PERFETTO: device 0 stream 0: kernel @ {{.*}}trace.c:[[@LINE-24]] bytes=0
// PERFETTO: flows: [[F:[0-9]+]], [[F]] to a device slice from a host thread

// The host thread: each construct's region encloses its work.
// HOST: enter target enter data @ {{.*}}trace.c:[[@LINE-34]]
// HOST-NEXT: leave target enter data @ {{.*}}trace.c:[[@LINE-35]]
// HOST: enter target @ {{.*}}trace.c:[[@LINE-34]]
// HOST: enter parallel
// HOST: leave target @ {{.*}}trace.c:[[@LINE-36]]
// HOST-NEXT: enter target exit data @ {{.*}}trace.c:[[@LINE-39]]
// HOST-NEXT: leave target exit data @ {{.*}}trace.c:[[@LINE-40]]
// HOST-NEXT: enter target @ {{.*}}trace.c:[[@LINE-35]]
