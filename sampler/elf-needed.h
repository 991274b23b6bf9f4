/*
 * elf-needed.h - what cpperf-record reads of a program's ELF headers
 * before it runs: which MPI it links (its DT_NEEDED entries), and whether
 * the dynamic loader starts it at all.
 */
#ifndef CPPERF_ELF_NEEDED_H
#define CPPERF_ELF_NEEDED_H

#include <stdbool.h>

#include "mpi-libs.h"

/* What the headers say.  Fields past elf are false (MPI_LIB_NONE) when
 * the file is no ELF file, and past native when it is one of another
 * class, byte order or machine than cpperf-record's own. */
struct elf_facts {
	bool elf;		/* starts with the ELF magic */
	bool is32;		/* ELFCLASS32 */
	unsigned machine;	/* e_machine */
	bool native;		/* the class, byte order and machine of this executable */
	bool interp;		/* has PT_INTERP: the dynamic loader starts it */
	bool exec_type;		/* ET_EXEC, not ET_DYN */
	bool soname;		/* DT_SONAME: a shared object run as a program (the loader itself) */
	enum mpi_lib mpi;	/* the MPI among its DT_NEEDED, as mpi_lib_of names it */
};

/* Read path's headers into *f.  Returns 0, or -1 when path cannot be read
 * (*f then says nothing: all false). */
int elf_inspect(const char *path, struct elf_facts *f);

/* Whether a program with facts f is statically linked (static-pie
 * included): the kernel starts it without the dynamic loader, which is
 * what reads LD_PRELOAD.  A shared object without PT_INTERP but with a
 * DT_SONAME, such as the loader run as a program, is not. */
bool elf_is_static(const struct elf_facts *f);

/* cpperf-record's own dynamic loader (its PT_INTERP), "" when unknown. */
const char *elf_own_loader(void);

#endif
