// A program without MPI is unaffected: otter-run preloads no MPI library
// into it, libotter.so itself needs none (no MPI library in its dynamic
// section or among what the loader brings in), and the output layout is
// the one of a single process (no rank-N/). (LD_PRELOAD stays empty; in a
// sanitizer build it holds only the sanitizer runtime.)
// RUN: %clang -fopenmp %s -o %t.prog
// RUN: rm -rf %t && otter-run -o %t %t.prog | FileCheck --check-prefix=OUT -DPRELOAD=%sanitizer_rt %s
// RUN: ls %t | FileCheck --check-prefix=LAYOUT %s
// RUN: readelf -d %libotter | FileCheck --check-prefix=DEPS %s
// RUN: ldd %libotter | FileCheck --check-prefix=DEPS %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  n++;
  // Which shared objects are mapped: no MPI, no OTTER MPI wrappers.
  FILE *F = fopen("/proc/self/maps", "r");
  char Line[4096];
  int Mpi = 0;
  while (F && fgets(Line, sizeof Line, F))
    if (strstr(Line, "libmpi") || strstr(Line, "libotter-mpi"))
      Mpi = 1;
  if (F)
    fclose(F);
  const char *Preload = getenv("LD_PRELOAD");
  printf("threads %d mpi %d preload '%s'\n", n, Mpi, Preload ? Preload : "");
  return 0;
}

// OUT: threads 2 mpi 0 preload '[[PRELOAD]]'
// LAYOUT: graph.csv
// LAYOUT-NEXT: graph.gv
// LAYOUT-NEXT: nodes.csv
// LAYOUT-NEXT: trace
// LAYOUT-EMPTY:
// DEPS-NOT: libmpi
// DEPS-NOT: libopen-pal
// DEPS-NOT: libopen-rte
