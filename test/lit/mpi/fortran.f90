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
  integer :: req(2), all(2)
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
  call MPI_Finalize(ierr)
end program ring

! OUT: rank 0 got 1 from 1 and 1 sum 1
! OUT: rank 0 sendrecv 1 max 1 all 0,1 ssend 1 from 1
! OUT: rank 1 got 0 from 0 and 0 sum 1
! OUT: rank 1 sendrecv 0 max -1 all 0,1 ssend 0 from 0

! SUM: messages: 8 matched; collectives: 5
! SUM: MPI time per function
! SUM-DAG: MPI_Send 2
! SUM-DAG: MPI_Ssend 2
! SUM-DAG: MPI_Recv 2
! SUM-DAG: MPI_Sendrecv 2
! SUM-DAG: MPI_Isend 2
! SUM-DAG: MPI_Irecv 4
! SUM-DAG: MPI_Wait 2
! SUM-DAG: MPI_Waitall 2
! SUM-DAG: MPI_Allreduce 2
! SUM-DAG: MPI_Barrier 2
! SUM-DAG: MPI_Bcast 2
! SUM-DAG: MPI_Reduce 2
! SUM-DAG: MPI_Allgather 2
! SUM-DAG: MPI_Init 2
! SUM-DAG: MPI_Finalize 2

! MSG: status,send_rank,send_node,send_at,recv_rank,recv_node,recv_at,comm,tag,bytes
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-47]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-46]]{{[^,]*}},world,7,4
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-45]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-44]]{{[^,]*}},world,8,4
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-40]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-40]]{{[^,]*}},world,9,4
! (gfortran's line table puts the MPI_Wait call on the program statement's line.)
! MSG-DAG: matched,0,{{[0-9]+}},~{{.*}}fortran.f90:[[#@LINE-37]]{{[^,]*}},1,{{[0-9]+}},~{{.*}}fortran.f90:{{[0-9]+}}:0,world,10,4

