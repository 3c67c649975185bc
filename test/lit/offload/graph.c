// The task graph of offload (docs/offload.md, "The graph"), host offload:
// a node pair per `target` and `target data` instance, one node per
// `target enter data` / `exit data` / `update`, a kernel node per
// submission inside its target region, each labelled with its exact
// directive (the plugin's sites), with the bytes moved to and from the
// device (N doubles: 8 * N bytes; an int: 4) in nodes.csv, graph.gv and
// graph.txt. The kernel's league (the host plugin runs it as a teams
// region) follows the kernel node in its target region, before the
// region's end. The graph rebuilt from the trace equals the live one.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=all %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: python3 %S/Inputs/target-nodes.py %t.d | FileCheck %s
// RUN: FileCheck --check-prefix=GV %s < %t.d/graph.gv
// RUN: FileCheck --check-prefix=TXT %s < %t.d/graph.txt
// RUN: %check-rebuild --format all %t.d
// The views that read the graph or walk its constructs take the new node
// kinds (they exit 0; the picture draws the full graph with them).
// RUN: otter parallelism %t.d > /dev/null
// RUN: otter diagnose %t.d > /dev/null
// RUN: otter simulate %t.d > /dev/null
// RUN: otter report %t.d -o %t.report > /dev/null
// RUN: otter picture %t.d -o %t.picture | FileCheck --check-prefix=PIC %s
// RUN: otter picture --aggregate %t.d -o %t.agg.svg && FileCheck --check-prefix=AGG %s < %t.agg.svg
// RUN: otter export --format perfetto %t.d -o %t.perfetto > /dev/null
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
#pragma omp target update from(a)
#pragma omp target exit data map(from : a)
#pragma omp target map(tofrom : x)
  x += 1;
  printf("x=%d b[10]=%g\n", x, b[10]);
  return 0;
}

// OUT: x=1 b[10]=20

// The target data region: its entry moves a (8000 B) to the device, its
// exit b (8000 B) back; the kernel's region moves nothing (a and b are
// present), its league follows the kernel. Each update moves a one way.
// CHECK: target_begin target data@[[@LINE-21]] to=8000 from=0 parent=initial_task
// CHECK-NEXT: target_begin target teams distribute parallel for@[[@LINE-20]] to=0 from=0 parent=initial_task
// CHECK-NEXT: kernel target teams distribute parallel for@[[@LINE-21]] to=- from=- parent=initial_task
// CHECK-NEXT: kernel@[[@LINE-22]] then parallel_begin
// CHECK-NEXT: target_end target teams distribute parallel for@[[@LINE-23]] to=- from=- parent=initial_task
// CHECK-NEXT: target_end target data@[[@LINE-26]] to=0 from=8000 parent=initial_task
// CHECK-NEXT: target_enter_data target enter data@[[@LINE-21]] to=8000 from=0 parent=initial_task
// CHECK-NEXT: target_update target update@[[@LINE-21]] to=8000 from=0 parent=initial_task
// CHECK-NEXT: target_update target update@[[@LINE-21]] to=0 from=8000 parent=initial_task
// CHECK-NEXT: target_exit_data target exit data@[[@LINE-21]] to=0 from=8000 parent=initial_task
// CHECK-NEXT: target_begin target@[[@LINE-21]] to=4 from=4 parent=initial_task
// CHECK-NEXT: kernel target@[[@LINE-22]] to=- from=- parent=initial_task
// CHECK-NEXT: kernel@[[@LINE-23]] then target_end
// CHECK-NEXT: target_end target@[[@LINE-24]] to=- from=- parent=initial_task
// CHECK-NOT: {{.}}

// GV-DAG: label="target_begin\n{{[^"]*}}graph.c:[[@LINE-37]]:1\n8000 B to, 0 B from device", bytes_to=8000, bytes_from=0, shape=house
// GV-DAG: label="kernel\n{{[^"]*}}graph.c:[[@LINE-36]]:1", shape=component
// GV-DAG: label="target_end\n{{[^"]*}}graph.c:[[@LINE-39]]:1\n0 B to, 8000 B from device", bytes_to=0, bytes_from=8000, shape=invhouse
// GV-DAG: label="target_enter_data\n{{[^"]*}}graph.c:[[@LINE-34]]:1\n8000 B to, 0 B from device", bytes_to=8000, bytes_from=0, shape=cylinder

// TXT: target_begin parent=n{{[0-9]+}} at={{[^ ]*}}graph.c:[[@LINE-42]]:1 bytes_to=8000 bytes_from=0{{$}}
// TXT: kernel parent=n{{[0-9]+}} at={{[^ ]*}}graph.c:[[@LINE-41]]:1{{$}}
// TXT: target_end parent=n{{[0-9]+}} at={{[^ ]*}}graph.c:[[@LINE-44]]:1 bytes_to=0 bytes_from=8000{{$}}

// PIC: (full graph)

// A kernel's device work (its league's regions) in a dashed box.
// GV: subgraph cluster_device_{{[0-9]+}} {
// GV-NEXT: label="device work: kernel\n{{[^"]*}}graph.c:{{[0-9]+}}:1"; style=dashed;
// GV: dashed box: a kernel's device work
// The aggregated picture marks the kernels' constructs and says what the
// mark means.
// AGG: (device)
// AGG: a device&#39;s work, not the host program&#39;s
