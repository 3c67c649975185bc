// `otter profile` on C++: a function template called from a lambda inside
// a task; the profile's names are demangled (the template's arguments, the
// lambda's enclosing function), the outlined task is its construct, and no
// runtime frame sits between user frames. With the trace (and graph) on
// too, given the run's archive as other commands are, the paths are the
// same.
// RUN: %otter-cxx -fno-omit-frame-pointer -g -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OTTER_SAMPLE=1000 OTTER_TRACE=0 OTTER_GRAPH_FORMAT=none %t | FileCheck --check-prefix=OUT %s
// RUN: %otter_bin/bin/otter profile --format folded %t.d > %t.folded
// RUN: rm -rf %t.trace.d && %otter-run OTTER_SAMPLE=1000 OTTER_OUTPUT_DIR=%t.trace.d %t > /dev/null
// RUN: %otter_bin/bin/otter profile --format folded %t.trace.d/trace/traces.otf2 | FileCheck --check-prefix=FOLDED %s
// RUN: python3 %otter_src/test/lit/Inputs/check-profile.py --folded %t.folded
// RUN: FileCheck --check-prefix=FOLDED %s < %t.folded
#include <cstdio>

static volatile double Sink;

template <typename T> __attribute__((noinline)) void spin(T Scale) {
  for (long I = 0; I < 150000000; ++I)
    Sink = Sink * Scale + T(1);
}

int main() {
  double Half = 0.5;
  auto Body = [&](int Times) __attribute__((noinline)) {
    for (int I = 0; I < Times; ++I)
      spin<double>(Half);
  };
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task
    // FOLDED: {{^(main;)?(parallel profile-cxx.cpp:[0-9]+;)?}}task profile-cxx.cpp:[[@LINE-1]];main::$_0::operator()(int) const;void spin<double>(double) {{[0-9]+$}}
    Body(2);
  }
  std::printf("done\n");
  return 0;
}
// OUT: done
