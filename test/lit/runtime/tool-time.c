// OTTER's own time (docs/utils.md, "OTTER's own time"): a full event
// buffer's flush is recorded as a tool_begin/tool_end pair, the recording
// cost per event measured at start is in the trace, and no view counts
// either as the program's: the state timeline has them as `tool`, outside
// every task's execution and construct's waiting (check-states.py), and
// `otter summary` says how much there was.
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t | FileCheck %s --check-prefix=OUT
// OUT: sum=1984
// RUN: otter dump --kind tool_begin %t.d | FileCheck %s --check-prefix=DUMP
// DUMP: tool_begin work=flush
// RUN: otter dump --kind tool_end %t.d | FileCheck %s --check-prefix=DUMPEND
// DUMPEND: tool_end work=flush
// RUN: otter summary %t.d | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: OTTER: {{ *}}{{[0-9.]+ [mun]?s}} of the thread time is OTTER's own, in no figure above:
// SUMMARY-NEXT: {{^  [0-9.]+ [mun]?s}} writing out full event buffers; {{[0-9.]+ [mun]?s}} recording events: {{[1-9][0-9]*}} ns an event (measured at start),
// SUMMARY-NEXT: taken out of each interval between two events where it is at least 5 % of it
// RUN: otter summary --json %t.d | python3 -c "import json, sys; j = json.load(sys.stdin); assert j['tool_flush_ns'] > 0 and j['recording_cost_ns'] > 0 and j['tool_ns'] == j['tool_flush_ns'] + j['recording_ns'], j; print('tool json ok')" | FileCheck %s --check-prefix=JSON
// JSON: tool json ok
// RUN: %check-states --report --expect-wait taskwait %t.d | FileCheck %s --check-prefix=STATES
// STATES: states: ok (2 threads)
// RUN: otter report %t.d -o %t.html
// RUN: FileCheck %s --check-prefix=REPORT < %t.html
// REPORT: <td>OTTER's own time</td><td class="n" id="tool_ns" data-value="{{[1-9][0-9]*}}">
// REPORT: "tool_ns":{{[1-9][0-9]*}},"tool_flush_ns":{{[1-9][0-9]*}},"recording_ns":{{[0-9]+}},"recording_cost_ns":{{[1-9][0-9]*}}
// RUN: otter export --format states -o - %t.d | FileCheck %s --check-prefix=CSV
// CSV: {{^[01],[0-9]+,[0-9]+,tool,,,,$}}
#include <stdio.h>

static int work(int n) {
  int s = 0;
#pragma omp taskloop grainsize(1) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}

int main(void) {
  int sum = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int r = 0; r < 64; ++r) {
#pragma omp task shared(sum)
      {
        int v = work(64);
#pragma omp atomic
        sum += v / 64;
      }
    }
#pragma omp taskwait
  }
  printf("sum=%d\n", sum);
  return 0;
}
