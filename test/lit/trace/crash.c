// The application's fate is the tool's: exit() inside a parallel region,
// abort() and SIGSEGV end the program exactly as without the tool (status,
// signal), and the trace written up to then still reads.
// (In a sanitizer build, test/lit.cfg.py leaves these signals to the
// program and the tool: handle_segv=0 and the like.)
// RUN: %clang -fopenmp %s -o %t
// exit(3) inside a parallel region: status 3 with and without the tool.
// RUN: rm -rf %t.1 && not %otter-run OTTER_OUTPUT_DIR=%t.1 %t 1 > %t.1.out
// RUN: sh -c '%otter-run OTTER_OUTPUT_DIR=%t.1b %t 1 >/dev/null 2>&1; echo status=$?' | FileCheck --check-prefix=EXIT %s
// RUN: sh -c '%t 1 > /dev/null; echo status=$?' | FileCheck --check-prefix=EXIT %s
// RUN: %check-rebuild --open --format canon %t.1
// abort(): SIGABRT, as without the tool.
// RUN: rm -rf %t.2 && not --crash %otter-run OTTER_OUTPUT_DIR=%t.2 %t 2 2> %t.2.err
// RUN: FileCheck --check-prefix=CRASH %s < %t.2.err
// RUN: otter-graph %t.2 -o %t.2.re --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t.2.re/graph.txt
// SIGSEGV in the application.
// RUN: rm -rf %t.3 && not --crash %otter-run OTTER_OUTPUT_DIR=%t.3 %t 3 2> %t.3.err
// RUN: FileCheck --check-prefix=CRASH %s < %t.3.err
// RUN: otter-graph %t.3 -o %t.3.re --format canon
// RUN: FileCheck --check-prefix=GRAPH %s < %t.3.re/graph.txt
// RUN: sh -c '%otter-run OTTER_OUTPUT_DIR=%t.3b %t 3 >/dev/null 2>&1; echo status=$?; %t 3 >/dev/null 2>&1; echo status=$?' | FileCheck --check-prefix=SEGV %s
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  int x = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      for (int i = 0; i < 100; ++i) {
#pragma omp task
        {
#pragma omp atomic
          x++;
        }
      }
#pragma omp taskwait
      fflush(stdout);
      if (mode == 1)
        exit(3);
      if (mode == 2)
        abort();
      if (mode == 3) {
        volatile int *p = 0;
        *p = 1;
      }
    }
  }
  printf("x=%d\n", x);
  return 0;
}
// EXIT: status=3
// CRASH: otter: the program crashed; saved the trace in {{.*}}/trace/
// GRAPH: n0 initial_task
// GRAPH: taskwait
// SEGV: status=139
// SEGV-NEXT: status=139
