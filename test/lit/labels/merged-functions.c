// Labels under clang's (non-default) -fmerge-functions: LLVM's
// MergeFunctions runs after the site pass and does not compare the sites'
// tags, so two functions that differ only in which lines their API calls
// are on (lock_a, lock_b: no ident_t to tell them apart) became one, and
// lock_b's lock events carried lock_a's lines. The site pass gives each
// function with sites an attribute of its own when merging is asked for
// (plugin/SitePass.cpp). The taskwait functions differ in their ident_t
// and were never merged (and the first, taskwait_a, carries the site
// handler's gc marker, which no other function has); the unlabelled twins
// (plain_a, plain_b) still are merged.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %otter-cc -O2 -Xclang -fmerge-functions %s -o %t/prog 2>%t/cc
// RUN: %otter-cc -O2 -g -Xclang -fmerge-functions -c %s -o %t/g.o 2>>%t/cc
// RUN: not grep otter: %t/cc
// RUN: otter-sites %t/prog | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/g.o | FileCheck --check-prefix=SITES %s
// RUN: llvm-objdump -d %t/prog | FileCheck --check-prefix=ASM %s
// RUN: %otter-run OTTER_VERBOSE=1 OTTER_OUTPUT_DIR=%t/d %t/prog 2>%t/err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err
// RUN: FileCheck %s < %t/d/graph.txt
#include <omp.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline))
static omp_lock_t lock;
static int x;

NOINLINE void taskwait_a(void) {
#pragma omp taskwait
}

NOINLINE void taskwait_b(void) {
#pragma omp taskwait
}

NOINLINE void lock_a(void) {
  omp_set_lock(&lock);
  x += 1;
  omp_unset_lock(&lock);
}

NOINLINE void lock_b(void) {
  omp_set_lock(&lock);
  x += 1;
  omp_unset_lock(&lock);
}

NOINLINE int plain_a(int v) { return v * 3 + x; }
NOINLINE int plain_b(int v) { return v * 3 + x; }

int main(void) {
  omp_init_lock(&lock);
  lock_a();
  lock_b();
  taskwait_a();
  taskwait_b();
  omp_destroy_lock(&lock);
  printf("x=%d %d\n", x, plain_a(1) + plain_b(2));
  return 0;
}
// OUT: x=2 13

// MergeFunctions still runs: plain_b is a jump to plain_a.
// ASM: <plain_b>:
// ASM-NEXT: jmp {{.*}} <plain_a>

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NOT: {{warning|corrupt}}

// Every directive with its own site (before: lock_b's two were lost).
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-functions.c:[[@LINE-43]]:1-{{[0-9:]+}} function "taskwait_a"
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-functions.c:[[@LINE-40]]:1-{{[0-9:]+}} function "taskwait_b"
// SITES-DAG: directive "omp_set_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-37]]:3-{{[0-9:]+}} function "lock_a"
// SITES-DAG: directive "omp_unset_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-36]]:3-{{[0-9:]+}} function "lock_a"
// SITES-DAG: directive "omp_set_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-33]]:3-{{[0-9:]+}} function "lock_b"
// SITES-DAG: directive "omp_unset_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-32]]:3-{{[0-9:]+}} function "lock_b"
// SITES-DAG: directive "omp_init_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-26]]:3-{{[0-9:]+}} function "main"
// SITES-DAG: directive "omp_destroy_lock" at {{[^ ]*}}/merged-functions.c:[[@LINE-22]]:3-{{[0-9:]+}} function "main"
// SITES: summary: 8 directives, 8 sites, 0 errors

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 7 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-48]]:3{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-47]]:3{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-44]]:3{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-43]]:3{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-60]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-functions.c:[[@LINE-57]]:1{{$}}
