! mpi-semantics-f08.f90 - what a `use mpi_f08` program observes, for
! mpi-semantics.t: each rank prints a transcript that must be the same with
! and without cpperf-record.  A ring of Isend/Irecv completed by Waitall
! with MPI_STATUSES_IGNORE and with statuses, Recv with MPI_STATUS_IGNORE,
! Probe then Get_count then Recv, Waitany, Testany, Waitsome and Testsome,
! Sendrecv, Bsend through an
! attached buffer and its detach (TYPE(C_PTR)), and an
! in-place Allreduce; ierror is left out of some calls.  Lines carry the
! rank and their number, so that the sorted output is one transcript.
program mpi_semantics_f08
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_loc, c_null_ptr, c_intptr_t
  implicit none
  integer, parameter :: n = 4
  integer :: rank, nranks, right, left, ierr, i, k, cnt, idx, total, outc, done, idxs(2)
  integer :: sbuf(n), sbuf2(n), rbuf(n, 2), got(8)
  integer, target :: bbuf(1000)
  type(MPI_Request) :: reqs(4)
  type(MPI_Status) :: st, sts(4)
  type(c_ptr) :: addr, attached
  integer :: bsize
  logical :: same, flag
  character(len=100) :: line
  integer :: seq = 0

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  sbuf = [(rank * 10 + i, i = 1, n)]
  sbuf2 = sbuf + 100
  write (line, '(a,i0)') '--- rank ', rank
  call say(line)

  ! a ring, twice: statuses ignored, then read
  do k = 1, 2
    call MPI_Irecv(rbuf(:, 1), n, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend(sbuf, n, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2), ierr)
    if (k == 1) then
      call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    else
      call MPI_Waitall(2, reqs, sts, ierr)
      call MPI_Get_count(sts(1), MPI_INTEGER, cnt)
      write (line, '(a,3(1x,i0))') 'waitall status', sts(1)%MPI_SOURCE, sts(1)%MPI_TAG, cnt
      call say(line)
    end if
    write (line, '(a,i0,a,4(1x,i0))') 'ring ', k, ':', rbuf(:, 1)
    call say(line)
  end do

  ! Recv with MPI_STATUS_IGNORE, then Probe, Get_count and Recv of that count
  call MPI_Send(sbuf, 3, MPI_INTEGER, right, 8, MPI_COMM_WORLD)
  call MPI_Recv(rbuf(:, 1), n, MPI_INTEGER, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  write (line, '(a,3(1x,i0))') 'recv ignore', rbuf(1:3, 1)
  call say(line)
  call MPI_Send(sbuf, 2, MPI_INTEGER, right, 9, MPI_COMM_WORLD)
  call MPI_Probe(left, 9, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  got = -1
  call MPI_Recv(got, cnt, MPI_INTEGER, st%MPI_SOURCE, st%MPI_TAG, MPI_COMM_WORLD, st, ierr)
  write (line, '(a,i0,a,3(1x,i0))') 'probe count ', cnt, ':', got(1:3)
  call say(line)

  ! Waitany, Testany, Waitsome and Testsome over two receives of tags
  ! T and T + 1: each completion's tag less its index, the same whatever
  ! the order (MPICH before 4.1 numbers the requests from 0 there)
  do k = 1, 4
    call MPI_Irecv(rbuf(:, 1), n, MPI_INTEGER, left, 10 + 2 * k, MPI_COMM_WORLD, reqs(1))
    call MPI_Irecv(rbuf(:, 2), n, MPI_INTEGER, left, 11 + 2 * k, MPI_COMM_WORLD, reqs(2))
    call MPI_Send(sbuf, n, MPI_INTEGER, right, 11 + 2 * k, MPI_COMM_WORLD)
    call MPI_Send(sbuf2, n, MPI_INTEGER, right, 10 + 2 * k, MPI_COMM_WORLD)
    done = 0
    do while (done < 2)
      select case (k)
      case (1, 2)
        flag = .true.
        if (k == 1) call MPI_Waitany(2, reqs, idx, st)
        if (k == 2) call MPI_Testany(2, reqs, idx, flag, st)
        if (flag) then
          done = done + 1
          got(done) = st%MPI_TAG - idx
        end if
      case default
        if (k == 3) call MPI_Waitsome(2, reqs, outc, idxs, sts)
        if (k == 4) call MPI_Testsome(2, reqs, outc, idxs, sts)
        do i = 1, outc
          got(done + i) = sts(i)%MPI_TAG - idxs(i)
        end do
        done = done + outc
      end select
    end do
    write (line, '(a,i0,a,4(1x,i0))') 'any/some ', k, ': tag-index', got(1:2), rbuf(1, :)
    call say(line)
  end do

  ! Sendrecv
  call MPI_Sendrecv(sbuf, n, MPI_INTEGER, right, 12, rbuf(:, 1), n, MPI_INTEGER, left, 12, &
                    MPI_COMM_WORLD, st)
  write (line, '(a,2(1x,i0))') 'sendrecv', st%MPI_SOURCE, rbuf(n, 1)
  call say(line)

  ! Bsend through an attached buffer; detach gives its address back
  call MPI_Buffer_attach(bbuf, 4000)
  call MPI_Bsend(sbuf, n, MPI_INTEGER, right, 13, MPI_COMM_WORLD)
  call MPI_Recv(rbuf(:, 1), n, MPI_INTEGER, left, 13, MPI_COMM_WORLD, st)
  addr = c_null_ptr
  call MPI_Buffer_detach(addr, bsize, ierr)
  attached = c_loc(bbuf)
  same = transfer(addr, 0_c_intptr_t) == transfer(attached, 0_c_intptr_t)
  write (line, '(a,l2,1x,i0,1x,i0)') 'bsend detach', same, bsize, rbuf(2, 1)
  call say(line)

  ! in-place Allreduce
  total = rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  write (line, '(a,i0)') 'allreduce ', total
  call say(line)
  call MPI_Finalize()
contains
  subroutine say(text)
    character(len=*), intent(in) :: text
    seq = seq + 1
    print '(a,i0,a,i2.2,1x,a)', 'r', rank, ' ', seq, trim(text)
  end subroutine say
end program mpi_semantics_f08
