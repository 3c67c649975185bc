! A Fortran MPI program (`use mpi`, gfortran through Open MPI's mpifort):
! its calls reach Open MPI's Fortran entry points, which call PMPI_*
! directly, so only libotter-mpi's Fortran wrappers see them. Each call is
! recorded as the C call would be: its messages matched across the ranks
! (blocking and non-blocking, received where MPI_Waitall completes them,
! statuses ignored), its collectives joined, its call site the Fortran line. The
! program's output is unchanged, the statuses it reads included.
! (Without the plugin, a call site is symbolized from the debug information
! with OTTER_SYMBOLIZE=1, and marked approximate: ~file:line.)
! REQUIRES: mpi, fortran
! RUN: %mpifort %s -o %t.prog
! RUN: rm -rf %t && %mpirun -np 2 env OTTER_SYMBOLIZE=1 otter-run -o %t -f all %t.prog | sort | FileCheck --check-prefix=OUT %s
! RUN: otter summary %t | FileCheck --check-prefix=SUM %s
! RUN: sh %S/Inputs/job-graph.sh %t 2
! RUN: FileCheck --check-prefix=MSG %s < %t/job/messages.csv
program ring
  use mpi
  implicit none
  integer :: rank, nranks, ierr, next, prev, x, y, z, s, w, r, v, vfrom
  integer :: req(2), all(2), sub, srank, u, sc, a2a(2), two(2)
  integer :: ones(2), disp(2), gv(2), av(2), node, grid, row, wgroup, whole
  logical :: flag
  integer :: status(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  x = rank
  call MPI_Send(x, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
  call MPI_Recv(y, 1, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, status, ierr)
  call MPI_Irecv(z, 1, MPI_INTEGER, prev, 8, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(x, 1, MPI_INTEGER, next, 8, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  call MPI_Allreduce(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' got ', y, ' from ', &
      status(MPI_SOURCE), ' and ', z, ' sum ', s
  call MPI_Sendrecv(x, 1, MPI_INTEGER, next, 9, w, 1, MPI_INTEGER, prev, 9, MPI_COMM_WORLD, status, ierr)
  call MPI_Bcast(s, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(x, r, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allgather(x, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Irecv(v, 1, MPI_INTEGER, prev, 10, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Ssend(x, 1, MPI_INTEGER, next, 10, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req(1), status, ierr)
  vfrom = status(MPI_SOURCE)
  if (rank /= 0) r = -1
  print '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' sendrecv ', &
      w, ' max ', r, ' all ', all(1), ',', all(2), ' ssend ', v, ' from ', vfrom
  ! A communicator of its own (ranks reversed), polled with MPI_Test.
  call MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, sub, ierr)
  call MPI_Comm_rank(sub, srank, ierr)
  call MPI_Irecv(u, 1, MPI_INTEGER, MPI_ANY_SOURCE, 11, sub, req(1), ierr)
  call MPI_Isend(x, 1, MPI_INTEGER, mod(srank + 1, nranks), 11, sub, req(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(req(1), flag, status, ierr)
  end do
  call MPI_Wait(req(2), MPI_STATUS_IGNORE, ierr)
  call MPI_Gather(x, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, sub, ierr)
  call MPI_Scatter(all, 1, MPI_INTEGER, sc, 1, MPI_INTEGER, 0, sub, ierr)
  two = x
  call MPI_Alltoall(two, 1, MPI_INTEGER, a2a, 1, MPI_INTEGER, sub, ierr)
  call MPI_Comm_free(sub, ierr)
  ! Counts per rank (the Fortran arrays passed on as they are).
  ones = 1
  disp = (/ 0, 1 /)
  call MPI_Allgatherv(x, 1, MPI_INTEGER, gv, ones, disp, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Alltoallv(two, ones, disp, MPI_INTEGER, av, ones, disp, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' allgatherv ', gv(1), ',', gv(2), &
      ' alltoallv ', av(1), ',', av(2)
  print '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' split ', u, &
      ' from ', status(MPI_SOURCE), ' scatter ', sc, ' alltoall ', a2a(1), ',', a2a(2)
  ! More entry points: Issend, Scan, Exscan, a split by type, a Cartesian
  ! sub-grid and a communicator from a group, each used by a barrier.
  call MPI_Irecv(v, 1, MPI_INTEGER, prev, 12, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Issend(x, 1, MPI_INTEGER, next, 12, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  call MPI_Scan(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Exscan(x, r, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node, ierr)
  call MPI_Barrier(node, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, (/ nranks, 1 /), (/ .false., .false. /), .false., grid, ierr)
  call MPI_Cart_sub(grid, (/ .true., .false. /), row, ierr)
  call MPI_Barrier(row, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  call MPI_Comm_create(MPI_COMM_WORLD, wgroup, whole, ierr)
  call MPI_Barrier(whole, ierr)
  print '(a,i0,a,i0,a,i0)', 'rank ', rank, ' issend ', v, ' scan ', s
  call MPI_Finalize(ierr)
end program ring

! OUT: rank 0 allgatherv 0,1 alltoallv 0,1
! OUT: rank 0 got 1 from 1 and 1 sum 1
! OUT: rank 0 issend 1 scan 0
! OUT: rank 0 sendrecv 1 max 1 all 0,1 ssend 1 from 1
! OUT: rank 0 split 1 from 0 scatter 0 alltoall 1,0
! OUT: rank 1 allgatherv 0,1 alltoallv 0,1
! OUT: rank 1 got 0 from 0 and 0 sum 1
! OUT: rank 1 issend 0 scan 1
! OUT: rank 1 sendrecv 0 max -1 all 0,1 ssend 0 from 0
! OUT: rank 1 split 0 from 1 scatter 1 alltoall 1,0

! SUM: messages: 12 matched; collectives: 15
! SUM: MPI time per function
! SUM-DAG: MPI_Send 2
! SUM-DAG: MPI_Ssend 2
! SUM-DAG: MPI_Recv 2
! SUM-DAG: MPI_Sendrecv 2
! SUM-DAG: MPI_Isend 4
! SUM-DAG: MPI_Irecv 8
! SUM-DAG: MPI_Issend 2
! SUM-DAG: MPI_Wait 4
! SUM-DAG: MPI_Waitall 4
! SUM-DAG: MPI_Allreduce 2
! SUM-DAG: MPI_Barrier 8
! SUM-DAG: MPI_Scan 2
! SUM-DAG: MPI_Exscan 2
! SUM-DAG: MPI_Comm_split_type 2
! SUM-DAG: MPI_Cart_create 2
! SUM-DAG: MPI_Cart_sub 2
! SUM-DAG: MPI_Comm_create 2
! SUM-DAG: MPI_Bcast 2
! SUM-DAG: MPI_Reduce 2
! SUM-DAG: MPI_Allgather 2
! SUM-DAG: MPI_Comm_split 2
! SUM-DAG: MPI_Gather 2
! SUM-DAG: MPI_Scatter 2
! SUM-DAG: MPI_Alltoall 2
! SUM-DAG: MPI_Comm_free 2
! SUM-DAG: MPI_Allgatherv 2
! SUM-DAG: MPI_Alltoallv 2
! SUM-DAG: MPI_Init 2
! SUM-DAG: MPI_Finalize 2

! MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-107]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-106]]{{[^,]*}},world,7,4
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-105]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-104]]{{[^,]*}},world,8,4
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-100]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-100]]{{[^,]*}},world,9,4
! (gfortran's line table puts the MPI_Wait call on the program statement's line.)
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-97]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:{{[0-9]+}}:0,world,10,4
! On the split communicator (world/1: the first made from world, as
! large as it; gfortran puts the MPI_Test in the DO WHILE on the loop's
! line).
! MSG-DAG: matched,1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-91]]{{[^,]*}},0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-89]]{{[^,]*}},world/1,11,4

! The synchronous send from a non-blocking post (MPI_Issend), completed in a Waitall.
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:{{[0-9]+}}{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:{{[0-9]+}}{{[^,]*}},world,12,4
