// A host teams construct. OMPT reports the league as a parallel region
// (flags=league) and each team's initial task with no parallel region; the
// teams barrier names the league. The graph makes the teams' initial tasks
// members of the league, like a team's implicit tasks: teams begin -> one
// initial_task per team -> the team's own region (libomp's team of one,
// reported with no code: labelled with the teams construct) -> the teams
// barrier -> teams end. Same graph whatever the number of threads. The
// analyses agree: the teams' work is the teams region's, and no region is
// left unlabelled.
//
// REQUIRES: plugin
// RUN: %otter-cc %s -o %t
// RUN: rm -rf %t.d1 %t.d2 %t.d4
// RUN: %otter-run OTTER_VERBOSE=1 OMP_NUM_THREADS=1 OTTER_OUTPUT_DIR=%t.d1 %t 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %otter-run OMP_NUM_THREADS=2 OTTER_OUTPUT_DIR=%t.d2 %t
// RUN: %otter-run OMP_NUM_THREADS=4 OTTER_OUTPUT_DIR=%t.d4 %t
// RUN: diff %t.d1/graph.txt %t.d2/graph.txt
// RUN: diff %t.d1/graph.txt %t.d4/graph.txt
// RUN: FileCheck %s < %t.d1/graph.txt
// RUN: %check-rebuild %t.d1
// RUN: otter parallelism %t.d1 | FileCheck --check-prefix=PAR %s
#include <stdio.h>
int main(void) {
  int n = 0;
#pragma omp teams num_teams(2)
  {
#pragma omp parallel num_threads(2)
#pragma omp atomic
    n++;
  }
  printf("n=%d\n", n);
  return 0;
}
// OUT: n=2
// ERR-NOT: warning: {{.*(twice|unknown task|explicit task|without begin|not every member|not reachable)}}
// ERR: otter: code addresses: {{[0-9]+}} exact, 0 approximate, 0 unresolved

// CHECK: # otter canonical graph v1: 22 nodes, 22 edges
// CHECK-NEXT: n0 initial_task parent=- at=?{{$}}
// CHECK-NEXT:   -> n[[LB:[0-9]+]] scope
// CHECK-NEXT: n[[LB]] parallel_begin parent=n0 at=[[TEAMS:.*teams.c]]:[[@LINE-16]]:1{{$}}
// CHECK-NEXT:   -> n[[T0:[0-9]+]] scope
// CHECK-NEXT:   -> n[[T1:[0-9]+]] scope
// CHECK-NEXT: n[[T0]] initial_task parent=n[[LB]] at=[[TEAMS]]:[[@LINE-19]]:1{{$}}
// CHECK-NEXT:   -> n[[R0:[0-9]+]] scope
// CHECK-NEXT: n[[T1]] initial_task parent=n[[LB]] at=[[TEAMS]]:[[@LINE-21]]:1{{$}}
// CHECK-NEXT:   -> n[[R1:[0-9]+]] scope
// CHECK-NEXT: n[[R0]] parallel_begin parent=n[[T0]] at=[[TEAMS]]:[[@LINE-23]]:1{{$}}
// CHECK-NEXT:   -> n{{[0-9]+}} scope
// CHECK-NEXT: n{{[0-9]+}} implicit_task parent=n[[R0]] at=[[TEAMS]]:[[@LINE-25]]:1{{$}}
// CHECK-NEXT:   -> n{{[0-9]+}} scope
// CHECK-NEXT: n{{[0-9]+}} parallel_begin parent={{n[0-9]+}} at=[[TEAMS]]:[[@LINE-25]]:1{{$}}
// CHECK:      n{{[0-9]+}} barrier_implicit parent=n[[R0]] at=[[TEAMS]]:[[@LINE-28]]:1{{$}}
// CHECK-NEXT:   -> n[[E0:[0-9]+]] scope
// CHECK-NEXT: n[[E0]] parallel_end parent=n[[T0]] at=[[TEAMS]]:[[@LINE-30]]:1{{$}}
// CHECK-NEXT:   -> n[[LBAR:[0-9]+]] scope
// CHECK-NEXT: n[[R1]] parallel_begin parent=n[[T1]] at=[[TEAMS]]:[[@LINE-32]]:1{{$}}
// CHECK:      n{{[0-9]+}} parallel_end parent=n[[T1]] at=[[TEAMS]]:[[@LINE-33]]:1{{$}}
// CHECK-NEXT:   -> n[[LBAR]] scope
// CHECK-NEXT: n[[LBAR]] barrier_implicit parent=n[[LB]] at=[[TEAMS]]:[[@LINE-35]]:1{{$}}
// CHECK-NEXT:   -> n[[LE:[0-9]+]] scope
// CHECK-NEXT: n[[LE]] parallel_end parent=n0 at=[[TEAMS]]:[[@LINE-37]]:1{{$}}

// PAR: parallel regions:
// PAR-NOT: {{^  \?}}
// PAR: {{^  .*teams.c:}}[[@LINE-41]]{{ +3 }}
// PAR-NOT: {{^  \?}}
// PAR: critical path
