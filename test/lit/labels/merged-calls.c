// Labels where optimisations would merge two directives' runtime calls into
// one call site: the same directive in both arms of an if/else (before a
// common tail, or ending the function), in the cases of a switch, in a loop,
// the same API call first and last in both arms. Without the plugin's
// `nomerge` on those calls (plugin/NoMerge.cpp) -O1 and above merge them:
// IR SimplifyCFG sinks the calls (their ident_t operands become a phi: no
// location, approximate label) or hoists them (omp_set_lock: its !srcloc is
// dropped), BranchFolding tail-merges the machine calls (one label for two
// directives: the second directive's events carry the first's line). With
// and without -g, also with LTO.
//
// Every directive must keep its own sites at every level (otter-sites: all
// 33 directives, 47 sites as at -O0: fewer sites means calls were merged;
// more means an LLVM upgrade duplicates one, then check the labels and raise
// the count), and every node must carry its own directive's file:line:col.
// OMP_CANCELLATION=true: the cancels are taken, and their cancellation
// barriers labelled.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %otter-cc -O0 -c %s -o %t/O0.o 2>%t/cc.O0
// RUN: %otter-cc -O1 -c %s -o %t/O1.o 2>%t/cc.O1
// RUN: %otter-cc -O2 -c %s -o %t/O2.o 2>%t/cc.O2
// RUN: %otter-cc -O3 -c %s -o %t/O3.o 2>%t/cc.O3
// RUN: %otter-cc -Os -c %s -o %t/Os.o 2>%t/cc.Os
// RUN: %otter-cc -O2 -g -c %s -o %t/O2g.o 2>%t/cc.O2g
// RUN: %otter-cc -O3 -g -c %s -o %t/O3g.o 2>%t/cc.O3g
// RUN: %otter-cc -Os -g -c %s -o %t/Osg.o 2>%t/cc.Osg
// RUN: %otter-cc -O2 -flto %s -o %t/lto 2>%t/cc.lto
// RUN: not grep otter: %t/cc.O0 %t/cc.O1 %t/cc.O2 %t/cc.O3 %t/cc.Os %t/cc.O2g %t/cc.O3g %t/cc.Osg %t/cc.lto
// RUN: otter-sites %t/O0.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/O1.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/O2.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/O3.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/Os.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/O2g.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/O3g.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/Osg.o | FileCheck --check-prefix=SITES %s
// RUN: otter-sites %t/lto | FileCheck --check-prefix=SITES %s
// RUN: %clang -fopenmp %t/O2.o -o %t/O2
// RUN: %clang -fopenmp %t/O3g.o -o %t/O3g
// RUN: %otter-run OTTER_VERBOSE=1 OMP_CANCELLATION=true OTTER_OUTPUT_DIR=%t/d2 %t/O2 2>%t/err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err2
// RUN: %otter-run OTTER_VERBOSE=1 OMP_CANCELLATION=true OTTER_OUTPUT_DIR=%t/d3 %t/O3g 2>%t/err3 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t/err3
// RUN: FileCheck %s < %t/d2/graph.txt
// RUN: FileCheck %s < %t/d3/graph.txt
// RUN: %check-rebuild %t/d2
#include <omp.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline))
static int x, y;
static omp_lock_t lock;
NOINLINE void work(int i) { x += i; }

// The same barrier ending both arms, before a common tail (tail merging).
NOINLINE void barrier_arms(int c) {
  if (c) {
    work(1);
#pragma omp barrier
  } else {
    work(2);
#pragma omp barrier
  }
  work(3);
}

// The same taskwait ending both arms, nothing after (tail merging).
NOINLINE void taskwait_arms(int c) {
  if (c) {
    x += 1;
#pragma omp taskwait
  } else {
    x += 2;
#pragma omp taskwait
  }
}

// Three cases ending in the same call (sunk into one, the ident_t a phi).
NOINLINE void taskyield_switch(int c) {
  switch (c) {
  case 0:
    x = 5;
#pragma omp taskyield
    break;
  case 1:
    x = 7;
#pragma omp taskyield
    break;
  default:
    x = 9;
#pragma omp taskyield
  }
}

// Different stores before the same flush.
NOINLINE void flush_arms(int c) {
  if (c) {
    x = 1;
#pragma omp flush
  } else {
    y = 2;
#pragma omp flush
  }
}

// The same API call first in both arms (hoisted) and last (sunk).
NOINLINE void lock_arms(int c) {
  if (c) {
    omp_set_lock(&lock);
    x += 1;
  } else {
    omp_set_lock(&lock);
    y += 1;
  }
  if (c) {
    x += 3;
    omp_unset_lock(&lock);
  } else {
    y += 4;
    omp_unset_lock(&lock);
  }
}

