// The program's names (otter/otter.h) in an MPI job: each rank interns its
// own names, so the same name has different ids on different ranks (here
// "exchange" is rank 0's second name and rank 1's first). The job's graph
// (otter-graph on the job) shows every rank's nodes with the rank's own
// names: nodes.csv's name column, graph.txt's name= (job-graph.sh checks
// each rank's part against the rank's own graph.txt, names included), and
// otter summary on the job counts the phases and labels of all ranks by
// name, and restricts an analysis to a phase of every rank. The labelled
// tasks run 10 ms: the job's critical path passes through one of them and
// names its label.
// REQUIRES: mpi, plugin
// RUN: %mpicc -I%otter_src/include %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: FileCheck --check-prefix=CSV %s < %t/job/nodes.csv
// RUN: FileCheck --check-prefix=TXT %s < %t/job/graph.txt
// RUN: FileCheck --check-prefix=DOT %s < %t/job/graph.gv
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
// RUN: otter summary --by phase %t | FileCheck --check-prefix=BYPHASE %s
// RUN: otter summary --json %t | FileCheck --check-prefix=JSON %s
// --phase on a job: "exchange" occurs once on each rank, its task with it.
// RUN: otter summary --phase exchange %t 2> %t.err | FileCheck --check-prefix=JOBPHASE %s
// RUN: FileCheck --check-prefix=JOBPHASE-ERR %s < %t.err
// RUN: otter parallelism %t | FileCheck --check-prefix=PAR %s
// RUN: otter parallelism --json %t | FileCheck --check-prefix=PARJSON %s
// The replay and the other reports take a job whole: --phase is refused.
// RUN: not otter simulate --phase exchange %t 2>&1 | FileCheck --check-prefix=PHASEJOB %s
// RUN: not otter report --phase exchange %t 2>&1 | FileCheck --check-prefix=PHASEJOB %s
#include <mpi.h>
#include <otter/otter.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0, y = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    otter_phase_begin("setup");
    x = 1;
    otter_phase_end();
  }
  otter_phase_begin("exchange");
#pragma omp parallel num_threads(1)
#pragma omp single
#pragma omp task shared(x)
  {
    otter_task_label(rank == 0 ? "rank0-task" : "rank1-task");
    x += rank;
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 0.01) {
    }
  }
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  otter_phase_end();
  printf("rank %d y=%d\n", rank, y);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 y=2
// OUT: rank 1 y=2

// CSV: id,rank,node,kind,parent,thread,file,line,col,function,region_id,flags,directive,location,label_quality,name,bytes_to,bytes_from
// CSV: {{^[0-9]+}},0,{{[0-9]+}},phase_begin,{{.*}},setup,,{{$}}
// CSV: {{^[0-9]+}},0,{{[0-9]+}},phase_begin,{{.*}},exchange,,{{$}}
// CSV: {{^[0-9]+}},0,{{[0-9]+}},task,{{.*}},rank0-task,,{{$}}
// CSV: {{^[0-9]+}},1,{{[0-9]+}},phase_begin,{{.*}},exchange,,{{$}}
// CSV: {{^[0-9]+}},1,{{[0-9]+}},task,{{.*}},rank1-task,,{{$}}
// CSV: ,,0,mpi_collective,{{.*}},MPI_Allreduce,{{[^,]*}},{{[^,]*}},{{[^,]*}},,,{{$}}

// TXT: r0.n{{[0-9]+}} phase_begin {{.*}} name="setup"
// TXT: r1.n{{[0-9]+}} phase_begin {{.*}} name="exchange"
// TXT: r1.n{{[0-9]+}} phase_end {{.*}} name="exchange"
// DOT: label="task{{.*}}\n\"rank1-task\""

// SUM: phase {{ *}}instances
// SUM-DAG: {{^}}exchange {{ *}}2
// SUM-DAG: {{^}}setup {{ *}}1
// SUM: task labels  "rank0-task"=1 "rank1-task"=1
// BYPHASE: run time
// BYPHASE: exchange {{ *}}2
// BYPHASE-NOT: MPI time
// JSON: "task_labels":[{"name":"rank0-task","tasks":1},{"name":"rank1-task","tasks":1}]
// JOBPHASE: constructs {{.*}} task=2
// JOBPHASE-NOT: setup
// JOBPHASE-ERR: otter: phase 'exchange': 2 occurrences
// PAR: critical path
// PAR: rank {{[01]}} {{ *}}task {{ *}}{{.*}}names.c:{{[0-9]+}} {{.*}}  [rank{{[01]}}-task]
// PARJSON: "critical_path":[{{.*}}"kind":"task",{{[^}]*}},"label":"rank{{[01]}}-task"}
// PHASEJOB: otter: error: --phase on an MPI job applies to summary, parallelism, diagnose and export; simulate, picture, report and diff take a job whole
