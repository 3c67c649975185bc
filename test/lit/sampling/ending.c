// A sampled run that does not end through libomp's finalize ends as fast
// as without the tool, with its samples written: the run is then written
// by a forked copy of the process, in which the sampling's drainer thread
// does not exist. The copy used to wait for that thread for ever (until
// the 600 s deadline), and wrote nothing: a SIGTERM from a batch system
// delayed the end of the job by ten minutes. Each run is bounded by
// `timeout 60`, which ends a hanging one with status 124.
//  - SIGTERM while a parallel region runs, sampling alone and with the
//    trace and graph: the program is ended by the signal as it would be
//    (143), its samples and trace are written;
//  - exit() inside a parallel region: the same status as untraced (3);
//  - a crash (SIGSEGV): the samples are saved, as the trace is.
// RUN: %clang -fopenmp %s -o %t
//
// RUN: rm -rf %t.term %t.ready && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.term OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none timeout 60 %t term %t.ready 2> %t.term.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; sleep 0.2; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
// RUN: FileCheck --check-prefix=TERMERR %s < %t.term.err
// RUN: python3 -c "import csv,sys; print('rows', sum(1 for _ in csv.DictReader(open(sys.argv[1]))))" %t.term/samples.csv | FileCheck --check-prefix=ROWS %s
//
// RUN: rm -rf %t.both %t.ready && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.both OTTER_SAMPLE=1000 OTTER_GRAPH_FORMAT=canon timeout 60 %t term %t.ready 2> %t.both.err & p=$!; while [ ! -e %t.ready ]; do sleep 0.02; done; sleep 0.2; kill -TERM $p; wait $p; echo status=$?' | FileCheck --check-prefix=TERM %s
// RUN: python3 -c "import csv,sys; print('rows', sum(1 for _ in csv.DictReader(open(sys.argv[1]))))" %t.both/samples.csv | FileCheck --check-prefix=ROWS %s
// RUN: otter summary %t.both | FileCheck --check-prefix=SUMMARY %s
//
// RUN: sh -c '%t exit; echo status=$?' | FileCheck --check-prefix=EXIT %s
// RUN: rm -rf %t.exit && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.exit OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none timeout 60 %t exit; echo status=$?' | FileCheck --check-prefix=EXIT %s
// RUN: python3 -c "import csv,sys; print('rows', sum(1 for _ in csv.DictReader(open(sys.argv[1]))))" %t.exit/samples.csv | FileCheck --check-prefix=ROWS %s
//
// RUN: rm -rf %t.crash && sh -c 'env %otter_env OTTER_OUTPUT_DIR=%t.crash OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none timeout 60 %t crash 2> %t.crash.err; echo status=$?' | FileCheck --check-prefix=CRASH %s
// RUN: FileCheck --check-prefix=CRASHERR %s < %t.crash.err
// RUN: python3 -c "import csv,sys; print('rows', sum(1 for _ in csv.DictReader(open(sys.argv[1]))))" %t.crash/samples.csv | FileCheck --check-prefix=ROWS %s
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (double)T.tv_sec + 1e-9 * (double)T.tv_nsec;
}

// Work for about S seconds of wall clock.
static double spin(double S) {
  double X = 0, End = seconds() + S;
  while (seconds() < End)
    for (int I = 0; I < 100000; ++I)
      X += 1e-9 * (double)(I & 7);
  return X;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  double X = 0;
  if (!strcmp(argv[1], "term")) {
    // Says it is running, then works until the signal ends it.
#pragma omp parallel num_threads(2) reduction(+ : X)
    {
      if (omp_get_thread_num() == 0 && argc > 2) {
        FILE *F = fopen(argv[2], "w");
        if (F)
          fclose(F);
      }
      X += spin(30);
    }
  } else if (!strcmp(argv[1], "exit")) {
#pragma omp parallel num_threads(2) reduction(+ : X)
    {
      X += spin(0.3);
      if (omp_get_thread_num() == 0)
        exit(3);
    }
  } else if (!strcmp(argv[1], "crash")) {
    X = spin(0.3);
    fflush(stdout);
    raise(SIGSEGV);
  }
  printf("%g\n", X);
  return 0;
}

// TERM: status=143
// TERMERR: the program was ended by SIGTERM; writing what was recorded
// ROWS: rows {{[1-9][0-9]*}}
// SUMMARY: parallel
// EXIT: status=3
// CRASH: status=139
// CRASHERR: the program crashed; saved {{[1-9][0-9]*}} samples in {{.*}}samples.csv
