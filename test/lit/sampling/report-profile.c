// otter report on a run sampled inside its trace: the page has the section
// "Sampled profile" with the profile's tables (the hot function inside the
// task, hotWork, among the functions) and the flame graph, inline, with a
// box titled hotWork; a run without samples gets a report without it.
// RUN: %clang -fopenmp -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter report --no-simulate -o %t.html %t.d | FileCheck --check-prefix=WROTE %s
// RUN: grep -o '<section id="profile"><h2>Sampled profile</h2>' %t.html | FileCheck --check-prefix=SECTION %s
// RUN: grep -o '<table class="sort" id="profile-functions">' %t.html | FileCheck --check-prefix=TABLE %s
// RUN: grep -o '<td>hotWork <span' %t.html | FileCheck --check-prefix=ROW %s
// RUN: grep -o '<div id="flame-graph"[^>]*><svg' %t.html | FileCheck --check-prefix=SVG %s
// RUN: grep -o '<title>hotWork[^<]*</title>' %t.html | FileCheck --check-prefix=BOX %s
// RUN: rm -rf %t.n && env %otter_env OTTER_OUTPUT_DIR=%t.n %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter report --no-simulate -o %t.n.html %t.n | FileCheck --check-prefix=WROTE %s
// RUN: grep -c '<section id="overview">' %t.n.html
// RUN: not grep 'id="profile"' %t.n.html
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static volatile double Sink;
__attribute__((noinline)) static void hotWork(double Seconds) {
  double End = now() + Seconds;
  while (now() < End)
    for (int I = 0; I < 1000; ++I)
      Sink = Sink * 0.5 + I;
}

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int I = 0; I < 4; ++I) {
#pragma omp task
    hotWork(0.1);
  }
  printf("done\n");
  return 0;
}
// OUT: done
// WROTE: wrote {{.*}}.html
// SECTION: <section id="profile"><h2>Sampled profile</h2>
// TABLE: <table class="sort" id="profile-functions">
// ROW: <td>hotWork <span
// SVG: <div id="flame-graph"{{.*}}><svg
// BOX: <title>hotWork
