// An unknown option is a Clang error diagnostic and fails the compilation.
// RUN: not %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-bogus -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: error: otter: unknown plugin option 'bogus' (try -fplugin-arg-otter-help)
int main(void) { return 0; }
