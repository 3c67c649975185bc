// Labels in C++: a function template instantiated twice and a lambda (also a
// generic one) spawning tasks; a member function with a worksharing loop.
//
// Every node must carry its construct's exact file:line:col (implicit tasks
// and implicit barriers: their region's), the same at -O0 and -O2.
//
// REQUIRES: plugin
// RUN: rm -rf %t.d0 %t.d2
// RUN: %otter-cxx -O0 %s -o %t0 2>%t.cc0
// RUN: %otter-cxx -O2 %s -o %t2 2>%t.cc2
// RUN: not grep otter: %t.cc0 %t.cc2
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d0 %t0 2>%t.err0 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err0
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d2 %t2 2>%t.err2 | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err2
// RUN: FileCheck %s < %t.d0/graph.txt
// RUN: FileCheck %s < %t.d2/graph.txt
// RUN: %check-rebuild %t.d2
#include <cstdio>
#include <vector>
static int n;
template <typename T> void spawn(T v) {
#pragma omp task firstprivate(v)
  {
#pragma omp atomic
    n += static_cast<int>(v);
  }
}
struct Acc {
  std::vector<int> a = std::vector<int>(8, 0);
  void bump() {
#pragma omp for
    for (int i = 0; i < 8; i++)
      a[i] += 1;
  }
};
int main() {
  Acc acc;
  auto go = [](int k) {
#pragma omp task
    {
#pragma omp atomic
      n += k;
    }
  };
  auto generic = [](auto k) {
#pragma omp task
    {
#pragma omp atomic
      n += static_cast<int>(k);
    }
#pragma omp taskwait
  };
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      spawn(1);
      spawn(2.0);
      go(4);
      generic(8);
      generic(16L);
    }
    acc.bump();
  }
  std::printf("n=%d a=%d\n", n, acc.a[7]);
  return 0;
}
// OUT: n=31 a=1

// ERR-NOT: {{warning|corrupt}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved
// ERR-NEXT: otter: stack walks out of libomp: {{[0-9]+}}, 0 found no instrumented call site
// ERR-NOT: {{warning|corrupt}}

// ---- expected labels (test/lit/labels/update_checks.py, then reviewed) ----
// CHECK: # otter canonical graph v1: 23 nodes, {{[0-9]+}} edges
// CHECK-DAG: {{^}}n{{[0-9]+}} initial_task parent={{[^ ]+}} at=?{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_begin parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-25]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-26]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} implicit_task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-27]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-26]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_begin parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-27]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-61]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-62]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-46]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-40]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-36]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} task parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-42]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} taskwait parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-38]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-35]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-36]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-61]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} single_end parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-38]]:1{{( flags=executor)?}}{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_begin parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-63]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-64]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-65]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} loop_end parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-66]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} barrier_implicit parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-45]]:1{{$}}
// CHECK-DAG: {{^}}n{{[0-9]+}} parallel_end parent={{[^ ]+}} at={{[^ ]*}}/cxx.cpp:[[@LINE-46]]:1{{$}}
