// Offload with host offload (docs/offload.md), traced: every target
// construct kind is recorded, in the task that runs it, with the code
// address of its own directive, which the plugin labels with that exact
// directive (the sites of libomptarget's entry points); data operations
// carry the mapped sizes (N doubles: 8 * N bytes, an int: 4) and their
// devices (the host is device 4 of the host plugin's four); a kernel
// submission names its target region's id. The program's output is
// unchanged, the trace reads back the same events, and otter-graph
// rebuilds the same graph from it.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: otter-sites %t | FileCheck --check-prefix=SITES %s
// RUN: env %offload_env OMP_NUM_THREADS=2 %t > %t.plain
// The plugin under clang's own offload driver (it runs in the device-side
// compilation too): no crash, no diagnostic, a program that works.
// RUN: %clang -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu -fplugin=%otter_plugin -Wno-unused %s -o %t.driver 2> %t.driver.err
// RUN: test ! -s %t.driver.err
// RUN: env %offload_env OMP_NUM_THREADS=2 %t.driver | diff %t.plain -
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: otter dump --no-time %t.d --kind target_begin,target_end,target_data_op_begin,target_submit_begin,target_submit_end,device_initialize,device_load | FileCheck %s
// RUN: otter summary %t.d | FileCheck --check-prefix=SUM %s
// RUN: otter summary --json %t.d | FileCheck --check-prefix=JSON %s
// RUN: %check-rebuild %t.d
#include <stdio.h>
#define N 1000

int main(void) {
  static double a[N], b[N];
  int x = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target data map(to : a) map(from : b)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
  }
#pragma omp target enter data map(to : a)
#pragma omp target update to(a)
#pragma omp target exit data map(release : a)
#pragma omp target map(tofrom : x)
  x += 1;
  printf("x=%d b[10]=%g\n", x, b[10]);
  return 0;
}

// ERR-NOT: otter: {{.*}}refuses

// SITES-DAG: directive "target data" at {{[^ ]*}}/events.c:[[@LINE-17]]:1
// SITES-DAG: directive "target teams distribute parallel for" at {{[^ ]*}}/events.c:[[@LINE-16]]:1
// SITES-DAG: directive "target enter data" at {{[^ ]*}}/events.c:[[@LINE-13]]:1
// SITES-DAG: directive "target update" at {{[^ ]*}}/events.c:[[@LINE-13]]:1
// SITES-DAG: directive "target exit data" at {{[^ ]*}}/events.c:[[@LINE-13]]:1
// SITES-DAG: directive "target" at {{[^ ]*}}/events.c:[[@LINE-13]]:1

