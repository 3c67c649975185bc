// The plugin does not change what the program computes or prints.
// RUN: %clang -fopenmp -O2 %S/Inputs/prog.c -o %t.plain
// RUN: %clang -fopenmp -O2 -fplugin=%otter_plugin %S/Inputs/prog.c -o %t.otter
// RUN: %t.plain > %t.plain.out
// RUN: %t.otter > %t.otter.out
// RUN: diff %t.plain.out %t.otter.out
// RUN: FileCheck %s < %t.otter.out
// CHECK: sum=2997 fib=610 hits=16
