// Bad input: a missing, truncated or corrupt archive, a trace written by
// another tool, an empty trace. Each gives one line "otter: error: ..."
// naming the problem and a non-zero exit, for every command.
// RUN: %clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter summary %t.d > /dev/null
//
// RUN: not otter summary %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not otter parallelism %t.missing 2>&1 | wc -l | FileCheck %s --check-prefix=ONE
// MISSING: otter: error: cannot open '{{.*}}.missing': No such file or directory
//
// An event file cut in half: one warning naming it, and the records before
// the cut and the other thread are read (one damaged thread file does not
// lose the whole trace).
// RUN: rm -rf %t.trunc && cp -r %t.d %t.trunc
// RUN: python3 -c "import os,sys; p=sys.argv[1]; os.truncate(p, os.path.getsize(p)//2)" %t.trunc/trace/traces/0.evt
// RUN: otter summary %t.trunc 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: otter parallelism --json %t.trunc 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: otter diagnose %t.trunc 2>&1 | grep -c "^otter: warning:" | FileCheck %s --check-prefix=ONE
// RUN: otter export --format perfetto -o %t.trunc.json %t.trunc 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: rm -rf %t.trunc.g && otter graph -o %t.trunc.g %t.trunc 2>&1 | grep -c "^otter: warning:" | FileCheck %s --check-prefix=ONE
// TRUNC: otter: warning: the events of thread 0 in '{{.*}}' are cut off or corrupt{{.*}}: the run ended abnormally, or the file was truncated{{.*}}; the other threads are read
// TRUNC-NOT: otter: error
//
// A missing event file: the same, for the other thread.
// RUN: rm -rf %t.noevt && cp -r %t.d %t.noevt && rm %t.noevt/trace/traces/1.evt
// RUN: otter summary %t.noevt 2>&1 | FileCheck %s --check-prefix=NOEVT
// NOEVT: otter: warning: cannot read the events of thread 1 in '{{.*}}' ({{.*}}): its file is missing or damaged; the other threads are read
// NOEVT: threads {{ *}}1
// Both: an error.
// RUN: rm -rf %t.noevts && cp -r %t.d %t.noevts && rm %t.noevts/trace/traces/*.evt
// RUN: not otter summary %t.noevts 2>&1 | FileCheck %s --check-prefix=NOEVTS
// NOEVTS: otter: error: every thread's events in '{{.*}}' are damaged
//
// A corrupt anchor file.
// RUN: rm -rf %t.corrupt && cp -r %t.d %t.corrupt
// RUN: python3 -c "import sys; open(sys.argv[1], 'wb').write(bytes(range(256)) * 8)" %t.corrupt/trace/traces.otf2
// RUN: not otter summary %t.corrupt 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not otter export --format dot --aggregate -o %t.corrupt.gv %t.corrupt 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: otter: error: '{{.*}}traces.otf2' is not a readable OTF2 archive (damaged, or not written by OTF2): give a run's output directory, its trace/ directory or trace/traces.otf2
//
// One damaged byte that OTF2 trusts: the creator string's end, so the
// property count after it is read from garbage. OTF2 looped 7-14 s on this
// before failing, with 22.6 GB reserved; the reader's probe gives OTF2
// 512 MiB (and 3 s) for the anchor, and answers at once. (In a sanitizer
// build the sanitizer's allocator dies at the limit instead of failing the
// allocation, so the probe cannot tell why: "fails on".)
// RUN: rm -rf %t.count && cp -r %t.d %t.count
// RUN: python3 -c "import sys; p=sys.argv[1]; b=open(p,'rb').read(); i=b.index(b'Tracer)\0')+7; open(p,'wb').write(b[:i]+b'\xff'+b[i+1:])" %t.count/trace/traces.otf2
// RUN: not timeout 10 otter summary %t.count 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: otter: error: '{{.*}}traces.otf2' is damaged: OTF2 {{would need more than 512 MiB of memory to read|fails on}} its anchor file{{.*}}; the archive cannot be read{{$}}
//
// Not a trace at all.
// RUN: not otter summary %s 2>&1 | FileCheck %s --check-prefix=NOTRACE
// NOTRACE: otter: error: '{{.*}}bad-input.c' is not an OTF2 archive (its anchor file ends in .otf2)
//
// A valid OTF2 archive written by another tool, and an empty OTTER trace.
// RUN: %clang %S/Inputs/empty-trace.c -lotf2 -o %t.writer
// RUN: rm -rf %t.foreign %t.empty && %t.writer %t.foreign foreign && %t.writer %t.empty
// RUN: not otter summary %t.foreign 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not otter parallelism %t.foreign/traces.otf2 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: otter: error: '{{.*}}traces.otf2' is not an OTTER trace
// RUN: not otter summary %t.empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not otter diagnose --json %t.empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not otter export --format perfetto -o %t.empty.json %t.empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: otter: error: '{{.*}}': the trace has no events
// RUN: test ! -e %t.empty.json
//
// ONE: {{^ *}}1{{$}}
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  printf("%d\n", n);
  return 0;
}
