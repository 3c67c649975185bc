// Shared libraries: the note is PC-relative, so it adds no dynamic
// relocation (the comparison build has line tables, like the plugin's, since
// those give each ident_t its own location string); sites resolve inside
// the library. In the object, the note has only PC-relative relocations.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -fopenmp -O2 -fPIC -shared -gline-tables-only %S/Inputs/lib.c -o %t/libplain.so
// RUN: %clang -fopenmp -O2 -fPIC -c -fplugin=%otter_plugin %S/Inputs/lib.c -o %t/lib.o
// RUN: llvm-readelf -r %t/lib.o | FileCheck --check-prefix=OBJ %s
// RUN: %clang -fopenmp -O2 -fPIC -shared -fplugin=%otter_plugin %S/Inputs/lib.c -o %t/libwork.so
// RUN: otter-sites %t/libwork.so | FileCheck %s
// RUN: llvm-readelf -r %t/libplain.so | grep -c R_X86_64 > %t/plain.count
// RUN: llvm-readelf -r %t/libwork.so | grep -c R_X86_64 > %t/otter.count
// RUN: diff %t/plain.count %t/otter.count
// RUN: %clang -fopenmp -O2 -fplugin=%otter_plugin %s -L%t -lwork -Wl,-rpath,%t -o %t/prog
// RUN: %t/prog | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t/prog | FileCheck --check-prefix=EXE %s
#include <stdio.h>
int lib_work(int n);
int main(void) {
  int r = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  r = lib_work(10);
  printf("%d\n", r);
  return 0;
}
// CHECK: file: {{.*}}libwork.so (shared/pie)
// CHECK-DAG: site {{.*}} "parallel for" at {{.*}}lib.c:3:1
// CHECK-DAG: site {{.*}} "barrier" at {{.*}}lib.c:8:1
// CHECK: summary: 3 directives, {{.*}} 0 errors
// OUT: 45
// OBJ: Relocation section '.rela.note.otter'
// OBJ-NOT: Relocation section
// OBJ: R_X86_64_PC32
// OBJ-NOT: R_X86_64_{{(64|RELATIVE|GOT)}}
// OBJ: Relocation section
// EXE-DAG: site {{.*}} "single" at {{.*}}shared-lib.c:{{[0-9]+}}:1
// EXE-NOT: Inputs/lib.c
// EXE: summary: {{.*}} 0 errors
