// An MPI job sampled (docs/sampling.md, "An MPI job"): with sampling alone
// (otter-run --sample) the last rank to finish assembles the job's OTF2
// archive as for a traced job, with the ranks' calling contexts and
// interrupt generator in its definitions (every sample's context defined,
// as many samples as the ranks' archives hold, the anchor saying it holds
// samples alone); `otter profile JOB` merges the ranks' profiles (each
// rank's blame shifted within the rank): both ranks' functions in it, its
// samples and time the sums of the ranks'; the utilities that need events
// say in one line that the job holds samples alone and name `otter
// profile JOB`, and `otter report` writes the job's profile alone. Traced and sampled, the job's archive also defines every
// sample's context (it left them undefined before). A sample taken inside
// an MPI call goes on at OTTER's wrapper (the MPI library has no frame
// pointers): rank 0, waiting in MPI_Barrier for the slower rank 1, has
// paths main -> MPI_Barrier, and no path holds a frame of OTTER's own.
// RUN: %mpicc -g -O1 -fno-omit-frame-pointer -rdynamic %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run --sample -o %t %t.prog 2>%t.err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: otter profile %t | FileCheck --check-prefix=PROF %s
// RUN: otter profile --json %t > %t.job.json
// RUN: otter profile --json %t/rank-0 > %t.r0.json
// RUN: otter profile --json %t/rank-1 > %t.r1.json
// RUN: python3 %S/Inputs/sampled-job-sums.py %t.job.json %t.r0.json %t.r1.json | FileCheck --check-prefix=SUMS %s
// RUN: otter profile %t/trace | FileCheck --check-prefix=PROF %s
// RUN: otter profile --format folded %t/rank-0 | FileCheck --check-prefix=FOLDED %s
// RUN: otf2-print -A %t/trace/traces.otf2 | FileCheck --check-prefix=ANCHOR %s
// RUN: python3 %S/Inputs/sampled-job-contexts.py %t | FileCheck --check-prefix=CTX %s
// RUN: not otter summary %t 2>&1 | FileCheck --check-prefix=ONLY %s
// RUN: otter report -o %t.html %t | FileCheck --check-prefix=REPORT %s
// RUN: FileCheck --check-prefix=HTML %s < %t.html
//
// Traced and sampled.
// RUN: rm -rf %t.t && %mpirun -np 2 env OTTER_SAMPLE=1000 otter-run -o %t.t %t.prog 2>%t.t.err | FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/sampled-job-contexts.py %t.t | FileCheck --check-prefix=CTX %s
// RUN: otter profile %t.t | FileCheck --check-prefix=PROF %s
#include <mpi.h>
#include <stdio.h>

volatile double Sink;

__attribute__((noinline)) void spin(long N) {
  double S = 0;
  for (long I = 0; I < N; ++I)
    S += I * 0.5;
  Sink = S;
}
// Not tail calls: each keeps its frame under spin's.
__attribute__((noinline)) void rank0Work(void) {
  spin(120000000);
  Sink += 1;
}
__attribute__((noinline)) void rank1Work(void) {
  spin(360000000);
  Sink += 2;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
#pragma omp parallel num_threads(1)
  {
    if (Rank == 0)
      rank0Work();
    else
      rank1Work();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0)
    printf("done\n");
  MPI_Finalize();
  return 0;
}

// OUT: done
// ERR: wrote {{.*}}/trace/ (OTF2 archive of the job: 2 ranks, 2 threads)

// PROF: samples: {{[0-9]+}} of 2 threads of 2 ranks,
// PROF-NEXT: in MPI calls: {{[1-9][0-9]*}}.0 ms (the samples whose path holds an MPI function;
// PROF: per function
// PROF-DAG: rank0Work (sampled-job.c:[[#@LINE-33]])
// PROF-DAG: rank1Work (sampled-job.c:[[#@LINE-30]])

// FOLDED-NOT: otter::
// FOLDED: {{^}}main;MPI_Barrier{{(;[^ ]+)?}} {{[1-9][0-9]*$}}
// FOLDED-NOT: otter::

// SUMS: samples 1 total_ns 1 threads 1 mpi_ns 1 ranks 2
// SUMS-NEXT: rank0Work only in rank 0, rank1Work only in rank 1

// ANCHOR: Property name OTTER::CONTENT
// ANCHOR-NEXT: Property value samples

// CTX: samples {{[0-9]+}}, the ranks' {{[0-9]+}}, undefined contexts 0
// CTX-NEXT: equal

// REPORT: wrote {{.*}}.html (the sampled profile alone: the run was sampled without a trace)
// HTML: <div id="samples-alone">
// HTML: <section id="profile"><h2>Sampled profile</h2><div>{{[0-9]+}} samples of 2 threads of 2 ranks, {{.*}}: its ranks' samples, merged
// HTML-DAG: rank0Work
// HTML-DAG: rank1Work
// HTML-DAG: MPI_Barrier

// ONLY: otter: error: '{{.*}}' holds the job's samples alone (its ranks were sampled with OTTER_SAMPLE and OTTER_TRACE=0), no events to read; otter profile {{.*}} reads them
