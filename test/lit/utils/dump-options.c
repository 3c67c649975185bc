// otter dump's options: --json, --kind, --thread, --kinds (checked against
// docs/trace.md), and its errors.
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=1 %t
// RUN: otter dump --json --kind task_create,flush %t.d | FileCheck %s --check-prefix=JSON
// RUN: otter dump --json %t.d | python3 -c "import json, sys; [json.loads(l) for l in sys.stdin]"
// RUN: otter dump --no-time --thread 0 --kind=thread_begin %t.d | FileCheck %s --check-prefix=THREAD
// RUN: otter dump --kinds | python3 %S/Inputs/doc_kinds.py %otter_src/docs/trace.md
// RUN: otter dump --kinds | FileCheck %s --check-prefix=KINDS
// RUN: not otter dump --kind bogus %t.d 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not otter dump --thread 7 %t.d 2>&1 | FileCheck %s --check-prefix=NOTHREAD
// RUN: not otter dump --thread x %t.d 2>&1 | FileCheck %s --check-prefix=BADTHREAD
// RUN: not otter dump %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    x++;
#pragma omp flush
  }
  printf("%d\n", x);
  return 0;
}

// JSON:      {"thread":0,"time":{{[0-9]+}},"kind":"task_create","creator":[[IMPL:[0-9]+]],"child":{{[0-9]+}},"flags":"explicit|undeferred|included","code":"{{.*}}dump-options.c:[[@LINE-8]]:1"}
// JSON-NEXT: {"thread":0,"time":{{[0-9]+}},"kind":"flush","task":[[IMPL]],"code":"{{.*}}dump-options.c:[[@LINE-7]]:1"}
// JSON-NOT:  {{.}}

// THREAD:      thread 0
// THREAD-NEXT: thread_begin type=initial
// THREAD-NOT:  {{.}}

// KINDS: task_create: creator child flags code [ThreadTaskCreate; graph: task]
// KINDS: dispatch: task kind start iterations code [Parameter otter:dispatch; graph: none]

// BADKIND: otter: error: unknown event kind 'bogus' (see 'otter dump --kinds')
// NOTHREAD: otter: error: no thread 7 in
// BADTHREAD: otter: error: --thread needs thread numbers, not 'x'
// MISSING: otter: error: cannot open
