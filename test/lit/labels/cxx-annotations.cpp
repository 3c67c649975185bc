// otter/otter.h's annotations in C++, in a parallel region and in a task,
// without -g: the calls are inlined through invokes (code that may unwind),
// and each keeps its caller's exact line (at -O0, where the plugin used to
// fail the build, and at -O2).
//
// REQUIRES: plugin
// RUN: rm -rf %t.d0 %t.d2
// RUN: %otter-cxx -I%otter_src/include -O0 %s -o %t0 2>%t.cc0
// RUN: %otter-cxx -I%otter_src/include -O2 %s -o %t2 2>%t.cc2
// RUN: not grep otter: %t.cc0 %t.cc2
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d0 %t0 | FileCheck --check-prefix=OUT %s
// RUN: %otter-run OTTER_OUTPUT_DIR=%t.d2 %t2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t.d0/graph.txt
// RUN: FileCheck %s < %t.d2/graph.txt
#include <cstdio>
#include <otter/otter.h>
#include <string>
int main() {
  std::string s = "x";
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    // CHECK-DAG: mark parent={{n[0-9]+}} at={{.*}}cxx-annotations.cpp:[[@LINE+1]]:5 name="in region"
    otter_mark("in region");
#pragma omp task shared(s)
    {
      // CHECK-DAG: mark parent={{n[0-9]+}} at={{.*}}cxx-annotations.cpp:[[@LINE+1]]:7 name="in task"
      otter_mark("in task");
      s += "y";
    }
  }
  std::printf("%s\n", s.c_str());
  return 0;
}
// OUT: xy
