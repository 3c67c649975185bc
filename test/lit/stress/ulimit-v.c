// An address-space limit (ulimit -v): with room to spare (60,000 kB) the
// run is traced whole; with little (30,000 kB: no room for the trace's
// 4 MiB chunk beside the program's eighth of the limit) OTTER says in one
// line per output what it could not write; with just enough for the
// program and OTTER's fixed part (20,000 kB: the graph has no room either)
// too. The program's output and exit code are the untraced run's in all
// three. OTTER stops growing while the program still has room (core/
// memory_room.h): it used to fill the address space to the last page, and
// the program's next allocation failed: libomp then crashed in its task
// allocator (1 run in 15 at 25,000 kB on a busy machine, every run at
// 20,000 kB, where OTTER's 16,384-event buffers also took too much), and
// the 4 MiB the program allocates after its region here failed in every
// traced run at 30,000 kB (OTTER had taken all but ~32 kB).
// The sanitizers reserve terabytes of shadow memory: no address-space limit.
// UNSUPPORTED: asan, tsan
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: sh -c 'ulimit -v 60000; %t 20; echo exit=$?' > %t.plain
// RUN: rm -rf %t.d && sh -c 'ulimit -v 60000; env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_GRAPH_FORMAT=canon %t 20 2> %t.err; echo exit=$?' > %t.out
// RUN: diff %t.plain %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=WHOLE %s < %t.err
// RUN: %check-rebuild --format canon %t.d
// RUN: sh -c 'ulimit -v 30000; %t 20; echo exit=$?' > %t.plain2
// RUN: rm -rf %t.d2 && sh -c 'ulimit -v 30000; env %otter_env OTTER_OUTPUT_DIR=%t.d2 OTTER_GRAPH_FORMAT=canon %t 20 2> %t.err2; echo exit=$?' > %t.out2
// RUN: diff %t.plain2 %t.out2
// RUN: FileCheck %s < %t.out2
// RUN: FileCheck --check-prefix=TIGHT %s < %t.err2
// Just above what the traced program needs at all (~19,000 kB: OTTER's
// libraries and its 4,096-event buffers).
// RUN: sh -c 'ulimit -v 20000; %t 20 0; echo exit=$?' > %t.plain3
// RUN: rm -rf %t.d3 && sh -c 'ulimit -v 20000; env %otter_env OTTER_OUTPUT_DIR=%t.d3 OTTER_GRAPH_FORMAT=canon %t 20 0 2> %t.err3; echo exit=$?' > %t.out3
// RUN: diff %t.plain3 %t.out3
// RUN: FileCheck --check-prefix=FIXED %s < %t.out3
// RUN: FileCheck --check-prefix=FIXEDERR %s < %t.err3
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  long r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = fib(n);
  printf("fib(%d)=%ld\n", n, r);
  if (argc > 2 && atoi(argv[2]) == 0)
    return 0;
  enum { Room = 4 << 20 };
  char *p = malloc(Room);
  if (p)
    memset(p, 1, Room);
  __asm__ volatile("" : : "r"(p) : "memory"); // kept: not optimized away
  printf("malloc(4 MiB) after the region: %s\n", p ? "ok" : "failed");
  free(p);
  return 0;
}
// CHECK: fib(20)=6765
// CHECK-NEXT: malloc(4 MiB) after the region: ok
// CHECK-NEXT: exit=0
// WHOLE-NOT: error
// WHOLE: otter: wrote {{.*}}: 2 threads, 1 parallel regions, 21890 tasks
// FIXED: fib(20)=6765
// FIXED-NEXT: exit=0
// TIGHT: otter: error: the trace in '{{.*}}' is incomplete: writing it failed ({{.*}}memory{{.*}}); memory ran out (an address-space limit, ulimit -v?)
// FIXEDERR: otter: error: the trace in '{{.*}}' is incomplete: writing it failed ({{.*}}memory{{.*}}); memory ran out (an address-space limit, ulimit -v?)
// FIXEDERR: otter: error: ran out of memory collecting graph events (under ulimit -v OTTER leaves the program an eighth of the limit, at least 8 MiB); the graph was not written
