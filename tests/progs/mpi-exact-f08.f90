! mpi-exact-f08.f90 - mpi-exact.f90 with `use mpi_f08`, for mpi-stats.t:
! rank r sends r+1 messages of 1000 bytes to rank r+1 with MPI_Send (the
! last rank sends none), then 7 MPI_Allreduce (one of them MPI_IN_PLACE)
! and 3 MPI_Barrier; ierror is left out of some calls (it is optional in
! mpi_f08).  Proves that mpi_f08 calls are intercepted.
program mpi_exact_f08
  use mpi_f08
  implicit none
  character(len=1000) :: buf
  integer :: rank, nranks, ierr, i, val, total
  type(MPI_Status) :: status

  buf = ' '
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  if (rank + 1 < nranks) then
    do i = 1, rank + 1
      call MPI_Send(buf, 1000, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD, ierr)
    end do
  end if
  do i = 1, rank
    call MPI_Recv(buf, 1000, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, status)
  end do
  val = rank
  do i = 1, 6
    call MPI_Allreduce(val, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, val, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  do i = 1, 3
    call MPI_Barrier(MPI_COMM_WORLD)
  end do
  if (rank == 0) print '(a,i0)', 'sum ', total
  call MPI_Finalize(ierr)
end program mpi_exact_f08
