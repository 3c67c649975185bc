// At -O0 without line tables the plugin moves the directives of a function
// that can never call an entry point of the same family (fork, barrier,
// loop, single, task, taskwait, critical, ...) to one shared location, so
// that clang makes one ident_t string per group instead of one per
// directive (plugin/SharedLocations.cpp; compile time, docs/performance-notes.md).
// The pass then places each call made at a shared location by its callee's
// family. Every site must get the directive it gets when each directive has
// its own location (-gline-tables-only: no sharing): same callees, same
// directives, in the same order, for C and C++ (templates, a lambda, a
// member function), every listed clause, and the directives that keep their
// own location (sections, taskloop, cancel, ordered, scan, atomic, macro
// expansions at one position, template instantiations). And sharing must
// happen (the SHARED lines: a task's and a taskwait's calls made at the
// location of the parallel for before them).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %otter-cc -O0 -c %s -o %t/shared.o -fplugin-arg-otter-verbose 2>%t/shared.err
// RUN: %otter-cc -O0 -gline-tables-only -c %s -o %t/ref.o -fplugin-arg-otter-verbose 2>%t/ref.err
// RUN: not grep -v -e "^otter: directive " -e "^otter: site " %t/shared.err %t/ref.err
// RUN: sed -n -e "s/^otter: site \('[^']*'\) in .* -> /\1 -> /p" %t/shared.err > %t/shared.sites
// RUN: sed -n -e "s/^otter: site \('[^']*'\) in .* -> /\1 -> /p" %t/ref.err > %t/ref.sites
// RUN: diff %t/ref.sites %t/shared.sites
// RUN: FileCheck --check-prefix=COUNT %s < %t/shared.sites
// RUN: FileCheck --check-prefix=SHARED %s < %t/shared.err
// RUN: %otter-cxx -O0 -c %S/Inputs/shared-locations.cpp -o %t/cxx.o -fplugin-arg-otter-verbose 2>%t/cxx.err
// RUN: %otter-cxx -O0 -gline-tables-only -c %S/Inputs/shared-locations.cpp -o %t/cxxref.o -fplugin-arg-otter-verbose 2>%t/cxxref.err
// RUN: not grep -v -e "^otter: directive " -e "^otter: site " %t/cxx.err %t/cxxref.err
// RUN: sed -n -e "s/^otter: site \('[^']*'\) in .* -> /\1 -> /p" %t/cxx.err > %t/cxx.sites
// RUN: sed -n -e "s/^otter: site \('[^']*'\) in .* -> /\1 -> /p" %t/cxxref.err > %t/cxxref.sites
// RUN: diff %t/cxxref.sites %t/cxx.sites
// RUN: FileCheck --check-prefix=CXX %s < %t/cxx.err
#include <omp.h>
#include <stdio.h>

static int tp;
#pragma omp threadprivate(tp)
typedef struct { int v; } box;
static box boxmax(box a, box b) { return a.v > b.v ? a : b; }
#pragma omp declare reduction(bmax : box : omp_out = boxmax(omp_out, omp_in)) initializer(omp_priv = (box){0})
#define TWICE _Pragma("omp taskwait") _Pragma("omp taskwait")

int bench_like(int n, double *a) {
  int s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) {
    a[i] = a[i] * 0.5 + 1;
    s += (int)a[i];
  }
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task firstprivate(n)
      s += n;
#pragma omp taskwait
    }
#pragma omp critical
    s += 1;
  }
  return s;
}

