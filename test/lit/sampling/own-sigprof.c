// A program with its own SIGPROF handler and profiling timer (setitimer)
// runs under sampling as without OTTER: its handler keeps being called, its
// output is the same, and OTTER's samples are written beside. The sampling
// signal is SIGURG or a real-time signal (OTTER_SAMPLE_SIGNAL), never
// SIGPROF.
// RUN: %clang -fopenmp -fno-omit-frame-pointer %s -o %t
// RUN: %t > %t.plain
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=2000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t > %t.sampled 2>%t.err
// RUN: diff %t.plain %t.sampled
// RUN: FileCheck --check-prefix=OUT %s < %t.sampled
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: python3 %otter_src/test/lit/Inputs/check-samples.py %t.d | FileCheck --check-prefix=CLASSES %s
// A program that installs a handler of its own for OTTER's signal (after
// OTTER started): the program is unchanged, and one warning says the
// samples went to the program.
// RUN: rm -rf %t.e && env %otter_env OTTER_OUTPUT_DIR=%t.e OTTER_SAMPLE=1000 OTTER_SAMPLE_SIGNAL=4 OWN_RT=4 %t > %t.own 2>%t.own.err
// RUN: diff %t.plain %t.own
// RUN: FileCheck --check-prefix=TAKEN %s < %t.own.err
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t Ticks;
static void onProf(int Sig) {
  (void)Sig;
  Ticks++;
}
static void onRt(int Sig) { (void)Sig; }

int main(void) {
  if (getenv("OWN_RT")) {
    struct sigaction A;
    memset(&A, 0, sizeof A);
    A.sa_handler = onRt;
    sigaction(SIGRTMIN + atoi(getenv("OWN_RT")), &A, NULL);
  }
  struct sigaction A;
  memset(&A, 0, sizeof A);
  A.sa_handler = onProf;
  A.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &A, NULL);
  struct itimerval T = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &T, NULL);
  double Sum = 0;
  for (int Round = 0; Round < 20; ++Round) {
#pragma omp parallel for reduction(+ : Sum) num_threads(2)
    for (int I = 0; I < 2000000; ++I)
      Sum += (I % 7) * 0.5;
  }
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &Off, NULL);
  printf("sum=%.1f profiled=%s\n", Sum, Ticks > 0 ? "yes" : "no");
  return 0;
}

// OUT: sum=59999950.0 profiled=yes
// ERR: otter: wrote {{.*}}samples.csv{{.*}} samples
// CLASSES: ok
// TAKEN: otter: warning: the program installed a handler of its own for the sampling signal, SIGRTMIN+4: the samples after that went to the program; choose a signal it does not use with OTTER_SAMPLE_SIGNAL