// The end_critical calls differ only in ident_t (unnamed criticals share a
// lock).
NOINLINE void critical_arms(int c) {
  if (c) {
#pragma omp critical
    x += 1;
  } else {
#pragma omp critical
    y += 1;
  }
}

// The task calls differ only in the task they pass.
NOINLINE void task_arms(int c) {
  if (c) {
#pragma omp task
    work(10);
  } else {
#pragma omp task
    work(20);
  }
#pragma omp taskwait
}

NOINLINE void taskgroup_arms(int c) {
  if (c) {
#pragma omp taskgroup
    work(1);
  } else {
#pragma omp taskgroup
    work(2);
  }
}

// Both arms of a loop's body.
NOINLINE void loop_arms(int n) {
  for (int i = 0; i < n; i++) {
    if (i & 1) {
      x += i;
#pragma omp taskwait
    } else {
      y += i;
#pragma omp taskwait
    }
  }
}

// In a parallel region, as cancel must be (the calls are in its outlined
// function).
NOINLINE void cancel_arms(int c) {
#pragma omp parallel num_threads(1)
  {
    if (c) {
      x += 1;
#pragma omp cancellation point parallel
    } else {
      y += 1;
#pragma omp cancellation point parallel
    }
    if (c) {
      x += 1;
#pragma omp cancel parallel
    } else {
      y += 1;
#pragma omp cancel parallel
    }
  }
}

NOINLINE void single_arms(int c) {
  if (c) {
#pragma omp single
    x += 1;
  } else {
#pragma omp single
    y += 1;
  }
}

NOINLINE void masked_arms(int c) {
  if (c) {
#pragma omp masked
    x += 1;
  } else {
#pragma omp masked
    y += 1;
  }
}

int main(int argc, char **argv) {
  (void)argv;
  omp_init_lock(&lock);
  for (int c = argc - 1; c <= argc; c++) {
    barrier_arms(c);
    taskwait_arms(c);
    taskyield_switch(c);
    flush_arms(c);
    lock_arms(c);
    critical_arms(c);
    task_arms(c);
    taskgroup_arms(c);
    single_arms(c);
    masked_arms(c);
  }
  loop_arms(2 + argc);
  cancel_arms(argc - 1);
  cancel_arms(argc);
  omp_destroy_lock(&lock);
  printf("x=%d y=%d\n", x, y);
  return 0;
}
// OUT: x=22 y=14

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NOT: {{warning|corrupt}}

