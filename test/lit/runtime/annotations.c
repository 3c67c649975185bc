// The annotation API (otter/otter.h): phases (nested), task labels and
// marks. With OTTER they are nodes of the graph (named), events of the
// trace (phases: OTF2 regions of paradigm USER named after the phase), and
// otter summary reports them; without a tool the program's output and exit
// code are the same. An unbalanced end is one warning, never a crash. Each
// annotation is labelled with the line that called it (not otter.h's).
// RUN: %otter-cc -I%otter_src/include %s -o %t
// RUN: sh -c '%t; echo "rc=$?"' > %t.plain 2> %t.plain.err
// RUN: rm -rf %t.d && %otter-run OTTER_OUTPUT_DIR=%t.d sh -c '%t; echo "rc=$?"' > %t.out 2> %t.err
// RUN: diff %t.plain %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.d/graph.txt
// RUN: FileCheck --check-prefix=CSV %s < %t.d/nodes.csv
// RUN: FileCheck --check-prefix=DOT %s < %t.d/graph.gv
// RUN: %check-rebuild --format all %t.d
// RUN: otter summary %t.d | FileCheck --check-prefix=SUM %s
// RUN: otter summary --by phase %t.d | FileCheck --check-prefix=BYPHASE %s
// RUN: otter summary --json %t.d | FileCheck --check-prefix=JSON %s
// RUN: otter dump %t.d --kind phase_begin,task_label,mark | FileCheck --check-prefix=DUMP %s
// RUN: otter export --format perfetto -o %t.pf.json %t.d
// RUN: grep -o '"name":"phase [a-z]*"\|"name":"mark [a-z]*"\|"label":"[a-z]*"' %t.pf.json | sort | uniq -c | FileCheck --check-prefix=PERFETTO %s
// RUN: otf2-print -G %t.d/trace/traces.otf2 | FileCheck --check-prefix=OTF2 %s
#include <otter/otter.h>
#include <stdio.h>

static int work(int n) {
  int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
#pragma omp single
  for (int i = 0; i < n; ++i) {
#pragma omp task shared(s)
    {
      otter_task_label(i % 2 ? "odd" : "even");
#pragma omp atomic
      s += i;
    }
  }
  return s;
}

int main(void) {
  // CHECK: n0 initial_task
  // CHECK: phase_begin parent=n0 at={{.*}}annotations.c:[[@LINE+1]]:3 name="setup"
  otter_phase_begin("setup");
  // CHECK: mark parent=n0 at={{.*}}annotations.c:[[@LINE+1]]:3 name="ready"
  otter_mark("ready");
  // CHECK: phase_end parent=n0 at={{.*}}annotations.c:[[@LINE+1]]:3 {{.*}}name="setup"
  otter_phase_end();
  int total = 0;
  for (int round = 0; round < 2; ++round) {
    // CHECK: phase_begin parent=n0 at={{.*}}annotations.c:[[@LINE+1]]:5 {{.*}}name="solve"
    otter_phase_begin("solve");
    // CHECK: phase_begin parent=n0 {{.*}} name="inner"
    otter_phase_begin("inner");
    // CHECK: task parent=n{{[0-9]+}} {{.*}} name="{{even|odd}}"
    total += work(4);
    // CHECK: phase_end parent=n0 {{.*}} name="inner"
    otter_phase_end();
    // CHECK: phase_end parent=n0 {{.*}} name="solve"
    otter_phase_end();
  }
  otter_phase_end(); // unbalanced: one warning
  otter_phase_end(); // no second one
  printf("total %d\n", total);
  return 0;
}
// ERR: otter: warning: otter_phase_end() with no phase begun in the same task: ignored (said once)
// ERR-NOT: otter_phase_end
// CSV: id,kind,parent,thread,file,line,col,function,region_id,flags,directive,location,label_quality,name,bytes_to,bytes_from
// CSV: ,phase_begin,0,{{.*}},setup
// CSV: ,task,{{.*}},{{even|odd}}
// DOT: label="phase_begin{{.*}}\n\"setup\""
// Two solve phases of one inner each; four tasks per round, two of each label.
// SUM: phase {{ *}}instances
// SUM-DAG: {{^}}solve {{ *}}2
// SUM-DAG: {{^}}inner {{ *}}2
// SUM-DAG: {{^}}setup {{ *}}1
// SUM: task labels  "even"=4 "odd"=4
// SUM: marks        1
// BYPHASE: run time
// BYPHASE: phase {{ *}}instances
// BYPHASE-NOT: region_id
// JSON: "phases":[{{.*}}{"name":"setup","instances":1,
// JSON-SAME: "task_labels":[{"name":"even","tasks":4},{"name":"odd","tasks":4}],"marks":1
// DUMP: phase_begin {{.*}} name="setup"
// A slice per phase instance, an instant per mark, the label of each task.
// PERFETTO: 4 "label":"even"
// PERFETTO-NEXT: 4 "label":"odd"
// PERFETTO-NEXT: 1 "name":"mark ready"
// PERFETTO-NEXT: 2 "name":"phase inner"
// PERFETTO-NEXT: 1 "name":"phase setup"
// PERFETTO-NEXT: 2 "name":"phase solve"
// DUMP: mark {{.*}} name="ready"
// DUMP: task_label {{.*}} name="{{even|odd}}"
// OTF2: REGION {{.*}}Name: "setup @ {{.*}}"{{.*}}Paradigm: "User"