// The events, in the initial task (I) of thread 0: a target data region is
// an enter data and an exit data construct, each at its own call site, both
// of the target data directive; the kernel's submission names its region.
// CHECK: thread 0
// CHECK: device_initialize device=0 name="generic-64bit"
// CHECK: device_load device=0 bytes={{[1-9][0-9]*}}
// CHECK-NEXT: target_begin task=[[I:[0-9]+]] kind=enter_data target=[[D1:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-30]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=alloc bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-31]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_to_device bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-32]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=alloc bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-33]]:1
// CHECK-NEXT: target_end task=[[I]] kind=enter_data target=[[D1]] device=0 code={{.*}}events.c:[[@LINE-34]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=target target=[[K1:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-33]]:1
// CHECK-NEXT: target_submit_begin task=[[I]] target=[[K1]] requested=0
// CHECK-NEXT: target_submit_end task=[[I]] target=[[K1]] requested=0
// CHECK-NEXT: target_end task=[[I]] kind=target target=[[K1]] device=0 code={{.*}}events.c:[[@LINE-36]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=exit_data target=[[D2:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-39]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_from_device bytes=8000 src_device=0 dst_device=4 code={{.*}}events.c:[[@LINE-40]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=delete bytes=0 src_device=0 dst_device=-1 code={{.*}}events.c:[[@LINE-41]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=delete bytes=0 src_device=0 dst_device=-1 code={{.*}}events.c:[[@LINE-42]]:1
// CHECK-NEXT: target_end task=[[I]] kind=exit_data target=[[D2]] device=0 code={{.*}}events.c:[[@LINE-43]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=enter_data target=[[E:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-38]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=alloc bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-39]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_to_device bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-40]]:1
// CHECK-NEXT: target_end task=[[I]] kind=enter_data target=[[E]] device=0 code={{.*}}events.c:[[@LINE-41]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=update target=[[U:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-41]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_to_device bytes=8000 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-42]]:1
// CHECK-NEXT: target_end task=[[I]] kind=update target=[[U]] device=0 code={{.*}}events.c:[[@LINE-43]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=exit_data target=[[X:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-43]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=delete bytes=0 src_device=0 dst_device=-1 code={{.*}}events.c:[[@LINE-44]]:1
// CHECK-NEXT: target_end task=[[I]] kind=exit_data target=[[X]] device=0 code={{.*}}events.c:[[@LINE-45]]:1
// CHECK-NEXT: target_begin task=[[I]] kind=target target=[[K2:[0-9]+]] device=0 code={{.*}}events.c:[[@LINE-45]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=alloc bytes=4 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-46]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_to_device bytes=4 src_device=4 dst_device=0 code={{.*}}events.c:[[@LINE-47]]:1
// CHECK-NEXT: target_submit_begin task=[[I]] target=[[K2]] requested=1
// CHECK-NEXT: target_submit_end task=[[I]] target=[[K2]] requested=1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=transfer_from_device bytes=4 src_device=0 dst_device=4 code={{.*}}events.c:[[@LINE-50]]:1
// CHECK-NEXT: target_data_op_begin task=[[I]] kind=delete bytes=0 src_device=0 dst_device=-1 code={{.*}}events.c:[[@LINE-51]]:1
// CHECK-NEXT: target_end task=[[I]] kind=target target=[[K2]] device=0 code={{.*}}events.c:[[@LINE-52]]:1
// CHECK-NOT: target_

// The summary: a row per directive, labelled with it; the target data
// directive's two constructs are one row (8000 bytes each way).
// SUM: offload{{ +}}where{{ +}}instances{{ +}}time{{ +}}kernels{{ +}}to_device{{ +}}transfers{{ +}}from_device{{ +}}transfers
// SUM-DAG: {{^}}target data{{ +}}{{[^ ]*}}events.c:[[@LINE-67]]{{ +}}2{{ +}}{{.+}}{{ +}}0{{ +}}8000{{ +}}1{{ +}}8000{{ +}}1{{$}}
// SUM-DAG: {{^}}target teams distribute parallel for{{ +}}{{[^ ]*}}events.c:[[@LINE-66]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}0{{ +}}0{{ +}}0{{ +}}0{{$}}
// SUM-DAG: {{^}}target enter data{{ +}}{{[^ ]*}}events.c:[[@LINE-63]]{{ +}}1{{ +}}{{.+}}{{ +}}0{{ +}}8000{{ +}}1{{ +}}0{{ +}}0{{$}}
// SUM-DAG: {{^}}target update{{ +}}{{[^ ]*}}events.c:[[@LINE-63]]{{ +}}1{{ +}}{{.+}}{{ +}}0{{ +}}8000{{ +}}1{{ +}}0{{ +}}0{{$}}
// SUM-DAG: {{^}}target exit data{{ +}}{{[^ ]*}}events.c:[[@LINE-63]]{{ +}}1{{ +}}{{.+}}{{ +}}0{{ +}}0{{ +}}0{{ +}}0{{ +}}0{{$}}
// SUM-DAG: {{^}}target{{ +}}{{[^ ]*}}events.c:[[@LINE-63]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}4{{ +}}1{{ +}}4{{ +}}1{{$}}
// SUM: offload: per target directive
// JSON: "offload":[{{.*}}{"kind":"target data",{{[^}]*}}"instances":2,{{[^}]*}}"kernels":0,"bytes_to_device":8000,"transfers_to_device":1,"bytes_from_device":8000,"transfers_from_device":1}

