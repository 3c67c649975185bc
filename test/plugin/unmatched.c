// A runtime call that belongs to no directive gets a warning at the call.
// RUN: %clang -fopenmp -fplugin=%otter_plugin -c %s -o %t.o -Xclang -verify
// RUN: %clang -fopenmp -fplugin=%otter_plugin -fplugin-arg-otter-no-warn-unmatched -c %s -o %t2.o -Xclang -verify=quiet
// quiet-no-diagnostics
typedef struct ident ident_t;
void __kmpc_barrier(ident_t *, int);

void direct(void) {
  __kmpc_barrier(0, 0); // expected-warning {{otter: OpenMP runtime call '__kmpc_barrier' at}}
}

void ok(void) {
#pragma omp barrier
}
