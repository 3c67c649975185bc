// Under a file-size limit (ulimit -f) a write past it raises SIGXFSZ, whose
// default action ends the process: OTTER's own files used to kill a program
// that runs to its end untraced (status 153). Now the program's output and
// status are those of the untraced run, OTTER says in one line what it
// could not write, and leaves no cut graph file behind.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c 'ulimit -f 2000; %t; echo status=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'ulimit -f 2000; env %otter_env OTTER_OUTPUT_DIR=%t.d %t 2> %t.err; echo status=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=OUT %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// The graph does not fit in the limit: no cut nodes.csv passes for it.
// RUN: test ! -e %t.d/nodes.csv
// Nor does the trace (no 4 MiB chunk fits in the limit): the utilities say
// that it holds no events instead of passing an empty graph off as the
// program's.
// RUN: rm -rf %t.g && not otter-graph %t.d -o %t.g 2>&1 | FileCheck --check-prefix=NOEVENTS %s
// RUN: test ! -e %t.g
// The program's own write past the limit still gets its SIGXFSZ.
// RUN: rm -rf %t.d2 && sh -c 'ulimit -f 2000; env %otter_env OTTER_OUTPUT_DIR=%t.d2 %t write-past-limit %t.big 2>/dev/null; echo status=$?' | FileCheck --check-prefix=OWN %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  long s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
  {
#pragma omp single
    for (int i = 0; i < 100000; ++i) {
#pragma omp task
      {
        volatile int x = i;
        (void)x;
      }
    }
    s += 1;
  }
  printf("s=%ld\n", s);
  fflush(stdout);
  if (argc > 2 && strcmp(argv[1], "write-past-limit") == 0) {
    FILE *f = fopen(argv[2], "w");
    static char block[1 << 20];
    for (int i = 0; i < 16; ++i)
      fwrite(block, 1, sizeof block, f);
    fclose(f);
    printf("not reached\n");
  }
  return 0;
}

// OUT: s=2
// OUT-NEXT: status=0
// ERR: otter: error: the trace in '{{.*}}' is incomplete: writing it failed ({{.*}}File {{.*}}too large{{.*}}); is the disk full, or a file-size limit (ulimit -f) reached?
// ERR-NEXT: otter: error: error writing {{.*}}nodes.csv: File too large; removed it
// OWN: s=2
// OWN-NEXT: status=153
// NOEVENTS: error: the trace in '{{.*}}' holds no events
