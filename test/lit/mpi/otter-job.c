// `otter` on an MPI job: every command takes the job's directory (or its
// archive) and reads every rank's events as one program. A chain of four
// ranks, each working (sleeping, which is a task's own time to OTTER) 100 ms
// after the previous one's message, rank 2 300 ms: the critical path goes
// from rank 0 through the messages to rank 2, the span is the chain's, not
// one rank's; summary has each rank's time, the load imbalance across
// ranks (rank 2 the slowest) and MPI time per function and per call site.
// Then rank 0 sends synchronously to rank 3, which receives 100 ms late.
// diagnose finds the wait states (late sender in the chain, wait at the
// barrier for rank 2, late receiver at the MPI_Ssend), with the time each
// rank lost, and the HTML report shows the same; the Perfetto export
// has a process per rank and an arrow per message.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 4 otter-run -o %t %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter parallelism %t > %t.par
// RUN: FileCheck --check-prefix=PAR %s < %t.par
// RUN: otter parallelism --json %t/trace | FileCheck --check-prefix=PJSON %s
// The span is the chain: 100 + 100 + 300 ms at least (one rank alone
// would be at most 300 ms plus its start).
// RUN: otter parallelism --json %t/trace/traces.otf2 | sed 's/.*"span_ns":\([0-9]*\).*/\1/' | awk '{print ($1 > 490000000)}' | FileCheck --check-prefix=SPAN %s
// RUN: otter summary %t > %t.sum
// RUN: FileCheck --check-prefix=SUM %s < %t.sum
// RUN: otter summary --json %t | FileCheck --check-prefix=SJSON %s
// RUN: otter diagnose %t | FileCheck --check-prefix=DIAG %s
// The report shows the same wait states, numbers and ranks.
// RUN: otter diagnose --json %t > %t.diag.json
// RUN: otter report --no-simulate -o %t.html %t
// RUN: python3 %S/Inputs/report-waits-check.py %t.diag.json %t.html
// RUN: FileCheck --check-prefix=HTML %s < %t.html
// RUN: otter export --format perfetto -o %t.json %t | FileCheck --check-prefix=EXPORT %s
// RUN: grep -c '"name":"process_name","ph":"M","pid":[1-4],"args":{"name":"MPI rank [0-3]"}' %t.json | FileCheck --check-prefix=PROCS %s
// RUN: grep -c '"cat":"message","ph":"[sf]"' %t.json | FileCheck --check-prefix=FLOWS %s
// A rank's own archive is still one process.
// RUN: otter summary %t/rank-1 | FileCheck --check-prefix=RANK %s
// A rank's state timeline: its MPI calls are waiting (check-states.py).
// RUN: %check-states --report --expect-wait mpi %t/rank-1 | FileCheck --check-prefix=STATES %s
// STATES: states: ok (1 threads)
// STATES-NEXT: waiting in: {{.*}}mpi
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank > 0)
    MPI_Recv(&x, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  usleep(100000);
  ++x;
  if (rank + 1 < size)
    MPI_Send(&x, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD);
  if (rank == 2)
    usleep(200000);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Ssend(&x, 1, MPI_INT, 3, 1, MPI_COMM_WORLD);
  if (rank == 3) {
    usleep(100000);
    MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d x=%d\n", rank, x);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 x=1
// OUT: rank 3 x=1

// PAR: MPI job: 4 ranks, 4 threads, run time
// PAR-NEXT: messages: 4 matched; collectives: 1
// PAR: critical path ({{[0-9]+}} steps, crossing ranks {{[2-4]}} times):
// PAR-NEXT: rank 0 initial_task (program) {{[0-9.]+}} ms
// PAR-NEXT: rank 0 mpi {{.*}}otter-job.c:[[#@LINE-22]] 0 ns MPI_Send
// PAR-NEXT: -> rank 1 mpi {{.*}}otter-job.c:[[#@LINE-27]] 0 ns MPI_Recv
// PAR-NEXT: rank 1 initial_task (program) {{[0-9.]+}} ms
// PAR-NEXT: rank 1 mpi {{.*}}otter-job.c:[[#@LINE-25]] 0 ns MPI_Send
// PAR-NEXT: -> rank 2 mpi {{.*}}otter-job.c:[[#@LINE-30]] 0 ns MPI_Recv
// PAR-NEXT: rank 2 initial_task (program) {{[23][0-9][0-9]\.[0-9]+}} ms
// After rank 2 the path may go through the barrier to the rank whose end
// came last, or end on rank 2: its last steps are timing.

// PJSON: {"job":{"dir":{{.*}},"ranks":[{"rank":0,"read":true,"complete":true,"threads":1,
// PJSON-SAME: "messages":4,"unmatched_sends":0,"unmatched_receives":0,"collectives":1,"incomplete_collectives":0
// PJSON-SAME: "critical_path":[{"rank":0,"kind":"initial_task"
// PJSON-SAME: {"rank":0,"kind":"mpi","file":"{{.*}}otter-job.c","line":[[#@LINE-34]],"ns":0,"tasks":0,"function":"MPI_Send"}
// SPAN: 1

// SUM: MPI job: 4 ranks, 4 threads, run time
// SUM: ranks:
// SUM-NEXT: rank threads busy mpi other wait run time
// SUM-NEXT: 0 1 {{.*}}
// SUM-NEXT: 1 1 {{.*}}
// SUM-NEXT: 2 1 {{.*}}
// SUM-NEXT: 3 1 {{.*}}
// SUM-NEXT: load imbalance across ranks (busy time): max {{.*}} ms (rank 2), mean {{.*}} ms, max/mean {{1\.[5-9][0-9]|2\.[0-2][0-9]}}, {{.*}} lost
// SUM: MPI time per function
// SUM-DAG: MPI_Send 3 {{.*}}%
// SUM-DAG: MPI_Recv 4 {{.*}}%
// SUM-DAG: MPI_Ssend 1 {{.*}}%
// SUM-DAG: MPI_Barrier 4 {{.*}}%
// SUM: MPI time per call site:
// SUM-DAG: MPI_Send {{.*}}otter-job.c:[[#@LINE-51]] 3
// SUM-DAG: MPI_Recv {{.*}}otter-job.c:[[#@LINE-56]] 3
// SUM-DAG: MPI_Barrier {{.*}}otter-job.c:[[#@LINE-50]] 4
// SUM-DAG: MPI_Recv {{.*}}otter-job.c:[[#@LINE-46]] 1
// SUM: communication matrix (point to point, matched messages: 4 messages, 16 bytes; {{.*}}
// SUM-NEXT: from\to 0 1 2 3
// SUM-NEXT: 0 - 4 (1) - 4 (1)
// SUM-NEXT: 1 - - 4 (1) -
// SUM-NEXT: 2 - - - 4 (1)
// SUM-NEXT: 3 - - - -
// SUM: the job as one program
// SUM: constructs initial_task=4 mpi=20

// SJSON: "comm_matrix":[{"from":0,"to":1,"messages":1,"bytes":4},{"from":0,"to":3,"messages":1,"bytes":4},{"from":1,"to":2,"messages":1,"bytes":4},{"from":2,"to":3,"messages":1,"bytes":4}]
// SJSON-SAME: "mpi_functions":[{{.*}}{"function":"MPI_Recv","calls":4,
// SJSON-SAME: "mpi_sites":[
// SJSON-SAME: "summary":{"run_ns":

// DIAG: MPI job: 4 ranks
// DIAG-DAG: wait_at_collective: mpi at {{.*}}otter-job.c:[[#@LINE-67]] MPI_Barrier (est. {{.*}} thread time lost)
// DIAG-DAG: evidence: 3 of 4 member call(s) waited, {{.*}}; Wait at Barrier
// DIAG-DAG: late_sender: mpi at {{.*}}otter-job.c:[[#@LINE-76]] MPI_Recv (est. {{.*}} thread time lost)
// DIAG-DAG: evidence: 3 of 4 receive(s) began before their send, {{.*}} lost, worst {{[23][0-9][0-9]\.[0-9]+}} ms
// DIAG-DAG: late_receiver: mpi at {{.*}}otter-job.c:[[#@LINE-69]] MPI_Ssend (est. {{.*}} thread time lost)
// DIAG-DAG: evidence: 1 of 4 send(s) began before their receive was posted, {{.*}} lost
// DIAG-DAG: delay_cost: mpi at rank 2's work from {{.*}}otter-job.c:[[#@LINE-76]] MPI_Send to {{.*}}otter-job.c:[[#@LINE-73]] MPI_Barrier and {{[0-9]+}} other(s)
// PROCS: 4
// FLOWS: 8

// EXPORT: wrote {{.*}}.json

// RANK: run time
// RANK: constructs initial_task=1 mpi=5
// DIAG-DAG: ranks:     rank 0 {{[0-9.]+ m?s}}, rank 1 {{[0-9.]+ m?s}}, rank 3 {{[0-9.]+ m?s}}{{$}}
// DIAG-DAG: ranks:     rank 1 {{[0-9.]+ m?s}}, rank 2 {{[0-9.]+ m?s}}, rank 3 {{[0-9.]+ m?s}}{{$}}
// DIAG-DAG: ranks:     rank 0 {{[0-9.]+ m?s}}{{$}}
// HTML-DAG: <section id="comm-matrix"><h2>Communication matrix</h2><table id="comm">
// HTML-DAG: <td class="n" data-bytes="4" data-messages="1" style="background:rgba(214,96,77,0.90)" title="rank 2 to rank 3: 4 bytes, 1 messages">
// HTML: <section id="diagnostics"><h2>Diagnostics
// HTML-DAG: <div class="finding" data-check="wait_at_collective" data-ns="{{[0-9]+}}"><b>wait_at_collective</b>: mpi at {{.*}}otter-job.c:{{[0-9]+}} MPI_Barrier
// HTML-DAG: <div class="finding" data-check="late_sender" data-ns="{{[0-9]+}}"><b>late_sender</b>: mpi at {{.*}}otter-job.c:{{[0-9]+}} MPI_Recv
// HTML-DAG: <div class="finding" data-check="late_receiver" data-ns="{{[0-9]+}}"><b>late_receiver</b>: mpi at {{.*}}otter-job.c:{{[0-9]+}} MPI_Ssend
// HTML-DAG: <span class="muted">ranks:</span> <span class="rank-lost" data-rank="0" data-ns="{{[0-9]+}}">rank 0 {{[0-9.]+ m?s}}</span></div>
// HTML: "mpi_waits":[{"check":
