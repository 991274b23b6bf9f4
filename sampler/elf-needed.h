/*
 * elf-needed.h - which MPI a program links, from its ELF dynamic section.
 */
#ifndef CPPERF_ELF_NEEDED_H
#define CPPERF_ELF_NEEDED_H

enum elf_mpi { ELF_MPI_NONE, ELF_MPI_OPENMPI, ELF_MPI_MPICH };

/* The MPI among path's DT_NEEDED entries: libmpi.so.40 (and Open MPI's
 * Fortran libmpi_mpifh.so.40 and libmpi_usempif08.so.40) is Open MPI;
 * libmpich.so.12, libmpi.so.12 and libmpichfort.so.12 are MPICH.
 * ELF_MPI_NONE for anything else, including scripts, static programs and
 * unreadable files.  Never fails. */
enum elf_mpi elf_needed_mpi(const char *path);

#endif
