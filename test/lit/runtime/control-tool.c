// omp_control_tool: the program pauses recording, starts it again, flushes
// the trace to disk and ends tracing. What runs between pause and start is
// not recorded (the graph has a pause and a resume node in the initial task
// there); after flush the trace on disk reads while the program still runs
// (the program runs `otter summary` on it itself, then goes on); after end
// nothing more is recorded and everything before it is written as at exit.
// The program's output and exit code are those of a run without the tool,
// but for omp_control_tool's return values (omp_control_tool_notool, -2).
// RUN: %otter-cc %s -o %t
// RUN: sh -c '%t; echo "rc=$?"' > %t.plain
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d sh -c '%t %t.mid; echo "rc=$?"' > %t.out 2> %t.err
// RUN: FileCheck --check-prefix=PLAIN %s < %t.plain
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=MID %s < %t.mid
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: %check-rebuild --open --format all %t.d
// RUN: otter dump %t.d --kind tool_control | FileCheck --check-prefix=DUMP %s
// RUN: otf2-print %t.d/trace/traces.otf2 2>&1 | FileCheck --check-prefix=OTF2 %s
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int fib(int n) {
  if (n < 2)
    return n;
  int a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static int region(int n) {
  int r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(n);
  return r;
}

int main(int argc, char **argv) {
  // CHECK: n0 initial_task
  // CHECK: parallel_begin parent=n0 at={{.*}}control-tool.c:[[@LINE-8]]:1
  int r1 = region(5);
  // CHECK: pause parent=n0 at={{.*}}control-tool.c:[[@LINE+1]]
  int p = omp_control_tool(omp_control_tool_pause, 0, NULL);
  int r2 = region(6); // not recorded
  int p2 = omp_control_tool(omp_control_tool_pause, 0, NULL); // ignored
  // CHECK: resume parent=n0 at={{.*}}control-tool.c:[[@LINE+1]]
  int s = omp_control_tool(omp_control_tool_start, 0, NULL);
  // CHECK: parallel_begin parent=n0 at={{.*}}control-tool.c:[[@LINE-16]]:1
  // CHECK-NOT: parallel_begin
  // CHECK-NOT: {{^n[0-9]+ pause }}
  int r3 = region(4);
  int f = omp_control_tool(omp_control_tool_flush, 0, NULL);
  if (argc > 1) {
    // The trace as it is on disk now, read while this program runs.
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "env -u OMP_TOOL_LIBRARIES otter summary \"$OTTER_OUTPUT_DIR\" "
             "> '%s' 2>&1",
             argv[1]);
    if (system(cmd) != 0)
      printf("otter summary failed\n");
  }
  int e = omp_control_tool(omp_control_tool_end, 0, NULL);
  int r4 = region(3); // not recorded
  printf("fib %d %d %d %d\n", r1, r2, r3, r4);
  printf("omp_control_tool %d %d %d %d %d\n", p, p2, s, f, e);
  return 0;
}
// Without the tool every call says there is none.
// PLAIN: fib 5 8 3 2
// PLAIN-NEXT: omp_control_tool -2 -2 -2 -2 -2
// PLAIN-NEXT: rc=0
// With it: success, but for the second pause (ignored, 1).
// OUT: fib 5 8 3 2
// OUT-NEXT: omp_control_tool 0 1 0 0 0
// OUT-NEXT: rc=0
// Mid-run: two recorded regions of 2 threads (fib 5: 15 tasks, fib 4: 8).
// MID: warning: the trace in '{{.*}}' was not closed (the program is still running
// MID: threads 2
// MID: constructs {{.*}}task=22 parallel=2 single=4
// The control events: pause and start around the gap, then flush and end.
// DUMP: tool_control {{.*}} command=pause code={{.*}}control-tool.c:[[#@LINE-39]]
// DUMP-NEXT: tool_control {{.*}} command=start code={{.*}}control-tool.c:[[#@LINE-36]]
// DUMP-NEXT: tool_control {{.*}} command=flush code={{.*}}control-tool.c:
// DUMP-NEXT: tool_control {{.*}} command=end code={{.*}}control-tool.c:
// DUMP-NOT: tool_control
// OTF2: PARAMETER_UINT64 {{.*}} Parameter: "otter:control"
// OTF2-NOT: error
