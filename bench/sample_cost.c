// The cost of one sample (docs/sampling.md, "What it costs"): the calling
// thread sends itself the sampling signal N times (raise: the same kernel
// delivery as a timer's tick) from a call chain DEPTH frames deep, and
// prints the time per signal. Run under OTTER with sampling on (its
// handler takes the signal: state, task, unwind, ring) and with
// BASELINE=1 (a handler of this program's that does nothing takes another
// real-time signal): the difference is the handler's own cost, the first
// figure what a sample costs the thread in all.
//   clang-19 -O2 -fopenmp -fno-omit-frame-pointer bench/sample_cost.c -o sc
//   OMP_TOOL_LIBRARIES=build/lib/libotter.so OTTER_SAMPLE=1 OTTER_TRACE=0 \
//     OTTER_GRAPH_FORMAT=none ./sc            # OTTER's handler
//   BASELINE=1 ./sc                           # signal delivery alone
//   (callgrind: valgrind --tool=callgrind ./sc 20000, instructions of
//   onSignal inclusive, divided by 20000)
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void nothing(int Sig, siginfo_t *Info, void *Context) {
  (void)Sig;
  (void)Info;
  (void)Context;
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static int Signal;
__attribute__((noinline)) static long deep(int Depth, long N) {
  if (Depth > 0)
    return deep(Depth - 1, N) + 1;
  for (long I = 0; I < N; ++I)
    raise(Signal);
  return 0;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 1000000;
  int Depth = Argc > 2 ? atoi(Argv[2]) : 12;
  // The tool has started and sampled this thread by now.
#pragma omp parallel num_threads(1)
  Signal = SIGRTMIN + 4; // OTTER_SAMPLE_SIGNAL's default
  if (getenv("BASELINE")) {
    struct sigaction A;
    memset(&A, 0, sizeof A);
    A.sa_sigaction = nothing;
    A.sa_flags = SA_SIGINFO | SA_RESTART;
    Signal = SIGRTMIN + 5;
    sigaction(Signal, &A, NULL);
  }
#pragma omp parallel num_threads(1)
  {
    double T0 = now();
    deep(Depth, N);
    double T1 = now();
    printf("%.0f ns per signal (%ld signals, %d frames deep)\n",
           (T1 - T0) * 1e9 / N, N, Depth);
  }
  return 0;
}
