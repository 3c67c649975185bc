// bench/uts.c, the uts-like benchmark of bench/run.py (issue 11: an
// unbalanced tree of tasks, each waiting for its children), small and on two
// threads: the traced run prints what the untraced one prints (the tree's
// size and checksum do not depend on the schedule), the trace and the graph
// hold every task, and each task's taskwait is labelled with its line.
// RUN: %clang -fopenmp -O1 -fplugin=%otter_plugin %otter_src/bench/uts.c -o %t
// RUN: sh -c 'OMP_NUM_THREADS=2 %t 300; echo exit=$?' | sed 's/ time=.*//' > %t.plain
// RUN: rm -rf %t.d && sh -c 'env %otter_env OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d %t 300 2> %t.err; echo exit=$?' | sed 's/ time=.*//' > %t.out
// RUN: diff %t.plain %t.out
// RUN: otter summary %t.d > %t.summary
// RUN: cat %t.out %t.err %t.summary | FileCheck %s
// CHECK: uts B=300 M=4 Q=0.2475 seed=8 threads=2 checksum={{[0-9]+}} tasks=[[N:[0-9]+]]
// CHECK-NEXT: exit=0
// CHECK: otter: wrote {{.*}}: 2 threads, 1 parallel regions, [[N]] tasks
// CHECK: constructs {{.*}} task=[[N]] {{.*}}taskwait=
// CHECK: taskwait {{.*}}bench/uts.c:48 {{ *}}[[N]]
