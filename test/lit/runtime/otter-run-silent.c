// otter-run says, in one line each, why a run would trace nothing (issue 28
// item 1): a program that loads no OpenMP runtime, OMP_TOOL=disabled, a
// tool library in OMP_TOOL_LIBRARIES that does not exist; and, at the end
// of the run, an OpenMP program that started no OpenMP construct (libomp
// then never loads a tool). The program still runs, with its own output and
// exit code.
// RUN: %clang %s -o %t.plain
// RUN: %clang -fopenmp %s -o %t.omp
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d
// RUN: not otter-run %t.plain > %t.out1 2> %t.err1
// RUN: FileCheck --check-prefix=OUT %s < %t.out1
// RUN: FileCheck --check-prefix=NOOMP %s < %t.err1
// RUN: not env OMP_TOOL=Disabled otter-run %t.omp > %t.out2 2> %t.err2
// RUN: FileCheck --check-prefix=OUT %s < %t.out2
// RUN: FileCheck --check-prefix=DISABLED %s < %t.err2
// RUN: not grep -q "ran no OpenMP construct" %t.err2
// RUN: not env OMP_TOOL_LIBRARIES=/nonexistent/libtool.so otter-run -o %t.d/typo %t.omp > %t.out3 2> %t.err3
// RUN: FileCheck --check-prefix=OUT %s < %t.out3
// RUN: FileCheck --check-prefix=TYPO %s < %t.err3
// RUN: test -f %t.d/typo/graph.gv
// An OpenMP program with nothing wrong: no warning of these.
// RUN: not otter-run -o %t.d/good %t.omp > %t.out4 2> %t.err4
// RUN: FileCheck --check-prefix=GOOD %s < %t.err4
// Built with -fopenmp, but its one construct does not run (an argument
// skips it): one line at the end; nothing written.
// RUN: not otter-run -o %t.d/none %t.omp skip > %t.out5 2> %t.err5
// RUN: FileCheck --check-prefix=OUT %s < %t.out5
// RUN: FileCheck --check-prefix=NONE %s < %t.err5
// RUN: test ! -e %t.d/none
// The same program as a child of a script: the look is the script's
// process's alone (a child stays silent) and the program never sees
// otter-run's variable.
// RUN: otter-run -o %t.d/child sh -c '%t.omp skip; env' > %t.out6 2> %t.err6
// RUN: not grep -q "ran no OpenMP construct" %t.err6
// RUN: not grep -q OTTER_RUN_CHECK %t.out6
// RUN: not grep -q libotter-check %t.out6
#include <stdio.h>

/// The construct in a function of its own: clang asks libomp for the
/// thread number at the start of a function with a reduction, which would
/// start libomp (and OTTER) even when the construct is skipped.
static int team(void) {
  int n = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(2) reduction(+ : n)
#endif
  n += 1;
  return n;
}

int main(int argc, char **argv) {
  (void)argv;
  int n = argc == 1 ? team() : 0;
  printf("ran\n");
  return 3 + n - n;
}

// OUT: ran
// NOOMP: otter-run: warning: {{.*}}.plain loads no OpenMP runtime (not built with -fopenmp?): nothing will be traced
// DISABLED: otter-run: warning: OMP_TOOL=disabled is set: the OpenMP runtime will load no tool and nothing will be traced; unset OMP_TOOL
// TYPO: otter-run: warning: OMP_TOOL_LIBRARIES names /nonexistent/libtool.so, which does not exist (a typo?)
// GOOD-NOT: otter-run: warning
// NONE: otter-run: warning: {{.*}}.omp ran no OpenMP construct, or its OpenMP runtime could not load OTTER: nothing was traced (OMP_TOOL_VERBOSE_INIT=stderr shows what the runtime tried)