int clauses(int n) {
  int s = 0, m = 0, l = 0, x = 0, r = 0, p = 0, q = 1;
  box b = {0};
  tp = 3;
#pragma omp parallel if (n > 1) num_threads(2) proc_bind(close) default(shared) private(p) firstprivate(q) copyin(tp) reduction(+ : s)
  {
    p = q + tp;
#pragma omp for schedule(dynamic) reduction(max : m) lastprivate(conditional : l) nowait
    for (int i = 0; i < n; ++i) {
      if (i > m) m = i;
      if (i % 3 == 0) l = i;
    }
#pragma omp for schedule(static, 1) ordered
    for (int i = 0; i < n; ++i) {
#pragma omp ordered
      s += i;
    }
#pragma omp for reduction(bmax : b) firstprivate(x) lastprivate(x) linear(r) collapse(1)
    for (int i = 0; i < n; ++i) {
      box c = {i};
      b = boxmax(b, c);
      x = i;
    }
#pragma omp single copyprivate(p)
    p = 7;
#pragma omp single nowait private(p)
    s += 1;
#pragma omp master
    s += 1;
#pragma omp masked filter(0)
    s += 1;
#pragma omp barrier
#pragma omp critical(named) hint(omp_sync_hint_none)
    s += 1;
#pragma omp taskgroup task_reduction(+ : r)
    {
#pragma omp task in_reduction(+ : r)
      r += 1;
    }
#pragma omp taskyield
#pragma omp flush
#pragma omp flush acq_rel
#pragma omp atomic
    s += 1;
#pragma omp task if (0) depend(in : x)
    x += 2;
#pragma omp task depend(out : x) priority(1) final(1) untied mergeable
    x += 1;
#pragma omp taskwait depend(in : x)
#pragma omp taskwait
#pragma omp sections
    {
#pragma omp section
      s += 1;
#pragma omp section
      s += 2;
    }
#pragma omp taskloop grainsize(2)
    for (int i = 0; i < 4; ++i)
      x += 0;
  }
  return s + m + l + x + r + p + b.v;
}

int cancelled(int n) {
  int s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i) {
#pragma omp cancel for if (i == 5)
      s += 0;
    }
#pragma omp barrier
#pragma omp cancellation point parallel
  }
  return s;
}

int doacross(int n) {
  int s = 0;
#pragma omp parallel for ordered(1) schedule(guided)
  for (int i = 1; i < n; ++i) {
#pragma omp ordered depend(sink : i - 1)
    s += i;
#pragma omp ordered depend(source)
  }
  return s;
}

int scanned(int n, int *out) {
  int x = 0;
#pragma omp parallel for reduction(inscan, + : x)
  for (int i = 0; i < n; ++i) {
    x += i;
#pragma omp scan inclusive(x)
    out[i] = x;
  }
  return x;
}

int macros(void) {
  int s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    s += 1;
    TWICE
#pragma omp task
    s += 2;
  }
  return s;
}

int twin_regions(int n) {
  int s = 0;
#pragma omp parallel num_threads(2)
#pragma omp for
  for (int i = 0; i < n; ++i)
    s += 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      s += 0;
#pragma omp single
    s += 1;
  }
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    s += 0;
  return s;
}

// COUNT-COUNT-117: {{^'(__kmpc_|omp_)[a-z0-9_]+' -> '.*$}}
// COUNT-NOT: {{.}}

// SHARED: otter: directive 'parallel for' at {{.*}}shared-locations.c:[[PFOR:[0-9]+]]:1-{{.*}} in 'bench_like'
// SHARED: otter: directive 'task' at {{.*}}shared-locations.c:[[TASK:[0-9]+]]:1-{{.*}} in 'bench_like'
// SHARED-NEXT: otter: directive 'taskwait' at {{.*}}shared-locations.c:[[TASKWAIT:[0-9]+]]:1-{{.*}} in 'bench_like'
// SHARED: otter: site '__kmpc_omp_task' in 'bench_like.omp_outlined.1' at {{.*}}shared-locations.c:[[PFOR]]:1 -> 'task' at {{.*}}shared-locations.c:[[TASK]]:1
// SHARED-NEXT: otter: site '__kmpc_omp_taskwait' in 'bench_like.omp_outlined.1' at {{.*}}shared-locations.c:[[PFOR]]:1 -> 'taskwait' at {{.*}}shared-locations.c:[[TASKWAIT]]:1

// CXX: otter: site '__kmpc_omp_task' in '{{.*}}lambda{{.*}}' at {{.*}}shared-locations.cpp:35:1 -> 'task' at {{.*}}shared-locations.cpp:38:1
