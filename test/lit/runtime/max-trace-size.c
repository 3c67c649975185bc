// OTTER_MAX_TRACE_SIZE: a program that creates tasks for at least 2 seconds
// and at least 100,000 of them (a trace of ~8 MB: the limit is reached on a
// loaded machine too), and ends by itself (exit code 3), traced with a
// 1 MiB limit. Recording
// stops at the limit with one line on stderr naming the variable; the
// program's output and exit code are unchanged; the trace stays under the
// limit plus one buffer of events per thread (docs/trace.md, "Size limit"),
// balanced (its open regions closed), marked as cut (otter says so), and the
// graph is written for what was recorded.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: rm -rf %t.d
// RUN: sh -c '%otter-run OTTER_MAX_TRACE_SIZE=1M OTTER_BUFFER_EVENTS=1024 OTTER_OUTPUT_DIR=%t.d %t > %t.traced 2> %t.err; echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %check-trace %t.d
// RUN: python3 -c "import os,sys; n=sum(os.path.getsize(os.path.join(d,f)) for d,_,fs in os.walk(sys.argv[1]) for f in fs); print('under' if n <= 1024*1024 + 2*1024*48 + 65536 else 'over', n)" %t.d/trace | FileCheck --check-prefix=SIZE %s
// RUN: otter summary %t.d > %t.sum 2> %t.sum.err
// RUN: FileCheck --check-prefix=CUT %s < %t.sum.err
// RUN: test -s %t.d/graph.txt
// A bad value: one warning, the default.
// RUN: rm -rf %t.b
// RUN: sh -c '%otter-run OTTER_MAX_TRACE_SIZE=2X OTTER_GRAPH_FORMAT=none OTTER_OUTPUT_DIR=%t.b %t > %t.bad.out 2> %t.bad.err; test $? = 3'
// RUN: FileCheck --check-prefix=BAD %s < %t.bad.err
#include <omp.h>
#include <stdio.h>

int main(void) {
  long n = 0, made = 0;
  double end = omp_get_wtime() + 2.0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (; made < 100000 || omp_get_wtime() < end; made += 100) {
    for (int i = 0; i < 100; ++i) {
#pragma omp task shared(n)
      {
#pragma omp atomic
        n++;
      }
    }
#pragma omp taskwait
  }
  printf("done: %s\n", n == made ? "every task ran" : "tasks missing");
  return 3;
}
// ERR: otter: the trace reached its size limit (1048576 bytes, OTTER_MAX_TRACE_SIZE): recording stopped here
// ERR-NOT: size limit
// SIZE: under
// CUT: otter: warning: the trace in '{{.*}}' was cut at its size limit (OTTER_MAX_TRACE_SIZE=1048576)
// BAD: otter: warning: OTTER_MAX_TRACE_SIZE='2X' is not valid
// BAD-NOT: size limit
