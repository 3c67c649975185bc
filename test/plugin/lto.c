// The site table survives full and thin LTO (the labels and records live in
// self-contained inline asm statements), also at -O0.
// RUN: %clang -fopenmp -O2 -flto -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.full
// RUN: %t.full | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t.full | FileCheck %s
// RUN: %clang -fopenmp -O2 -flto=thin -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.thin
// RUN: %t.thin | FileCheck --check-prefix=OUT %s
// RUN: otter-sites %t.thin | FileCheck %s
// RUN: %clang -fopenmp -O0 -flto -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.O0
// RUN: otter-sites %t.O0 | FileCheck %s
// RUN: llvm-readelf -S %t.full | FileCheck --check-prefix=NODEBUG %s
// OUT: sum=2997 fib=610 hits=16
// CHECK-DAG: directive "parallel for" at {{.*}}prog.c:24:1
// CHECK-DAG: site {{.*}} "parallel for" at {{.*}}prog.c:24:1
// CHECK-DAG: site {{.*}} "taskwait" at {{.*}}prog.c:16:1
// CHECK-DAG: site {{.*}} "omp_set_lock" at {{.*}}prog.c:36:9
// CHECK: summary: {{.*}} 0 errors
// NODEBUG-NOT: .debug_
