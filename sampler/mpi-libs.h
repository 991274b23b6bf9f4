/*
 * mpi-libs.h - the MPIs cpperf has a runtime for: how their libraries are
 * named, what CPPERF_MPI calls them and which runtime wraps them.
 * cpperf-record reads it to choose the runtime, the plain runtime to tell
 * a program that loaded one of them while it ran.
 */
#ifndef CPPERF_MPI_LIBS_H
#define CPPERF_MPI_LIBS_H

enum mpi_lib { MPI_LIB_NONE, MPI_LIB_OPENMPI, MPI_LIB_MPICH, MPI_LIB_COUNT };

struct mpi_lib_desc {
	const char *name;	/* CPPERF_MPI's */
	const char *title;	/* in messages */
	const char *runtime;	/* the runtime library with its wrappers */
	const char *sonames[4];	/* its libraries', NULL-terminated */
};

/* By enum mpi_lib; MPI_LIB_NONE's runtime is the plain one. */
extern const struct mpi_lib_desc mpi_libs[MPI_LIB_COUNT];

/* The MPI whose library has the soname lib, or whose file lib is (the
 * soname with the rest of its version: libmpi.so.40.30.4); MPI_LIB_NONE
 * for any other. */
enum mpi_lib mpi_lib_of(const char *lib);

#endif
