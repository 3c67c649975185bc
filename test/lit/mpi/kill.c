// A rank killed with SIGKILL: nothing of it runs any more, but what its
// threads had written to disk (every full 4 MiB OTF2 chunk; the
// definitions are checkpointed with them) still reads, and says it was not
// closed; the other rank, ended by the launcher with SIGTERM, saves its
// whole trace.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && not %mpirun -np 2 otter-run -o %t %t.prog 150000 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: otter-graph %t/rank-1 -o %t/re1 --format canon 2> %t/re1.err
// RUN: FileCheck --check-prefix=WARN %s < %t/re1.err
// RUN: head -1 %t/re1/graph.txt | awk '{print ($6 > 50000 && $6 < 150002)}' | FileCheck --check-prefix=PART %s
// RUN: otter-graph %t/rank-0 -o %t/re0 --format canon
// RUN: head -1 %t/re0/graph.txt | FileCheck --check-prefix=WHOLE %s
// Nobody assembled the job's archive (the killed rank never closed): the
// first utility that reads the job directory does, in one line, and the
// archive says which rank is cut off (for OTF2 tools). The job's graph
// from what both ranks wrote: rank 1 named as cut off, the barriers it
// never reached incomplete collectives, not errors.
// RUN: test ! -e %t/trace/traces.otf2
// RUN: otter-graph %t -o %t/job --format canon 2> %t/job.err
// RUN: FileCheck --check-prefix=JOBERR %s < %t/job.err
// RUN: otf2-print -I %t/trace/traces.otf2 | FileCheck --check-prefix=PROPS %s
// Once: the next reader finds the archive.
// RUN: otter-graph %t -o %t/job2 --format canon 2>&1 | FileCheck --allow-empty --check-prefix=ONCE %s
// otter-merge assembles it again, and says which rank is cut off.
// RUN: otter-merge %t | FileCheck --check-prefix=MERGE %s
// RUN: FileCheck --check-prefix=JOBG %s < %t/job/graph.txt
// RUN: otf2-print %t/trace/traces.otf2 | awk '/^LEAVE/ {n++} END {print (n > 200000)}' | FileCheck --check-prefix=READS %s
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0, n = atoi(argv[1]);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    raise(SIGKILL);
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}

// ERR: otter: the program was ended by SIGTERM; writing what was recorded
// ERR: process rank 1 {{.*}} exited on signal 9

// WARN: the trace in '{{.*}}rank-1' was not closed
// Tens of thousands of barriers reached the disk, not all 150000.
// PART: 1
// Initial task, MPI_Init, 150000 barriers (the pending receive never ended).
// WHOLE: # otter canonical graph v1: 150002 nodes

// MERGE: otter-merge: wrote {{.*}}/trace/ (2 ranks, 2 threads, 1 rank(s) cut off: their archives were not closed)
// PROPS: Property name OTTER::INCOMPLETE_RANKS
// PROPS-NEXT: Property value 1
// READS: 1
// ONCE-NOT: assembled
// JOBERR: otter-graph: assembled the job's archive {{.*}}/trace/ (no rank did: the job ended by a fault): 2 ranks, 1 cut off
// JOBERR: otter-graph: warning: rank 1's trace was not closed
// JOBERR: otter-graph: warning: MPI_Barrier instance {{[0-9]+}} on comm world {{.*}}: 1 of 2 members recorded, 1 completed
// JOBERR: otter-graph: warning: ... and {{[0-9]+}} more incomplete collectives
// JOBG: # otter canonical job graph v1: 2 ranks, {{[0-9]+}} nodes, {{[0-9]+}} edges, 0 messages, 150000 collectives
// JOBG-NEXT: # unmatched: 0 sends, 0 receives; {{[0-9]+}} incomplete collectives; 0 ranks without a graph
