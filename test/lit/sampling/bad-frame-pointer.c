// The sampling handler's stack walk never reads outside the thread's stack,
// whatever the interrupted code keeps in its frame-pointer register: code
// built without frame pointers (glibc's malloc, the sanitizers' runtimes)
// uses it for data. Here each thread spins with rbp set to values that are
// no frame -- near 2^64 (where "frame + 16" wraps round: it once passed the
// bounds check and crashed the program), small, odd, just below the stack --
// while sampled at 20 kHz; the program ends normally with its own output.
// REQUIRES: x86_64
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=20000 OTTER_SAMPLE_CLOCK=wall OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck %s
// RUN: test -s %t.d/samples.csv
#include <omp.h>
#include <stdio.h>

/// Counts Iterations down with rbp holding Value (saved and restored).
static void spinWithFramePointer(unsigned long Value, long Iterations) {
  __asm__ volatile("push %%rbp\n\t"
                   "mov %1, %%rbp\n\t"
                   "1: dec %0\n\t"
                   "jnz 1b\n\t"
                   "pop %%rbp\n\t"
                   : "+r"(Iterations)
                   : "r"(Value)
                   : "memory", "cc");
}

int main(void) {
  const unsigned long Values[] = {~0ul - 7, ~0ul - 15, ~0ul, 8, 0x2674,
                                  0x7ffffffff000ul, 1};
  const int N = sizeof Values / sizeof Values[0];
  int Done = 0;
#pragma omp parallel num_threads(2) reduction(+ : Done)
  for (int Round = 0; Round < 4; ++Round)
    for (int I = 0; I < N; ++I) {
      spinWithFramePointer(Values[I], 2000000);
      ++Done;
    }
  printf("done %d\n", Done);
  return 0;
}
// CHECK: done 56
