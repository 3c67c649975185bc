// Bad filter files never stop the program: at run time one warning line
// naming the file and line, the filter ignored, the program's output and
// exit code those of the untraced run; at compile time one clang error
// naming the file and line. Without the plugin's labels, file and function
// rules cannot apply: said once, kind rules still do.
//
// RUN: %clang -fopenmp %s -o %t
// RUN: sh -c '%t > %t.plain; echo "exit=$?" >> %t.plain'
// RUN: printf 'exclude kind task\n\n  exclude funtion f  # typo\n' > %t.bad
// RUN: rm -rf %t.d %t.d2 %t.d3 %t.d4
// RUN: sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon OTTER_FILTER=%t.bad %t > %t.out 2> %t.err; echo "exit=$?" >> %t.out'
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=BAD %s < %t.err
// RUN: grep -c "otter: warning" %t.err | FileCheck --check-prefix=ONE %s
// RUN: FileCheck --check-prefix=UNFILTERED %s < %t.d/graph.txt
//
// RUN: sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d2 OTTER_GRAPH_FORMAT=canon OTTER_FILTER=%t.missing %t > %t.out2 2> %t.err2; echo "exit=$?" >> %t.out2'
// RUN: diff %t.plain %t.out2
// RUN: FileCheck --check-prefix=MISSING %s < %t.err2
// RUN: FileCheck --check-prefix=UNFILTERED %s < %t.d2/graph.txt
//
// No plugin labels: the function rule cannot apply, the kind rule does.
// RUN: printf 'exclude function main\nexclude kind task\n' > %t.nolabels
// RUN: sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d3 OTTER_GRAPH_FORMAT=canon OTTER_FILTER=%t.nolabels %t > %t.out3 2> %t.err3; echo "exit=$?" >> %t.out3'
// RUN: diff %t.plain %t.out3
// RUN: FileCheck --check-prefix=NOLABELS %s < %t.err3
// RUN: FileCheck --check-prefix=NOTASKS %s < %t.d3/graph.txt
//
// A directory is no filter file either.
// RUN: sh -c 'env %otter_env OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none OTTER_FILTER=%S %t > %t.out5 2> %t.err5; echo "exit=$?" >> %t.out5'
// RUN: diff %t.plain %t.out5
// RUN: FileCheck --check-prefix=DIR %s < %t.err5
// RUN: sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.d4 OTTER_GRAPH_FORMAT=canon OTTER_FILTER= %t > %t.out4 2> %t.err4; echo "exit=$?" >> %t.out4'
// RUN: diff %t.plain %t.out4
// RUN: FileCheck --check-prefix=EMPTY %s < %t.err4
//
// At compile time: an error, and no object.
// RUN: not %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-filter=%t.bad -c %s -o %t.o 2> %t.cc-err
// RUN: FileCheck --check-prefix=CC %s < %t.cc-err
// RUN: not test -e %t.o
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    n += 1;
  }
  printf("n=%d\n", n);
  return 3;
}

// BAD: otter: warning: {{.*}}.bad:3: found 'funtion'; expected 'file', 'function' or 'kind'; the filter is ignored (tracing everything){{$}}
// BAD: otter: wrote
// ONE: {{^1$}}
// UNFILTERED: # otter canonical graph v1:
// UNFILTERED-NOT: filtered
// UNFILTERED: {{^n[0-9]+ task }}
// MISSING: otter: warning: {{.*}}.missing: cannot read the filter file: No such file or directory; the filter is ignored (tracing everything){{$}}
// NOLABELS: otter: warning: {{.*}}.nolabels: file and function rules need the plugin's labels, and no loaded object was built with it (-fplugin=otter.so); only kind rules apply{{$}}
// NOLABELS-NOT: warning
// NOTASKS: # filtered: run time {{.*}}.nolabels: exclude function main; exclude kind task
// NOTASKS-NOT: {{^n[0-9]+ task }}
// NOTASKS: single_begin
// DIR: otter: warning: {{.*}}filter: cannot read the filter file: Is a directory; the filter is ignored (tracing everything){{$}}
// EMPTY: otter: warning: OTTER_FILTER is empty (give the path of a filter file); not filtering
// CC: error: otter: {{.*}}.bad:3: found 'funtion'; expected 'file', 'function' or 'kind'{{$}}
