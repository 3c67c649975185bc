// libomp's hidden helper threads (a target nowait with no device, hidden
// helper tasks) are never ended: their regions were left open at exit. The
// writer closes every region still open when the trace is closed, at the
// run's last time (docs/trace.md, "Balanced regions"). The helper team's
// constructs, whose code address is the thread start in libc, are labelled
// as what they are, not libc.so.6+0x...
// REQUIRES: plugin
// Under ASan the helper threads start in its runtime's pthread interceptor
// (libclang_rt.asan-x86_64.so+0x..., LD_PRELOADed by lit.cfg.py), not libc:
// recognised as a thread start too (sites/site_index.h,
// moduleStartsThreads; unit test ThreadStart). TSan runs no lit test.
// UNSUPPORTED: tsan
// RUN: %otter-cc %s -o %t
// RUN: %t > %t.plain
// RUN: rm -rf %t.d
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d %t > %t.traced
// RUN: diff %t.plain %t.traced
// RUN: %check-trace %t.d
// RUN: %check-rebuild %t.d
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=DEFS %s
// RUN: FileCheck --check-prefix=NODES %s < %t.d/nodes.csv
#include <stdio.h>

int main(void) {
  int a = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target map(tofrom : a) nowait depend(out : a)
    { a = 1; }
#pragma omp taskwait
  }
  printf("a=%d\n", a);
  return 0;
}
// No region is named after libc (the calling contexts' otter:location
// property keeps the address).
// DEFS-NOT: REGION {{.*}}libc.so
// DEFS: REGION {{.*}}"parallel @ ~libomp hidden helper team"
// DEFS-NOT: REGION {{.*}}libc.so
// nodes.csv: the function column is the label; location keeps the address.
// NODES: parallel_begin,{{[0-9]+}},{{[0-9]+}},,,,libomp hidden helper team,
