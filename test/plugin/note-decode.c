// The note exists, is allocated, decodes, and every site resolves to a
// directive, at -O0 and -O2 (otter-sites exits non-zero on a bad record).
// RUN: %clang -fopenmp -O0 -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.O0
// RUN: llvm-readelf -S -l %t.O0 | FileCheck --check-prefix=ELF %s
// RUN: otter-sites %t.O0 | FileCheck %s
// RUN: %clang -fopenmp -O2 -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.O2
// RUN: otter-sites %t.O2 | FileCheck %s
// RUN: %clang -fopenmp -O3 -fplugin=%otter_plugin -c %S/Inputs/prog.c -o %t.o
// RUN: otter-sites %t.o | FileCheck --check-prefix=OBJ %s
// ELF: .note.otter NOTE {{.*}} A {{.*}}
// ELF: NOTE
// CHECK-DAG: directive "parallel for" at {{.*}}prog.c:24:1-24:59 function "main" clauses "reduction(+: sum) num_threads(2)" region 0x{{[0-9a-f]+}}
// CHECK-DAG: directive "task" at {{.*}}prog.c:12:1-12:39 function "fib" clauses "shared(a) if(n > 10)"
// CHECK-DAG: directive "taskwait" at {{.*}}prog.c:16:1
// CHECK-DAG: directive "critical" at {{.*}}prog.c:33:1
// CHECK-DAG: directive "barrier" at {{.*}}prog.c:40:1
// CHECK-DAG: directive "taskgroup" at {{.*}}prog.c:47:1
// CHECK-DAG: directive "omp_set_lock" at {{.*}}prog.c:36:9-36:27 function "main"
// CHECK-DAG: directive "omp_set_nest_lock" at {{.*}}prog.c:42:5
// CHECK-DAG: site 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}} "parallel for" at {{.*}}prog.c:24:1
// CHECK-DAG: site 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}} "taskwait" at {{.*}}prog.c:16:1
// CHECK-DAG: site 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}} "barrier" at {{.*}}prog.c:40:1
// CHECK-DAG: site 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}} "omp_unset_lock" at {{.*}}prog.c:38:9
// CHECK: summary: {{[0-9]+}} directives, {{[0-9]+}} sites, 0 errors
// OBJ: file: {{.*}} (relocatable)
// OBJ: directive "parallel"
// OBJ: summary: {{[0-9]+}} directives, {{[1-9][0-9]*}} sites, 0 errors
