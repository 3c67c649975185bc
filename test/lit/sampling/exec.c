// A sampled program that replaces itself with exec runs as without OTTER.
// Kernels before 6.13 keep a sampling tick that was queued but not yet
// delivered across execve, where the new program's default action for the
// signal applies: for a real-time signal that ends the program. The
// default sampling signal, SIGURG, is ignored by default. The first run
// makes such a pending tick on any kernel: the program blocks the
// sampling signal, has it sent, and execs itself; the new program unblocks
// it first thing. The second run execs itself ten times at 10 kHz (the
// race itself; harmless on this machine's kernel, as the first run shows
// for older ones).
// RUN: %clang -fopenmp %s -o %t
// RUN: %t pending > %t.plain
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t pending > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=PENDING %s < %t.out
// RUN: rm -rf %t.e && env %otter_env OTTER_OUTPUT_DIR=%t.e OTTER_SAMPLE=10000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t chain 2>%t.err | FileCheck --check-prefix=CHAIN %s
// The last program of the chain writes its samples.
// RUN: FileCheck --check-prefix=ERR %s < %t.err
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double work(void) {
  double S = 0;
#pragma omp parallel num_threads(2) reduction(+ : S)
  for (long I = 0; I < 5000000; ++I)
    S += I * 0.5;
  return S;
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "";
  if (Argc > 2) { // the new program: any pending signal is delivered now
    sigset_t All;
    sigfillset(&All);
    sigprocmask(SIG_UNBLOCK, &All, NULL);
    if (!strcmp(Mode, "pending")) {
      printf("new program ran\n");
      return 0;
    }
  }
  const int Depth = Argc > 2 ? atoi(Argv[2]) : 0;
  printf("depth %d sum %.0f\n", Depth, work());
  fflush(stdout);
  if (!strcmp(Mode, "pending")) {
    sigset_t Urg;
    sigemptyset(&Urg);
    sigaddset(&Urg, SIGURG);
    sigprocmask(SIG_BLOCK, &Urg, NULL);
    raise(SIGURG); // stays pending: blocked
    execl(Argv[0], Argv[0], Mode, "1", (char *)NULL);
  } else if (Depth < 10) {
    char Next[16];
    snprintf(Next, sizeof Next, "%d", Depth + 1);
    execl(Argv[0], Argv[0], Mode, Next, (char *)NULL);
  } else {
    return 0;
  }
  perror("execl");
  return 1;
}
// PENDING: depth 0 sum
// PENDING-NEXT: new program ran
// CHAIN: depth 0 sum [[SUM:[0-9]+]]
// CHAIN: depth 10 sum [[SUM]]
// ERR-NOT: warning
// ERR: otter: wrote {{.*}}samples.csv{{.*}} samples