// Every directive with sites of its own (the same list at every level).
// SITES-DAG: directive "barrier" at {{[^ ]*}}/merged-calls.c:[[@LINE-183]]:1-{{[0-9:]+}} function "barrier_arms" clauses ""
// SITES-DAG: directive "barrier" at {{[^ ]*}}/merged-calls.c:[[@LINE-181]]:1-{{[0-9:]+}} function "barrier_arms" clauses ""
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-calls.c:[[@LINE-173]]:1-{{[0-9:]+}} function "taskwait_arms" clauses ""
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-calls.c:[[@LINE-171]]:1-{{[0-9:]+}} function "taskwait_arms" clauses ""
// SITES-DAG: directive "taskyield" at {{[^ ]*}}/merged-calls.c:[[@LINE-163]]:1-{{[0-9:]+}} function "taskyield_switch" clauses ""
// SITES-DAG: directive "taskyield" at {{[^ ]*}}/merged-calls.c:[[@LINE-160]]:1-{{[0-9:]+}} function "taskyield_switch" clauses ""
// SITES-DAG: directive "taskyield" at {{[^ ]*}}/merged-calls.c:[[@LINE-157]]:1-{{[0-9:]+}} function "taskyield_switch" clauses ""
// SITES-DAG: directive "flush" at {{[^ ]*}}/merged-calls.c:[[@LINE-150]]:1-{{[0-9:]+}} function "flush_arms" clauses ""
// SITES-DAG: directive "flush" at {{[^ ]*}}/merged-calls.c:[[@LINE-148]]:1-{{[0-9:]+}} function "flush_arms" clauses ""
// SITES-DAG: directive "omp_set_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-142]]:5-{{[0-9:]+}} function "lock_arms" clauses ""
// SITES-DAG: directive "omp_unset_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-135]]:5-{{[0-9:]+}} function "lock_arms" clauses ""
// SITES-DAG: directive "omp_set_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-141]]:5-{{[0-9:]+}} function "lock_arms" clauses ""
// SITES-DAG: directive "omp_unset_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-134]]:5-{{[0-9:]+}} function "lock_arms" clauses ""
// SITES-DAG: directive "critical" at {{[^ ]*}}/merged-calls.c:[[@LINE-127]]:1-{{[0-9:]+}} function "critical_arms" clauses ""
// SITES-DAG: directive "critical" at {{[^ ]*}}/merged-calls.c:[[@LINE-125]]:1-{{[0-9:]+}} function "critical_arms" clauses ""
// SITES-DAG: directive "task" at {{[^ ]*}}/merged-calls.c:[[@LINE-118]]:1-{{[0-9:]+}} function "task_arms" clauses ""
// SITES-DAG: directive "task" at {{[^ ]*}}/merged-calls.c:[[@LINE-116]]:1-{{[0-9:]+}} function "task_arms" clauses ""
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-calls.c:[[@LINE-114]]:1-{{[0-9:]+}} function "task_arms" clauses ""
// SITES-DAG: directive "taskgroup" at {{[^ ]*}}/merged-calls.c:[[@LINE-110]]:1-{{[0-9:]+}} function "taskgroup_arms" clauses ""
// SITES-DAG: directive "taskgroup" at {{[^ ]*}}/merged-calls.c:[[@LINE-108]]:1-{{[0-9:]+}} function "taskgroup_arms" clauses ""
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-calls.c:[[@LINE-96]]:1-{{[0-9:]+}} function "loop_arms" clauses ""
// SITES-DAG: directive "taskwait" at {{[^ ]*}}/merged-calls.c:[[@LINE-100]]:1-{{[0-9:]+}} function "loop_arms" clauses ""
// SITES-DAG: directive "parallel" at {{[^ ]*}}/merged-calls.c:[[@LINE-90]]:1-{{[0-9:]+}} function "cancel_arms" clauses "num_threads(1)"
// SITES-DAG: directive "cancellation point" at {{[^ ]*}}/merged-calls.c:[[@LINE-87]]:1-{{[0-9:]+}} function "cancel_arms" clauses ""
// SITES-DAG: directive "cancellation point" at {{[^ ]*}}/merged-calls.c:[[@LINE-85]]:1-{{[0-9:]+}} function "cancel_arms" clauses ""
// SITES-DAG: directive "cancel" at {{[^ ]*}}/merged-calls.c:[[@LINE-82]]:1-{{[0-9:]+}} function "cancel_arms" clauses ""
// SITES-DAG: directive "cancel" at {{[^ ]*}}/merged-calls.c:[[@LINE-80]]:1-{{[0-9:]+}} function "cancel_arms" clauses ""
// SITES-DAG: directive "single" at {{[^ ]*}}/merged-calls.c:[[@LINE-74]]:1-{{[0-9:]+}} function "single_arms" clauses ""
// SITES-DAG: directive "single" at {{[^ ]*}}/merged-calls.c:[[@LINE-72]]:1-{{[0-9:]+}} function "single_arms" clauses ""
// SITES-DAG: directive "masked" at {{[^ ]*}}/merged-calls.c:[[@LINE-66]]:1-{{[0-9:]+}} function "masked_arms" clauses ""
// SITES-DAG: directive "masked" at {{[^ ]*}}/merged-calls.c:[[@LINE-64]]:1-{{[0-9:]+}} function "masked_arms" clauses ""
// SITES-DAG: directive "omp_init_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-58]]:3-{{[0-9:]+}} function "main" clauses ""
// SITES-DAG: directive "omp_destroy_lock" at {{[^ ]*}}/merged-calls.c:[[@LINE-43]]:3-{{[0-9:]+}} function "main" clauses ""
// SITES: summary: 33 directives, 47 sites, 0 errors
// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 48 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-217]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-206]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-169]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-162]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-152]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-153]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-143]]:1 flags=undeferred|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-141]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-134]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-135]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-91]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-92]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-93]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-84]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-85]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-235]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-224]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-187]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} lock_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-180]]:5{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-170]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} critical_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-171]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-161]]:1 flags=undeferred|included{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-156]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-152]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskgroup_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-153]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-109]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-110]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-111]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-102]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} masked_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-103]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-143]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-147]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-145]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-138]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-139]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} cancel parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-126]]:1 flags=parallel{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-127]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-128]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-143]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-144]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-145]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-146]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} cancel parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-136]]:1 flags=parallel{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-137]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-138]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-150]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/merged-calls.c:[[@LINE-151]]:1{{$}}
