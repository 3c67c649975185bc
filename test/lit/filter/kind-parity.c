// A compile-time kind rule gives the graph the same rule gives at run time
// (issue 28, docs/filter.md). `exclude kind barrier_implicit` drops the
// events of the barrier libomp reports inside a reduction's __kmpc_reduce
// (at a `reduction` call site: kept at compile time before), of the
// worksharing loops' barrier calls and of the end-of-region barrier (at the
// parallel's fork call on the thread that started the region, with no
// address on the other), both ways; `exclude kind critical` the critical's
// release libomp reports with no address (a stray critical_end node at
// compile time before). Both ways the graph keeps one barrier_implicit
// node, the region's join (the documented exception), and the plugin says
// so in a remark that -Werror leaves alone. An object with parallel
// regions only (no filtered call site) names its filter too.
//
// REQUIRES: plugin
// RUN: rm -rf %t.none %t.rt %t.ct %t.only %t.only-rt
// RUN: %otter-cc %s -o %t.plain
// RUN: %otter-cc -Werror -fplugin-arg-otter-filter=%S/Inputs/implicit-barriers.filter %s -o %t.filtered 2> %t.remark
// RUN: FileCheck --check-prefix=REMARK %s < %t.remark
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.none %t.plain | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.rt OTTER_FILTER=%S/Inputs/implicit-barriers.filter %t.plain | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.ct %t.filtered | FileCheck --check-prefix=OUT %s
// Unfiltered: the reduction's two barriers, the plain loop's, the region's
// end; the critical section on each thread.
// RUN: sh %S/Inputs/counts.sh %t.none/graph.txt | FileCheck --check-prefix=NONE %s
// Filtered either way: the region's join only, no critical, and the
// graphs are the same but for the header line that says where the filter
// was applied.
// RUN: sh %S/Inputs/counts.sh %t.rt/graph.txt | FileCheck --check-prefix=FILTERED %s
// RUN: sh %S/Inputs/counts.sh %t.ct/graph.txt | FileCheck --check-prefix=FILTERED %s
// RUN: FileCheck --check-prefix=CT-HEAD %s < %t.ct/graph.txt
// RUN: tail -n +3 %t.rt/graph.txt > %t.rt.body
// RUN: tail -n +3 %t.ct/graph.txt > %t.ct.body
// RUN: diff %t.rt.body %t.ct.body
// RUN: %check-graph %t.ct/graph.txt
//
// Parallel regions only: no call site is filtered, the filter record is
// there all the same, and the end-of-region barriers go both ways.
// RUN: %otter-cc -DREGIONS_ONLY -fplugin-arg-otter-filter=%S/Inputs/implicit-barriers.filter %s -o %t.only.exe
// RUN: %otter-cc -DREGIONS_ONLY %s -o %t.only-plain.exe
// RUN: otter-sites %t.only.exe | FileCheck --check-prefix=ONLY-SITES %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.only %t.only.exe | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.only-rt OTTER_FILTER=%S/Inputs/implicit-barriers.filter %t.only-plain.exe | FileCheck --check-prefix=OUT %s
// RUN: sh %S/Inputs/counts.sh %t.only/graph.txt | FileCheck --check-prefix=FILTERED %s
// RUN: tail -n +3 %t.only/graph.txt > %t.only.body
// RUN: tail -n +3 %t.only-rt/graph.txt > %t.only-rt.body
// RUN: diff %t.only.body %t.only-rt.body
#include <stdio.h>

int main(void) {
  double s = 0, a[100];
#ifndef REGIONS_ONLY
#pragma omp parallel num_threads(2)
  {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < 100; ++i)
      s += i;
#pragma omp for
    for (int i = 0; i < 100; ++i)
      a[i] = i;
#pragma omp critical
    a[0] += 0;
  }
#else
#pragma omp parallel num_threads(2)
  {
#pragma omp masked
    s = 4950;
  }
  for (int i = 0; i < 100; ++i)
    a[i] = i;
#endif
  printf("s=%g a=%g\n", s, a[99]);
  return 0;
}

// OUT: s=4950 a=99

// NONE: barrier_implicit 4
// NONE-NEXT: critical_begin 2
// NONE-NEXT: critical_end 2

// FILTERED-NOT: critical
// FILTERED: barrier_implicit 1
// FILTERED-NOT: critical
// FILTERED: parallel_begin 1

// REMARK: remark: otter: {{.*}}/implicit-barriers.filter excludes kind barrier_implicit: its events are dropped, but the graph keeps one barrier_implicit node at the end of each parallel region (the region's join), as at run time (docs/filter.md)
// REMARK-NOT: {{warning|error}}

// CT-HEAD: # filtered: compile time {{.*}}/implicit-barriers.filter: exclude kind barrier_implicit; exclude kind critical{{$}}

// ONLY-SITES: filter {{.*}}/implicit-barriers.filter: exclude kind barrier_implicit; exclude kind critical
// ONLY-SITES: summary: 2 directives, 3 sites, 0 errors{{$}}
