// A run owns its output directory (issue 28): it writes a manifest
// (.otter-files) of the files it wrote, and the next run into the same
// directory removes those files first, so two runs' files never mix (a
// canon graph.txt beside the next run's CSVs); files OTTER did not write
// stay. An output directory that cannot be written is one error line, and
// the program's output and exit code are unchanged.
// RUN: %clang -fopenmp %s -o %t
// RUN: rm -rf %t.d && not env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t > /dev/null 2>&1
// RUN: echo mine > %t.d/notes.txt
// RUN: ls %t.d | FileCheck --check-prefix=FIRST %s
// RUN: FileCheck --check-prefix=MANIFEST %s < %t.d/.otter-files
// RUN: not env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=csv %t > /dev/null 2>&1
// RUN: ls %t.d | FileCheck --check-prefix=SECOND %s
// RUN: FileCheck --check-prefix=MANIFEST2 %s < %t.d/.otter-files
// The trace read afterwards is the second run's.
// RUN: otter summary %t.d > /dev/null
//
// Not a directory (a file there), and one that cannot be made: one line
// each, nothing traced, the program as untraced.
// RUN: echo x > %t.file
// RUN: not %t > %t.plain
// RUN: not env %otter_env OTTER_OUTPUT_DIR=%t.file %t > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=NOTDIR --implicit-check-not=otter %s < %t.err
// RUN: not env %otter_env OTTER_OUTPUT_DIR=/proc/otter-cannot/x %t > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=NOMAKE --implicit-check-not=otter %s < %t.err
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("n=%d\n", n);
  return 3;
}

// FIRST: graph.txt
// FIRST-NEXT: notes.txt
// FIRST-NEXT: trace
// MANIFEST: # The files an OTTER run wrote here
// MANIFEST-NOT: notes.txt
// MANIFEST: graph.txt
// SECOND-NOT: graph.txt
// SECOND: graph.csv
// SECOND-NEXT: nodes.csv
// SECOND-NEXT: notes.txt
// SECOND-NEXT: trace
// MANIFEST2: nodes.csv
// MANIFEST2-NEXT: graph.csv
// NOTDIR: otter: error: cannot write to output directory '{{.*}}.file': exists and is not a directory (set OTTER_OUTPUT_DIR to a writable directory); not tracing
// NOMAKE: otter: error: cannot write to output directory '/proc/otter-cannot/x': No such file or directory (set OTTER_OUTPUT_DIR to a writable directory); not tracing
