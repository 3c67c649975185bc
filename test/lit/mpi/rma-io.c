// One-sided communication, MPI-IO, a neighbourhood collective and
// MPI_Alltoallw are traced (issue 27 item 3: they were counted only, their
// time taken for computation): each call is a region of MPI time in the
// summary; Put, Get, Accumulate, Fetch_and_op, the file reads and writes
// and the neighbourhood allgather (to its ring's two neighbours) record
// the bytes they move (MpiTransfer), summed per function; a
// window is a communicator of its own (MPI_Win 1), and its fences are
// barrier instances on it that the job graph matches across the ranks.
// What is still counted only (MPI_Comm_disconnect here) keeps its line.
// The program's output is unchanged.
// REQUIRES: mpi, plugin
// RUN: %mpicc %s -o %t.prog
// RUN: rm -rf %t %t.data && %mpirun -np 2 otter-run -o %t -f all %t.prog %t.data | sort | FileCheck --check-prefix=OUT %s
// RUN: otter summary %t | FileCheck --check-prefix=SUM %s
// RUN: otter summary --json %t | FileCheck --check-prefix=JSON %s
// RUN: otter report %t -o %t.html && FileCheck --check-prefix=HTML %s < %t.html
// RUN: FileCheck --check-prefix=CSV %s < %t/rank-0/mpi.csv
// RUN: otter export --format perfetto -o %t.json %t && FileCheck --check-prefix=PERFETTO %s < %t.json
// RUN: otter dump %t/rank-0 | FileCheck --check-prefix=DUMP %s
// RUN: sh %S/Inputs/job-graph.sh %t 2
// RUN: FileCheck --check-prefix=COLL %s < %t/job/collectives.csv
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, *window;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size;

  // One-sided: 4 fences around a put, a get, an accumulate and a fetch.
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &window, &win);
  for (int i = 0; i < 4; ++i)
    window[i] = rank;
  MPI_Win_fence(0, win);
  int v = 10 + rank, got[2] = {0, 0}, one = 1, old = 0;
  MPI_Put(&v, 1, MPI_INT, next, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(got, 2, MPI_INT, next, 0, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Accumulate(&one, 1, MPI_INT, next, 2, 1, MPI_INT, MPI_SUM, win);
  MPI_Fetch_and_op(&one, &old, MPI_INT, next, 3, MPI_SUM, win);
  MPI_Win_fence(0, win);
  printf("rank %d window %d,%d,%d,%d got %d,%d old %d\n", rank, window[0],
         window[1], window[2], window[3], got[0], got[1], old);
  MPI_Win_free(&win);

  // MPI-IO: each rank writes 4 ints at its own offset, then all read back
  // the other rank's (a collective read).
  MPI_File fh;
  int out[4], in[4];
  for (int i = 0; i < 4; ++i)
    out[i] = 100 * rank + i;
  MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
                MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, rank * sizeof out, out, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_read_at_all(fh, next * sizeof in, in, 4, MPI_INT,
                       MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  printf("rank %d read %d,%d,%d,%d\n", rank, in[0], in[1], in[2], in[3]);

  // A ring topology's neighbours, and an all-to-all with a type per peer.
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int mine = rank, theirs[2] = {-1, -1};
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, ring);
  int sc[2] = {1, 1}, sd[2] = {0, 4}, rc[2] = {1, 1}, rd[2] = {0, 4};
  MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
  int sw[2] = {rank, rank}, rw[2] = {-1, -1};
  MPI_Alltoallw(sw, sc, sd, ty, rw, rc, rd, ty, MPI_COMM_WORLD);
  printf("rank %d neighbours %d,%d alltoallw %d,%d\n", rank, theirs[0],
         theirs[1], rw[0], rw[1]);
  MPI_Comm_free(&ring);

  // Still counted only.
  MPI_Comm gone;
  MPI_Comm_dup(MPI_COMM_WORLD, &gone);
  MPI_Comm_disconnect(&gone);
  MPI_Finalize();
  return 0;
}

// OUT: rank 0 neighbours 1,1 alltoallw 0,1
// OUT: rank 0 read 100,101,102,103
// OUT: rank 0 window 11,0,1,1 got 10,1 old 1
// OUT: rank 1 neighbours 0,0 alltoallw 0,1
// OUT: rank 1 read 0,1,2,3
// OUT: rank 1 window 10,1,2,2 got 11,0 old 0

// SUM: messages: 0 matched; collectives: [[#COLLS:]]
// SUM-NEXT: untraced MPI calls: 2 (MPI_Comm_disconnect 2): counted only; their time is part of the computation around them
// SUM: MPI time per function
// SUM-DAG: MPI_Win_fence {{ *}}8
// SUM-DAG: MPI_Put {{ *}}2
// SUM-DAG: MPI_File_write_at {{ *}}2
// SUM-DAG: MPI_Neighbor_allgather {{ *}}2
// SUM-DAG: MPI_Alltoallw {{ *}}2
// SUM: MPI time per call site
// SUM-DAG: MPI_Get {{ *}}{{.*}}rma-io.c:[[#@LINE-63]] {{ *}}2
// SUM-DAG: MPI_File_read_at_all {{ *}}{{.*}}rma-io.c:[[#@LINE-44]] {{ *}}2
// SUM: one-sided, file I/O and neighbourhood bytes per function
// SUM-NEXT: function calls bytes
// SUM-NEXT: MPI_File_read_at_all 2 32
// SUM-NEXT: MPI_File_write_at 2 32
// SUM-NEXT: MPI_Get 2 16
// SUM-NEXT: MPI_Neighbor_allgather 2 16
// SUM-NEXT: MPI_Put 2 8
// SUM-NEXT: MPI_Accumulate 2 8
// SUM-NEXT: MPI_Fetch_and_op 2 8
// SUM-EMPTY:
// Each rank puts, accumulates and fetch-and-ops into the next rank's window
// (3 operations, 12 bytes to it) and gets 8 bytes from it (those leave the
// target's memory): 4 operations, 20 bytes each way.
// SUM: one-sided communication matrix (8 operations, 40 bytes; a cell: bytes moved from the row's rank's memory to the column's - Get: target to origin, the others: origin to target - operations in parentheses):
// SUM-NEXT: from\to 0 1
// SUM-NEXT: 0 - 20 (4)
// SUM-NEXT: 1 20 (4) -

// JSON: "one_sided_matrix":[{"from":0,"to":1,"operations":4,"bytes":20},{"from":1,"to":0,"operations":4,"bytes":20}]
// JSON: "mpi_transfers":[{"function":"MPI_File_read_at_all","calls":2,"bytes":32},{"function":"MPI_File_write_at","calls":2,"bytes":32},{"function":"MPI_Get","calls":2,"bytes":16},{"function":"MPI_Neighbor_allgather","calls":2,"bytes":16},{"function":"MPI_Put","calls":2,"bytes":8},{"function":"MPI_Accumulate","calls":2,"bytes":8},{"function":"MPI_Fetch_and_op","calls":2,"bytes":8}]

// The report's ranks section has the same figures as the summary: no
// waiting outside MPI on these one-thread ranks (it used to show the MPI
// time again there).
// HTML: <tr class="rank" id="rank-0"><td class="n">0</td><td class="n">1</td><td class="n" data-v="{{[0-9]+}}">{{[^<]+}}</td><td class="n" data-v="{{[0-9]+}}">{{[^<]+}}</td><td class="n" data-v="0">0 ns</td>
// HTML: <h3>One-sided, file I/O and neighbourhood bytes</h3>
// HTML-SAME: <tr><td>MPI_File_read_at_all</td><td class="n">2</td><td class="n">32</td></tr><tr><td>MPI_File_write_at</td><td class="n">2</td><td class="n">32</td></tr><tr><td>MPI_Get</td><td class="n">2</td><td class="n">16</td></tr><tr><td>MPI_Neighbor_allgather</td><td class="n">2</td><td class="n">16</td></tr>
// HTML: <h3>One-sided</h3><table id="comm-one-sided">
// HTML-NEXT: <tr><th class="n">0</th><td></td><td class="n" data-bytes="20" data-operations="4"

// Rank 0's puts, gets, ... target rank 1 of the window (world rank 1); a
// file access has no communicator and no peer.
// CSV: MPI_Win_fence,collective_begin,MPI_Win 1,-,-,,,,barrier,0,
// CSV: MPI_Put,transfer,MPI_Win 1,1,1,,4,,,,
// CSV: MPI_Get,transfer,MPI_Win 1,1,1,,8,,,,
// CSV: MPI_Accumulate,transfer,MPI_Win 1,1,1,,4,,,,
// CSV: MPI_Fetch_and_op,transfer,MPI_Win 1,1,1,,4,,,,
// CSV: MPI_File_write_at,transfer,,-,-,,16,,,,
// CSV: MPI_File_read_at_all,transfer,,-,-,,16,,,,
// CSV: MPI_Neighbor_allgather,transfer,world/2,-,-,,8,,,,
// CSV: MPI_Alltoallw,collective_end,world,-,-,,8,8,alltoallw,1,

// Perfetto: a one-sided slice names its target and bytes (no tag), a file
// access its bytes.
// PERFETTO-DAG: "name":"MPI_Put {{[^"]*}}rma-io.c:[[#@LINE-111]]"{{.*}}"args":{"operations":"target rank 1, 4 bytes","peer":1,"bytes":4}
// PERFETTO-DAG: "name":"MPI_File_write_at {{[^"]*}}rma-io.c:[[#@LINE-93]]"{{.*}}"args":{"operations":"16 bytes","bytes":16}

// DUMP: mpi_call_begin {{.*}}function=MPI_Put
// DUMP-NEXT: mpi_transfer {{.*}}comm={{[0-9]+}} peer=1 peer_world=1 bytes=4
// DUMP-NEXT: mpi_call_end {{.*}}function=MPI_Put

// The four fences of each rank are instances 0-3 of a barrier on the window.
// COLL: MPI_Win_fence,barrier,MPI_Win 1,0,,2,2,{{.*}}rma-io.c:[[#@LINE-121]]:3
// COLL: MPI_Win_fence,barrier,MPI_Win 1,3,,2,2,{{.*}}rma-io.c:[[#@LINE-114]]:3
// COLL: MPI_Alltoallw,alltoallw,world,1,,2,2,{{.*}}rma-io.c:[[#@LINE-85]]:3
