// `target nowait` with host offload, traced (docs/offload.md): a nowait
// target is a task (libomp runs it on a hidden helper thread), with its
// depend clause's dependences to and from host tasks as any task's: the
// graph has the edge from the target task (its last node, the region's
// target_end) to the host task that depends on it, and from the host task
// to a target that depends on that. Two
// concurrent nowait targets each run their own construct, transfers and
// kernel (their target_begin, data operations, submission and target_end
// in their own task, whichever thread ran them), and the transfers carry
// the mapped sizes. The output is unchanged; the graph rebuilt from the
// trace equals the live one.
// REQUIRES: host-offload, plugin
// RUN: %offload-cc %s -o %t
// RUN: env %offload_env OMP_NUM_THREADS=2 %t > %t.plain
// RUN: rm -rf %t.d && %otter-run %offload_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: diff %t.plain %t.out
// RUN: python3 %S/Inputs/csv-edges.py %t.d | FileCheck --check-prefix=EDGES %s
// RUN: FileCheck --check-prefix=NODES %s < %t.d/nodes.csv
// RUN: otter dump --no-time %t.d --kind task_create,target_begin,target_end,target_data_op_begin,target_submit_begin | FileCheck --check-prefix=DUMP %s
// RUN: otter summary %t.d | FileCheck --check-prefix=SUM %s
// RUN: %check-rebuild %t.d
// A nowait target's task waits for its device on the thread that runs it.
// RUN: %check-states --expect-wait target %t.d | FileCheck --check-prefix=STATES %s
#include <stdio.h>
#define N 256

int main(void) {
  static int a[N], b[N];
  int x = 0, y = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target nowait depend(out : x) map(tofrom : x)
    x = 1;
#pragma omp task depend(in : x) depend(out : y)
    y = x + 1;
#pragma omp target nowait depend(in : y) map(tofrom : y)
    y *= 10;
#pragma omp target teams distribute parallel for nowait map(from : a)
    for (int i = 0; i < N; ++i)
      a[i] = i;
#pragma omp target teams distribute parallel for nowait map(from : b)
    for (int i = 0; i < N; ++i)
      b[i] = 2 * i;
#pragma omp taskwait
  }
  printf("x=%d y=%d a=%d b=%d\n", x, y, a[N - 1], b[N - 1]);
  return 0;
}

// EDGES-DAG: target_end target@[[@LINE-18]] -> task task@[[@LINE-16]] dependence
// EDGES-DAG: task task@[[@LINE-17]] -> task target@[[@LINE-15]] dependence

// Each kernel target in its own task: its creation, then (in that task) its
// begin, its transfer from the device of N ints, its kernel, its end.
// DUMP: task_create creator=[[C:[0-9]+]] child=[[K1:[0-9]+]] flags={{.*}}target{{.*}} code={{.*}}nowait.c:[[@LINE-17]]:1
// DUMP: task_create creator=[[C]] child=[[K2:[0-9]+]] flags={{.*}}target{{.*}} code={{.*}}nowait.c:[[@LINE-15]]:1
// DUMP-DAG: target_begin task=[[K1]] kind=target target=[[T1:[0-9]+]] device=0 code={{.*}}nowait.c:[[@LINE-19]]:1
// DUMP-DAG: target_data_op_begin task=[[K1]] kind=transfer_from_device bytes=1024 src_device=0 dst_device=4 code={{.*}}nowait.c:[[@LINE-20]]:1
// DUMP-DAG: target_submit_begin task=[[K1]] target=[[T1]] requested=0
// DUMP-DAG: target_end task=[[K1]] kind=target target=[[T1]] device=0 code={{.*}}nowait.c:[[@LINE-22]]:1
// DUMP-DAG: target_begin task=[[K2]] kind=target target=[[T2:[0-9]+]] device=0 code={{.*}}nowait.c:[[@LINE-20]]:1
// DUMP-DAG: target_data_op_begin task=[[K2]] kind=transfer_from_device bytes=1024 src_device=0 dst_device=4 code={{.*}}nowait.c:[[@LINE-21]]:1
// DUMP-DAG: target_submit_begin task=[[K2]] target=[[T2]] requested=0
// DUMP-DAG: target_end task=[[K2]] kind=target target=[[T2]] device=0 code={{.*}}nowait.c:[[@LINE-23]]:1

// SUM: offload{{ +}}where{{ +}}instances{{ +}}time{{ +}}kernels{{ +}}to_device{{ +}}transfers{{ +}}from_device{{ +}}transfers
// SUM-DAG: {{^}}target teams distribute parallel for{{ +}}{{[^ ]*}}nowait.c:[[@LINE-29]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}0{{ +}}0{{ +}}1024{{ +}}1{{$}}
// SUM-DAG: {{^}}target teams distribute parallel for{{ +}}{{[^ ]*}}nowait.c:[[@LINE-27]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}0{{ +}}0{{ +}}1024{{ +}}1{{$}}
// SUM-DAG: {{^}}target{{ +}}{{[^ ]*}}nowait.c:[[@LINE-37]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}4{{ +}}1{{ +}}4{{ +}}1{{$}}
// SUM-DAG: {{^}}target{{ +}}{{[^ ]*}}nowait.c:[[@LINE-34]]{{ +}}1{{ +}}{{.+}}{{ +}}1{{ +}}4{{ +}}1{{ +}}4{{ +}}1{{$}}

// The kernels' threads belong to their own target region: each kernel's
// league (the host plugin runs it as a teams region of libomp) is begun by
// its target task (parallel_begin's encountering task, OMPT's ids), not by
// whichever task ran on that thread before or the helper thread's root.
// In the graph each is the target region's node pair in its target task,
// the region's bytes (N ints from the device) on its target_begin, its
// kernel, then the kernel's league, then the region's end.
// NODES: [[K1:[0-9]+]],task,{{[0-9]+}},{{[0-9]+}},{{[^,]*}},[[@LINE-41]],{{.*}},target teams distribute parallel for,
// NODES-NEXT: {{[0-9]+}},target_begin,[[K1]],{{[0-9]+}},{{[^,]*}},[[@LINE-42]],{{.*}},target teams distribute parallel for,{{.*}},0,1024{{$}}
// NODES-NEXT: {{[0-9]+}},kernel,[[K1]],{{[0-9]+}},{{[^,]*}},[[@LINE-43]],{{.*}},target teams distribute parallel for,{{.*}},,{{$}}
// NODES-NEXT: {{[0-9]+}},parallel_begin,[[K1]],
// NODES: {{[0-9]+}},target_end,[[K1]],
// NODES: [[K2:[0-9]+]],task,{{[0-9]+}},{{[0-9]+}},{{[^,]*}},[[@LINE-43]],{{.*}},target teams distribute parallel for,
// NODES-NEXT: {{[0-9]+}},target_begin,[[K2]],{{[0-9]+}},{{[^,]*}},[[@LINE-44]],{{.*}},target teams distribute parallel for,{{.*}},0,1024{{$}}
// NODES-NEXT: {{[0-9]+}},kernel,[[K2]],
// NODES-NEXT: {{[0-9]+}},parallel_begin,[[K2]],
// NODES: {{[0-9]+}},target_end,[[K2]],
// STATES: states: ok
