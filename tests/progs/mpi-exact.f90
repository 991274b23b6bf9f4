! mpi-exact.f90 - mpi-exact.c in Fortran (use mpi), for mpi-stats.t: rank r
! sends r+1 messages of 1000 bytes to rank r+1 with MPI_SEND (the last rank
! sends none), then 7 MPI_ALLREDUCE (one of them MPI_IN_PLACE), 3
! MPI_BARRIER, the rooted collectives of mpi-exact.c (root k: rank k
! modulo the ranks; up to 4 ranks) and its all-to-alls with a datatype
! per peer (MPI_ALLTOALLW, MPI_IALLTOALLW and their neighbour forms);
! proves that Fortran calls are intercepted.
program mpi_exact
  use mpi
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  character(len=1000) :: buf
  integer :: rank, nranks, ierr, i, val, total
  integer :: five(5), eight(8), gathered(4 * 8)
  double precision :: three(4 * 3), mine(3), two(2), reduced(2)
  integer :: status(MPI_STATUS_SIZE)
  double precision :: wsend(4), wrecv(4)
  integer :: wcounts(4), wdispls(4)
  integer :: stypes(4), rtypes(4)
  integer :: req
  integer :: others
  integer(kind=MPI_ADDRESS_KIND) :: ndispls(4)
  integer :: nbrs(4), n

  buf = ' '
  five = 0
  eight = 0
  three = 0
  two = 0
  wsend = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  if (nranks > 4) then
    if (rank == 0) write (error_unit, '(a,i0,a)') 'mpi-exact: ', nranks, ' ranks, at most 4'
    call MPI_ABORT(MPI_COMM_WORLD, 2, ierr)
  end if
  if (rank + 1 < nranks) then
    do i = 1, rank + 1
      call MPI_SEND(buf, 1000, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD, ierr)
    end do
  end if
  do i = 1, rank
    call MPI_RECV(buf, 1000, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, status, ierr)
  end do
  val = rank
  do i = 1, 6
    call MPI_ALLREDUCE(val, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  call MPI_ALLREDUCE(MPI_IN_PLACE, val, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, 3
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  end do
  call MPI_BCAST(five, 5, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_GATHER(eight, 8, MPI_INTEGER, gathered, 8, MPI_INTEGER, mod(1, nranks), &
                  MPI_COMM_WORLD, ierr)
  call MPI_SCATTER(three, 3, MPI_DOUBLE_PRECISION, mine, 3, MPI_DOUBLE_PRECISION, &
                   mod(2, nranks), MPI_COMM_WORLD, ierr)
  call MPI_REDUCE(two, reduced, 2, MPI_DOUBLE_PRECISION, MPI_SUM, mod(3, nranks), &
                  MPI_COMM_WORLD, ierr)
  do i = 1, nranks
    wcounts(i) = 1
    wdispls(i) = 8 * (i - 1)
    stypes(i) = MPI_INTEGER
    if (mod(i - 1, 2) == 1) stypes(i) = MPI_DOUBLE_PRECISION
    rtypes(i) = MPI_INTEGER
    if (mod(rank, 2) == 1) rtypes(i) = MPI_DOUBLE_PRECISION
  end do
  call MPI_ALLTOALLW(wsend, wcounts, wdispls, stypes, wrecv, wcounts, wdispls, rtypes, &
                     MPI_COMM_WORLD, ierr)
  call MPI_IALLTOALLW(wsend, wcounts, wdispls, stypes, wrecv, wcounts, wdispls, rtypes, &
                      MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  n = 0
  do i = 1, nranks
    if (i - 1 /= rank) then
      n = n + 1
      nbrs(n) = i - 1
      ndispls(n) = 8 * (n - 1)
      stypes(n) = MPI_INTEGER
      if (mod(i - 1, 2) == 1) stypes(n) = MPI_DOUBLE_PRECISION
    end if
  end do
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, n, nbrs, MPI_UNWEIGHTED, n, nbrs, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., others, ierr)
  call MPI_NEIGHBOR_ALLTOALLW(wsend, wcounts, ndispls, stypes, wrecv, wcounts, ndispls, rtypes, &
                              others, ierr)
  call MPI_INEIGHBOR_ALLTOALLW(wsend, wcounts, ndispls, stypes, wrecv, wcounts, ndispls, rtypes, &
                               others, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call MPI_COMM_FREE(others, ierr)
  if (rank == 0) print '(a,i0)', 'sum ', total
  call MPI_FINALIZE(ierr)
end program mpi_exact
