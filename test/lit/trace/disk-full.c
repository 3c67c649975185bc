// A full disk (simulated: an LD_PRELOAD shim fails every write to a file
// once a byte budget is used up). The program runs and exits as without
// the tool; each output that could not be written gets one line; what
// reached the disk before it filled stays readable.
// In a sanitizer build the sanitizer runtime stays first in the preload
// list (%sanitizer_preload), ahead of the shim.
// RUN: %clang -shared -fPIC %S/Inputs/enospc.c -o %t.enospc.so -ldl
// RUN: %clang -fopenmp -O1 %s -o %t
//
// Nothing fits: one line for the trace, one for the graph files.
// RUN: rm -rf %t.d0 && %otter-run LD_PRELOAD=%sanitizer_preload%t.enospc.so OTTER_TEST_DISK_BYTES=0 OTTER_OUTPUT_DIR=%t.d0 %t 12 > %t.out0 2> %t.err0
// RUN: FileCheck --check-prefix=OUT12 %s < %t.out0
// RUN: FileCheck --check-prefix=NONE %s < %t.err0
// RUN: grep -c . %t.err0 | FileCheck --check-prefix=TWO %s
// NONE-DAG: otter: error: the trace in '{{.*}}/trace' is incomplete: writing it failed ({{.*}}No space left on device{{.*}}); is the disk full, or a file-size limit (ulimit -f) reached? (OTTER_OUTPUT_DIR chooses where it goes)
// NONE-DAG: otter: error: error writing {{.*}}: No space left on device; removed it (check OTTER_OUTPUT_DIR)
// NONE-NOT: otter: wrote
// TWO: 2
// RUN: not otter summary %t.d0 2>&1 | FileCheck --check-prefix=EMPTY %s
// EMPTY: otter: error: '{{.*}}traces.otf2' is empty: the traced run could not write its trace (was the disk full?)
//
// Room for less than one 4 MiB OTF2 chunk per thread (OTF2 writes an event
// file by whole chunks, and buffers smaller ones into 4 MiB writes): no
// thread's events reach the disk. The program runs as untraced, one line
// says so, and no utility passes an empty graph off as the program's.
// RUN: rm -rf %t.d3 %t.g3 && %otter-run LD_PRELOAD=%sanitizer_preload%t.enospc.so OTTER_TEST_DISK_BYTES=3000000 OTTER_GRAPH_FORMAT=none OTTER_FLUSH_INTERVAL=0 OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d3 %t 26 > %t.out3 2> %t.err3
// RUN: FileCheck --check-prefix=OUT26 %s < %t.out3
// RUN: FileCheck --check-prefix=MID %s < %t.err3
// RUN: grep -c . %t.err3 | FileCheck --check-prefix=ONE %s
// RUN: rm -rf %t.g3 && not otter-graph %t.d3 -o %t.g3 2> %t.g3.err
// RUN: FileCheck --check-prefix=NOEVENTS %s < %t.g3.err
// RUN: grep -c . %t.g3.err | FileCheck --check-prefix=ONE %s
// RUN: test ! -e %t.g3
// RUN: not otter graph %t.d3 -o %t.g3 2>&1 | FileCheck --check-prefix=NOEVENTS %s
// RUN: test ! -e %t.g3
// NOEVENTS: error: the trace in '{{.*}}' holds no events: the traced run could not write any (was the disk full?); no graph written
//
// The disk fills up while the program runs (two threads, ~28 MB of
// trace, room for ~12): the trace ends with the last chunks that fit, and
// reads cleanly.
// RUN: rm -rf %t.d1 && %otter-run LD_PRELOAD=%sanitizer_preload%t.enospc.so OTTER_TEST_DISK_BYTES=12000000 OTTER_GRAPH_FORMAT=none OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d1 %t 26 > %t.out1 2> %t.err1
// RUN: FileCheck --check-prefix=OUT26 %s < %t.out1
// RUN: FileCheck --check-prefix=MID %s < %t.err1
// RUN: grep -c . %t.err1 | FileCheck --check-prefix=ONE %s
// RUN: otf2-print %t.d1/trace/traces.otf2 2>&1 >/dev/null | count 0
// RUN: otf2-print %t.d1/trace/traces.otf2 | grep -c THREAD_TASK_CREATE | FileCheck --check-prefix=SOME %s
// RUN: otter summary %t.d1 > %t.sum 2> %t.sum.err
// RUN: FileCheck --check-prefix=SUMMARY %s < %t.sum
// RUN: FileCheck --check-prefix=NOTCLOSED %s < %t.sum.err
// NOTCLOSED: otter: warning: the trace in '{{.*}}' was not closed (the program is still running, was killed, or the disk filled up)
// MID: otter: error: the trace in '{{.*}}/trace' is incomplete: writing it failed (thread {{[01]}}: No space left on device{{.*}}); is the disk full, or a file-size limit (ulimit -f) reached?
// ONE: 1
// SOME: {{[1-9][0-9][0-9][0-9]+}}
// SUMMARY: threads
//
// The disk fills up at the end (room for ~26 of the ~28 MB): closing the
// archive fails, and the last checkpoint's anchor and definitions are put
// back, each event file cut back to its last complete chunk.
// RUN: rm -rf %t.d2 && %otter-run LD_PRELOAD=%sanitizer_preload%t.enospc.so OTTER_TEST_DISK_BYTES=26000000 OTTER_GRAPH_FORMAT=none OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t 26 > %t.out2 2> %t.err2
// RUN: FileCheck --check-prefix=OUT26 %s < %t.out2
// RUN: FileCheck --check-prefix=LATE %s < %t.err2
// RUN: otf2-print %t.d2/trace/traces.otf2 2>&1 >/dev/null | count 0
// RUN: otter summary %t.d2 2>/dev/null | FileCheck --check-prefix=SUMMARY %s
// LATE: otter: error: the trace in '{{.*}}/trace' is incomplete: writing it failed ({{.*}}No space left on device{{.*}}); is the disk full, or a file-size limit (ulimit -f) reached?
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 12;
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(n);
  printf("fib(%d)=%ld\n", n, r);
  return 0;
}
// OUT12: fib(12)=144
// OUT26: fib(26)=121393
