! spawn-peers.f90 - the Fortran binding's MPI_COMM_SPAWN (`use mpi`): a
! process starts two children of this program with two arguments, whose
! CHARACTER lengths travel after the others; each child prints them and
! sends its rank to parent 0, which receives with wildcards.  Each
! process prints what it got, so a run under any tool must print what a
! plain run prints (sorted).
! Usage: spawn-peers-f CMD   (1 rank; CMD is this program)
program spawn_peers_f
  use mpi
  implicit none
  integer :: ierr, parent, inter, rank, x, i, n
  integer :: st(MPI_STATUS_SIZE), codes(2)
  character(len=256) :: cmd, arg
  character(len=16) :: args(3)

  call MPI_Init(ierr)
  call MPI_Comm_get_parent(parent, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (parent == MPI_COMM_NULL) then
    call get_command_argument(1, cmd)
    args(1) = 'one two'
    args(2) = 'three'
    args(3) = ' '
    call MPI_Comm_spawn(trim(cmd), args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
    do i = 1, 2
      call MPI_Recv(x, 1, MPI_INTEGER, MPI_ANY_SOURCE, 5, inter, st, ierr)
      print '(a,i0,a,i0)', 'parent: got ', x, ' from child ', st(MPI_SOURCE)
    end do
    call MPI_Comm_disconnect(inter, ierr)
  else
    n = command_argument_count()
    do i = 1, n
      call get_command_argument(i, arg)
      print '(a,i0,a,i0,a,a,a)', 'child ', rank, ': argument ', i, ' "', trim(arg), '"'
    end do
    x = 100 + rank
    call MPI_Send(x, 1, MPI_INTEGER, 0, 5, parent, ierr)
    call MPI_Comm_disconnect(parent, ierr)
  end if
  call MPI_Finalize(ierr)
end program
