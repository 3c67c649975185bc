// OTTER_FLUSH_INTERVAL: a thread's first events after the interval put what
// it recorded so far on disk (its buffer, and OTF2's chunk being filled:
// its records copied to the event file and terminated), so a process killed
// with SIGKILL keeps all but its last seconds, even with far less than one
// 4 MiB chunk per thread. Here 200 tasks, then 2 s of sleep, then a
// parallel region: each thread's first event in it finds the flush due,
// its second flushes the buffer; the SIGKILL after the region loses only
// what came after those flushes (the flushes' own tool_begin / tool_end
// among it: they open the next buffer). Every task of the first region
// reads back, and each thread's events up to its first of the second
// region, no more; the archive reads cleanly (otf2-print) and says it was
// not closed. Without the interval (0) nothing reached the disk: no
// archive.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && not --crash %otter-run OTTER_FLUSH_INTERVAL=1 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: timeout 120 otf2-print %t.d/trace/traces.otf2 > %t.print 2> %t.print.err
// RUN: count 0 < %t.print.err
// RUN: grep -c THREAD_TASK_CREATE %t.print | FileCheck --check-prefix=COUNT %s
// RUN: otf2-print -A %t.d/trace/traces.otf2 | FileCheck --check-prefix=ANCHOR %s
// RUN: %check-trace --allow-open %t.d/trace/traces.otf2
// RUN: timeout 120 otter dump %t.d > %t.dump 2> %t.dump.err
// RUN: FileCheck --check-prefix=WARN %s < %t.dump.err
// RUN: FileCheck --check-prefix=DUMP %s < %t.dump
// RUN: rm -rf %t.off && not --crash %otter-run OTTER_FLUSH_INTERVAL=0 OTTER_OUTPUT_DIR=%t.off %t > %t.off.out
// RUN: FileCheck --check-prefix=OUT %s < %t.off.out
// RUN: not test -e %t.off/trace/traces.otf2
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp masked
  for (int i = 0; i < 200; ++i) {
#pragma omp task
    {
#pragma omp atomic
      s += i % 3;
    }
  }
  sleep(2); // past every thread's deadline
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  }
  printf("s=%ld\n", s);
  fflush(stdout);
  raise(SIGKILL);
  return 0;
}
// OUT: s=199
// COUNT: 200
// ANCHOR: Property name OTTER::STATE
// ANCHOR-NEXT: Property value running
// WARN: warning: {{.*}} was not closed
// WARN-NOT: error
// DUMP: thread 0
// DUMP-NEXT: thread_begin type=initial
// DUMP: task_create
// DUMP: parallel_end
// DUMP-NEXT: parallel_begin {{.*}}code=periodic-flush.c.tmp+
// DUMP-NEXT: thread 1
// DUMP-NEXT: thread_begin type=worker
// DUMP: implicit_task_end
// DUMP-NEXT: implicit_task_begin {{.*}}index=1 flags=implicit
// DUMP-NOT: {{.}}
