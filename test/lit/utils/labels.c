// Task labels (otter_task_label, docs/utils.md) in the analyses: the
// critical path's steps name their tasks' labels (one step per label: three
// chained tasks of one construct, labelled in turn, are three steps), in
// text, JSON and the HTML report; the aggregate graph's nodes name their
// tasks' most common label, its count and the number of distinct labels.
// REQUIRES: plugin
// RUN: %otter-cc -O1 -I%otter_src/include %s -o %t
// RUN: rm -rf %t.d && env %otter_env OTTER_OUTPUT_DIR=%t.d OMP_NUM_THREADS=2 %t
// RUN: otter parallelism %t.d | FileCheck %s
// RUN: otter parallelism --json %t.d | FileCheck --check-prefix=JSON %s
// RUN: rm -rf %t.x && mkdir %t.x
// RUN: otter export --format csv --aggregate -o %t.x %t.d
// RUN: FileCheck --check-prefix=CSV %s < %t.x/aggregate_nodes.csv
// RUN: otter export --format dot --aggregate -o %t.x/agg.gv %t.d
// RUN: FileCheck --check-prefix=DOT %s < %t.x/agg.gv
// RUN: otter report --no-simulate -o %t.x/report.html %t.d
// RUN: grep -o '<td class="label">[a-z]*</td>' %t.x/report.html | FileCheck --check-prefix=HTML %s
#include "Inputs/spin.h"
#include <otter/otter.h>

int main(void) {
  static const char *const Stage[] = {"load", "solve", "store"};
  int x = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int i = 0; i < 3; ++i) {
#pragma omp task depend(inout : x)
      {
        otter_task_label(Stage[i]);
        spin_ms(10);
      }
    }
    for (int i = 0; i < 5; ++i) {
#pragma omp task
      {
        otter_task_label(i % 2 ? "odd" : "even");
        spin_ms(1);
      }
    }
  }
  return x;
}

// CHECK: critical path ({{[0-9]+}} steps):
// CHECK: task {{ *}}{{.*}}labels.c:28 {{.*}}  [load]
// CHECK-NEXT: task {{ *}}{{.*}}labels.c:28 {{.*}}  [solve]
// CHECK-NEXT: task {{ *}}{{.*}}labels.c:28 {{.*}}  [store]
// JSON: "critical_path":[
// JSON-SAME: "line":28,{{[^}]*}},"label":"load"}
// JSON-SAME: "line":28,{{[^}]*}},"label":"solve"}
// JSON-SAME: "line":28,{{[^}]*}},"label":"store"}
// CSV: id,kind,where,region_id,instances,total_ns,label,label_tasks,labels
// CSV-DAG: ,task,"{{.*}}labels.c:28",{{[0-9]+}},3,{{[0-9]+}},"load",1,3
// CSV-DAG: ,task,"{{.*}}labels.c:35",{{[0-9]+}},5,{{[0-9]+}},"even",3,2
// CSV-DAG: ,parallel,"{{.*}}labels.c:24",{{[0-9]+}},1,{{[0-9]+}},,0,0
// DOT-DAG: labels.c:28\n3x, {{.*}}\n\"load\" 1x (+2 more labels)"
// DOT-DAG: labels.c:35\n5x, {{.*}}\n\"even\" 3x (+1 more label)"
// HTML: <td class="label">load</td>
// HTML-NEXT: <td class="label">solve</td>
// HTML-NEXT: <td class="label">store</td>
