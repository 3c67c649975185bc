// otter report on an MPI job, in a real browser: two ranks make the three
// wait states (rank 1 receives from a rank 0 that sends 100 ms late: late
// sender; rank 0 waits 100 ms for rank 1 at a barrier: wait at collective;
// rank 0's synchronous send waits 100 ms for rank 1's receive: late
// receiver). Headless Chromium renders the job's report: after its script
// ran, the DOM shows every MPI finding of `otter diagnose` with the same
// time lost per rank, and the browser printed no error or console message.
// REQUIRES: mpi, plugin, chromium
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t && %mpirun -np 2 otter-run -o %t %t.prog | sort | FileCheck --check-prefix=OUT %s
// RUN: otter diagnose --json %t > %t.diag.json
// RUN: otter report --no-simulate -o %t.html %t | FileCheck --check-prefix=WROTE %s
// WROTE: wrote {{.*}}.html
// Chromium runs without LD_PRELOAD (a sanitizer build preloads its
// runtime, and the uninstrumented browser hangs with it).
// DEFINE: %{chrome} = env -u LD_PRELOAD chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir=%t.profile
// RUN: %{chrome} --enable-logging=stderr --v=0 --dump-dom file://%t.html > %t.dom 2> %t.log
// RUN: python3 %S/Inputs/report-waits-check.py %t.diag.json %t.dom
// RUN: FileCheck --check-prefix=DOM %s < %t.dom
// DOM: id="ranks"
// DOM: id="rank-0"
// DOM: id="rank-1"
// RUN: not grep -E ':CONSOLE|Uncaught' %t.log
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    usleep(100000);
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    usleep(100000);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Ssend(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else {
    usleep(100000);
    MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 done
// OUT: rank 1 done
