// RUN: %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-help -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: otter: OTTER (OpenMP Task Tracer) clang plugin
// CHECK: usage: clang -fopenmp -fplugin=otter.so
// CHECK: help
// CHECK: verbose
// CHECK: no-warn-unmatched
int main(void) { return 0; }
