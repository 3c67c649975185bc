// Memory stays flat in trace-only mode however many tasks run: the peak RSS
// of 1 M tasks is within 16 MiB of 200 K tasks' (the trace writer holds one
// 4 MiB OTF2 chunk per thread, the recorder one buffer per thread, whatever
// the run's length). The program is many-tasks.c's.
// ASan's quarantine and shadow memory grow with what is freed: not flat.
// UNSUPPORTED: asan, tsan
// RUN: %clang -fopenmp -O1 %S/many-tasks.c -o %t
// RUN: rm -rf %t.s && env %otter_env OTTER_OUTPUT_DIR=%t.s OTTER_GRAPH_FORMAT=none python3 %S/Inputs/maxrss.py %t.rss.small %t 200000 > /dev/null
// RUN: rm -rf %t.s && env %otter_env OTTER_OUTPUT_DIR=%t.s OTTER_GRAPH_FORMAT=none python3 %S/Inputs/maxrss.py %t.rss.large %t 1000000 | FileCheck --check-prefix=DONE %S/many-tasks.c
// RUN: python3 %S/Inputs/flat.py %t.rss.small %t.rss.large 16384
// RUN: otter summary %t.s | FileCheck --check-prefix=SUMMARY %S/many-tasks.c
