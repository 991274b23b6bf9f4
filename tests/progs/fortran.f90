! fortran.f90 - a module procedure and an external subroutine, to check that
! Fortran names are readable in the report.  Usage: fortran
module heat
contains
  subroutine relax(u, n, sweeps)
    integer, intent(in) :: n, sweeps
    double precision, intent(inout) :: u(n)
    integer :: i, s
    do s = 1, sweeps
      do i = 2, n - 1
        u(i) = 0.5d0 * u(i) + 0.25d0 * (u(i - 1) + u(i + 1))
      end do
    end do
  end subroutine relax
end module heat

program main
  use heat
  double precision :: u(100000)
  u = 0
  u(50000) = 1
  call relax(u, 100000, 8000)
  print *, u(50001) > 0
end program main
