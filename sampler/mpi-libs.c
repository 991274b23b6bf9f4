/*
 * mpi-libs.c - the MPIs cpperf has a runtime for (mpi-libs.h).  Open
 * MPI's C library, and its Fortran ones for mpif.h and `use mpi` and for
 * `use mpi_f08` (which needs only its own); MPICH's under its two names
 * and its Fortran one.
 */
#include <stdbool.h>
#include <string.h>

#include "mpi-libs.h"

const struct mpi_lib_desc mpi_libs[MPI_LIB_COUNT] = {
	[MPI_LIB_NONE] = { "none", "no MPI", "libcpperf.so", { NULL } },
	[MPI_LIB_OPENMPI] = { "openmpi", "Open MPI", "libcpperf-openmpi.so",
			      { "libmpi.so.40", "libmpi_mpifh.so.40", "libmpi_usempif08.so.40", NULL } },
	[MPI_LIB_MPICH] = { "mpich", "MPICH", "libcpperf-mpich.so",
			    { "libmpich.so.12", "libmpi.so.12", "libmpichfort.so.12", NULL } },
};

/* lib is soname s, or its file with the rest of the version after it */
static bool names(const char *lib, const char *s)
{
	size_t n = strlen(s);

	return !strncmp(lib, s, n) && (lib[n] == 0 || lib[n] == '.');
}

enum mpi_lib mpi_lib_of(const char *lib)
{
	for (int m = 0; m < MPI_LIB_COUNT; m++)
		for (const char *const *s = mpi_libs[m].sonames; *s; s++)
			if (names(lib, *s))
				return (enum mpi_lib)m;
	return MPI_LIB_NONE;
}
