/*
 * loader-deps.h - the MPI a program reaches only through the libraries it
 * links, as its dynamic loader resolves them.
 */
#ifndef CPPERF_LOADER_DEPS_H
#define CPPERF_LOADER_DEPS_H

#include "elf-needed.h"

/* The MPI among the libraries prog (with headers f) would load, libmpi
 * needed by one of its libraries included: cpperf-record's own loader's
 * listing of them (`ld.so --list`, what ldd prints).  MPI_LIB_NONE for a
 * program the loader does not start (static, a script, another
 * machine's), and when the loader cannot list them. */
enum mpi_lib loader_deps_mpi(const char *prog, const struct elf_facts *f);

/* The MPI named first in such a listing (NUL-terminated text), by each
 * line's library name or the file name of its path. */
enum mpi_lib loader_list_mpi(const char *text);

#endif
