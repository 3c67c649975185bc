// Invalid OTTER_* values: one line each naming the variable and the allowed
// values; the default is used; the program's output and exit code are those
// of the untraced run.
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: sh -c 'rm -rf %t.d && env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.d \
// RUN:   OTTER_TRACE=maybe OTTER_VERBOSE=2 OTTER_GRAPH_FORMAT=dot,xml OTTER_BUFFER_EVENTS=12x \
// RUN:   OTTER_OUTPUTDIR=typo OTTER_SOMETHING=1 OTTER_CC=clang \
// RUN:   %t > %t.traced 2> %t.err; echo "exit=$?" >> %t.traced'
// RUN: diff %t.plain %t.traced
// RUN: FileCheck %s < %t.err
// RUN: test -f %t.d/graph.gv && test -f %t.d/nodes.csv && test -f %t.d/graph.csv
// A value holding an escape sequence and a byte that is not UTF-8 is
// quoted with '?' for each: no raw byte reaches the terminal.
// RUN: sh -c 'rm -rf %t.e && env OMP_TOOL_LIBRARIES=%libotter OTTER_OUTPUT_DIR=%t.e \
// RUN:   OTTER_START="$(printf "\033[2Jpause\377d")" %t > /dev/null 2> %t.err2' || true
// RUN: FileCheck --check-prefix=ESCAPED %s < %t.err2
// RUN: not grep -q "$(printf '\033')" %t.err2
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("n=%d\n", n);
  return 3;
}

// CHECK-DAG: otter: warning: OTTER_TRACE='maybe' is not valid (use 1 or 0; true/false, yes/no and on/off, in any case, also work); using the default 1
// CHECK-DAG: otter: warning: OTTER_VERBOSE='2' is not valid (use 1 or 0; true/false, yes/no and on/off, in any case, also work); using the default 0
// A typo of a variable's name: one line, with the name it is closest to;
// a variable of OTTER's wrappers (OTTER_CC) is no typo.
// CHECK-DAG: otter: warning: OTTER_OUTPUTDIR is not a variable OTTER reads (did you mean OTTER_OUTPUT_DIR?); ignored (README.md lists the variables)
// CHECK-DAG: otter: warning: OTTER_SOMETHING is not a variable OTTER reads; ignored (README.md lists the variables)
// CHECK-NOT: OTTER_CC
// CHECK-DAG: otter: warning: OTTER_GRAPH_FORMAT='dot,xml' is not valid ('xml' is unknown) (use a comma list of csv, dot, canon, all, none); using the default dot,csv
// CHECK-DAG: otter: warning: OTTER_BUFFER_EVENTS='12x' is not valid (use a whole number from 1024 to 16777216); using the default 16384
// CHECK: otter: wrote

// ESCAPED: otter: warning: OTTER_START='?[2Jpause?d' is not valid
