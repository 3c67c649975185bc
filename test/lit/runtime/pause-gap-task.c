// A task created while recording is paused (a gap task) that runs after
// omp_control_tool(start): it belongs to the gap, with everything it does,
// also after the start -- its events and those of the task it creates then
// are in neither the trace nor the graph (docs/trace.md, "Tool control").
// The recorded task created after the start is in both, the graph stays
// valid, and the graph otter-graph rebuilds from the trace is the same.
// Once the gap task has completed, recording takes its fast path again:
// the next region is recorded whole.
// RUN: %otter-cc -g %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-graph %t.d/graph.txt
// RUN: %check-rebuild --format all %t.d
// The creations and taskwaits in the trace, by line:
// RUN: otter dump %t.d | grep -E 'task_create|kind=taskwait' | sed -E 's/.*(task_create|taskwait).*pause-gap-task.c:([0-9]+):.*/\2 \1/' | sort -n | uniq -c > %t.lines
// RUN: FileCheck --check-prefix=DUMP %s < %t.lines
// RUN: otter summary %t.d | FileCheck --check-prefix=SUM %s
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int started;

static int leaf(int x) { return x + 1; }

int main(void) {
  int a = 0, b = 0, c = 0, s = -1, d = 0;
  // CHECK: n0 initial_task
  // CHECK: parallel_begin parent=n0 at={{.*}}pause-gap-task.c:[[@LINE+1]]:1
#pragma omp parallel num_threads(2) shared(a, b, c, s)
#pragma omp single
  {
    int creator = omp_get_thread_num();
    // CHECK: pause parent={{n[0-9]+}} at={{.*}}pause-gap-task.c:[[@LINE+1]]
    omp_control_tool(omp_control_tool_pause, 0, NULL);
    // The gap task: whichever thread runs it goes on only after the start
    // (its creator runs it after the start in any case).
#pragma omp task shared(a, c)
    {
      while (omp_get_thread_num() != creator && !atomic_load(&started))
        ;
      // Created after the start, by a gap task: a gap task too.
#pragma omp task shared(c)
      c = leaf(3);
#pragma omp taskwait
      a = leaf(1) + 10 * atomic_load(&started); // 12: ran after the start
    }
    // CHECK: resume parent={{n[0-9]+}} at={{.*}}pause-gap-task.c:[[@LINE+1]]
    s = omp_control_tool(omp_control_tool_start, 0, NULL);
    atomic_store(&started, 1);
    // Nothing of the gap tasks (their lines come first), then:
    // DUMP-NOT: task
    // DUMP: {{^ *}}1 [[#@LINE+2]] task_create
    // CHECK: task parent={{n[0-9]+}} at={{.*}}pause-gap-task.c:[[@LINE+1]]:1
#pragma omp task shared(b)
    b = leaf(2);
    // DUMP-NEXT: {{^ *}}4 [[#@LINE+2]] taskwait
    // CHECK: taskwait parent={{n[0-9]+}} at={{.*}}pause-gap-task.c:[[@LINE+1]]:1
#pragma omp taskwait
  }
  // CHECK: parallel_begin parent=n0 at={{.*}}pause-gap-task.c:[[@LINE+1]]:1
#pragma omp parallel num_threads(2) shared(d)
#pragma omp single
  {
    // DUMP-NEXT: {{^ *}}1 [[#@LINE+2]] task_create
    // CHECK: task parent={{n[0-9]+}} at={{.*}}pause-gap-task.c:[[@LINE+1]]:1
#pragma omp task shared(d)
    d = leaf(4);
  }
  // CHECK-NOT: task parent
  printf("%d %d %d %d %d\n", a, b, c, s, d);
  return 0;
}
// OUT: 12 3 4 0 5
// DUMP-NOT: task
// The trace says what the graph says: two tasks, one taskwait. (The first
// region's other thread may reach its single only once recording is paused,
// as it did under ASan: then that single, like its implicit task, is not
// in the trace.)
// SUM: constructs {{.*}}task=2 parallel=2 single={{[34]}} taskwait=1
