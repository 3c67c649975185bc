// otter-run says, in one line each, why a run would trace nothing (issue 28
// item 1): a program that loads no OpenMP runtime, OMP_TOOL=disabled, a
// tool library in OMP_TOOL_LIBRARIES that does not exist. The program still
// runs, with its own output and exit code.
// RUN: %clang %s -o %t.plain
// RUN: %clang -fopenmp %s -o %t.omp
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d
// RUN: not otter-run %t.plain > %t.out1 2> %t.err1
// RUN: FileCheck --check-prefix=OUT %s < %t.out1
// RUN: FileCheck --check-prefix=NOOMP %s < %t.err1
// RUN: not env OMP_TOOL=Disabled otter-run %t.omp > %t.out2 2> %t.err2
// RUN: FileCheck --check-prefix=OUT %s < %t.out2
// RUN: FileCheck --check-prefix=DISABLED %s < %t.err2
// RUN: not env OMP_TOOL_LIBRARIES=/nonexistent/libtool.so otter-run -o %t.d/typo %t.omp > %t.out3 2> %t.err3
// RUN: FileCheck --check-prefix=OUT %s < %t.out3
// RUN: FileCheck --check-prefix=TYPO %s < %t.err3
// RUN: test -f %t.d/typo/graph.gv
// An OpenMP program with nothing wrong: no warning of these.
// RUN: not otter-run -o %t.d/good %t.omp > %t.out4 2> %t.err4
// RUN: FileCheck --check-prefix=GOOD %s < %t.err4
#include <stdio.h>

int main(void) {
  int n = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(2) reduction(+ : n)
#endif
  n += 1;
  printf("ran\n");
  return 3;
}

// OUT: ran
// NOOMP: otter-run: warning: {{.*}}.plain loads no OpenMP runtime (not built with -fopenmp?): nothing will be traced
// DISABLED: otter-run: warning: OMP_TOOL=disabled is set: the OpenMP runtime will load no tool and nothing will be traced; unset OMP_TOOL
// TYPO: otter-run: warning: OMP_TOOL_LIBRARIES names /nonexistent/libtool.so, which does not exist (a typo?)
// GOOD-NOT: otter-run: warning
