// SIGKILL gives the tool no chance to close the archive. What the writer had
// written to disk before must still read: the anchor and the definitions
// are checkpointed at the chunk flushes (anchor property OTTER::STATE
// "running"), every event file ends with a terminating chunk. otf2-print
// reads it cleanly; otter-graph rebuilds the graph of what was written (the
// events each thread had flushed, a prefix of the run) and says so in one
// warning line. Lost: per thread, the recorder's buffer and OTF2's chunks
// still in memory (<= one 4 MiB chunk of encoded events), since its last
// periodic flush if the run outlasted OTTER_FLUSH_INTERVAL
// (trace/periodic-flush.c).
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && not --crash %otter-run OTTER_BUFFER_EVENTS=4096 OTTER_OUTPUT_DIR=%t.d %t > %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: timeout 120 otf2-print %t.d/trace/traces.otf2 > %t.print 2> %t.print.err
// RUN: count 0 < %t.print.err
// RUN: grep -c THREAD_TASK_CREATE %t.print | FileCheck --check-prefix=COUNT %s
// RUN: otf2-print -A %t.d/trace/traces.otf2 | FileCheck --check-prefix=ANCHOR %s
// RUN: timeout 120 otter-graph %t.d -o %t.re --format canon 2> %t.graph.err
// RUN: FileCheck --check-prefix=WARN %s < %t.graph.err
// RUN: FileCheck --check-prefix=GRAPH %s < %t.re/graph.txt
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 400000; ++i) {
#pragma omp task
      {
#pragma omp atomic
        s += i % 3;
      }
      if (i % 1000 == 999) {
#pragma omp taskwait
      }
    }
#pragma omp taskwait
    printf("s=%ld\n", s);
    fflush(stdout);
    kill(getpid(), SIGKILL);
  }
  return 0;
}
// OUT: s=399999
// At least one OTF2 chunk flush per ~40,000 tasks reached the disk.
// COUNT: {{[1-9][0-9][0-9][0-9][0-9][0-9]?}}
// ANCHOR: Property name OTTER::STATE
// ANCHOR-NEXT: Property value running
// WARN: otter-graph: warning: {{.*}} was not closed
// WARN-NOT: error
// GRAPH: n0 initial_task
// GRAPH: parallel
