// An MPI job owns its directory as a single run does (issue 28): the rank
// that assembles the job's archive writes the job's manifest (.otter-files:
// trace, rank-0 ...), and removes what the previous manifest there names and
// this job does not have: a single run's graph files, and on a rerun with
// fewer ranks the rank-N/ of the ranks gone. The job's archive is of this
// job's ranks only. Files OTTER did not write stay.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: %clang -fopenmp -DNO_MPI %s -o %t.single
// A single run first: its graph.txt is named in the directory's manifest.
// RUN: rm -rf %t && env %otter_env OTTER_OUTPUT_DIR=%t OTTER_GRAPH_FORMAT=canon %t.single > /dev/null 2>&1
// RUN: echo mine > %t/notes.txt
// RUN: ls %t | FileCheck --check-prefix=SINGLE %s
// RUN: %mpirun -np 3 otter-run -o %t %t.prog > %t.out3 2>&1
// RUN: FileCheck --check-prefix=OUT3 %s < %t.out3
// RUN: ls %t | FileCheck --check-prefix=THREE %s
// RUN: FileCheck --check-prefix=MANIFEST3 --match-full-lines %s < %t/.otter-files
// A rank's own manifest lists its mpi.csv (which the "wrote" line does not).
// RUN: FileCheck --check-prefix=RANK --match-full-lines %s < %t/rank-2/.otter-files
// RUN: %mpirun -np 2 otter-run -o %t %t.prog > %t.out2 2>&1
// RUN: FileCheck --check-prefix=OUT2 %s < %t.out2
// RUN: ls %t | FileCheck --check-prefix=TWO %s
// RUN: FileCheck --check-prefix=MANIFEST2 --match-full-lines %s < %t/.otter-files
// RUN: otter summary %t/trace > /dev/null
#ifndef NO_MPI
#include <mpi.h>
#endif
#include <stdio.h>

int main(int argc, char **argv) {
#ifndef NO_MPI
  MPI_Init(&argc, &argv);
#endif
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
#ifndef NO_MPI
  MPI_Finalize();
#endif
  (void)argc;
  (void)argv;
  return n == 2 ? 0 : 1;
}

// SINGLE: graph.txt
// SINGLE-NEXT: notes.txt
// SINGLE-NEXT: trace

// OUT3: otter: wrote {{.*}}/trace/ (OTF2 archive of the job: 3 ranks,
// THREE-NOT: graph.txt
// THREE: notes.txt
// THREE-NEXT: rank-0
// THREE-NEXT: rank-1
// THREE-NEXT: rank-2
// THREE-NEXT: trace

// RANK: mpi.csv

// MANIFEST3:      trace
// MANIFEST3-NEXT: rank-0
// MANIFEST3-NEXT: rank-1
// MANIFEST3-NEXT: rank-2

// OUT2: otter: wrote {{.*}}/trace/ (OTF2 archive of the job: 2 ranks,
// TWO:      notes.txt
// TWO-NEXT: rank-0
// TWO-NEXT: rank-1
// TWO-NEXT: trace

// MANIFEST2:      trace
// MANIFEST2-NEXT: rank-0
// MANIFEST2-NEXT: rank-1
// MANIFEST2-NOT:  rank-2
