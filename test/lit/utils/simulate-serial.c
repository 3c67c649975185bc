// otter simulate on a trace taken with one thread: libomp serializes the
// team of one, so every task ran at once; on more cores the replay defers
// the tasks the program lets be deferred (8 tasks of 4 ms: about half the
// time on 2 cores) and keeps undeferred those that are so in any run (4
// if(0) tasks and 2 final ones of 1 ms). The trace has no deferred task to
// measure the dispatch cost from: the default is used and said so, or
// --dispatch-ns.
// REQUIRES: plugin
// RUN: %otter-cc -O1 %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=1 %t
// RUN: otter simulate --cores 1,2 %t.d | FileCheck %s
// CHECK: scheduling cost 3.00 us per task (14 tasks), the default: no task of this trace was deferred to measure it (--dispatch-ns)
// CHECK: serialized      8 tasks ran at once only because their team had one thread: deferred on more cores
// CHECK: measured {{.*}} on 1 thread(s)
// RUN: otter simulate --json --cores 1,2 %t.d > %t.json
// RUN: otter simulate --json --cores 1,2 --dispatch-ns 5000 %t.d > %t.given.json
// RUN: python3 -c "import json,sys; j=json.load(open('%t.json')); g=json.load(open('%t.given.json')); p=j['points']; print(j['serialized_tasks'], j['scheduling_cost_source'], g['scheduling_cost_source'], g['scheduling_cost_ns'], p[1]['immediate'], p[1]['predicted_ns'] < 0.7 * p[0]['predicted_ns'], p[0]['immediate'])" | FileCheck %s --check-prefix=JSON
// Six tasks stay undeferred on 2 cores (if(0) and final), all 14 on one.
// JSON: 8 default given 5000 6 True 14
// RUN: not otter simulate --dispatch-ns fast %t.d 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: otter: error: --dispatch-ns needs a time in ns, not 'fast' (see 'otter --help')
#include "Inputs/spin.h"

int main(void) {
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < 8; ++i) {
#pragma omp task
      spin_ms(4);
    }
    for (int i = 0; i < 4; ++i) {
#pragma omp task if (0)
      spin_ms(1);
    }
    for (int i = 0; i < 2; ++i) {
#pragma omp task final(1)
      spin_ms(1);
    }
#pragma omp taskwait
  }
  return 0;
}
