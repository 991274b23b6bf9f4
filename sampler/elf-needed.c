/*
 * elf-needed.c - read a 64-bit little-endian ELF file's DT_NEEDED names
 * (the program headers, the dynamic segment and its string table) without
 * libelf: cpperf-record only needs the names, before the program runs;
 * the same string table tells whether the program calls `use mpi_f08`.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf-needed.h"

/* File offset of virtual address va, from the PT_LOAD headers; 0 if none. */
static uint64_t va_to_off(const Elf64_Phdr *ph, int n, uint64_t va)
{
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr && va < ph[i].p_vaddr + ph[i].p_filesz)
			return va - ph[i].p_vaddr + ph[i].p_offset;
	return 0;
}

static enum elf_mpi classify(const char *lib)
{
	/* C, mpif.h and `use mpi`, `use mpi_f08` (which needs only its own) */
	if (!strcmp(lib, "libmpi.so.40") || !strcmp(lib, "libmpi_mpifh.so.40") ||
	    !strcmp(lib, "libmpi_usempif08.so.40"))
		return ELF_MPI_OPENMPI;
	if (!strcmp(lib, "libmpich.so.12") || !strcmp(lib, "libmpi.so.12") ||
	    !strcmp(lib, "libmpichfort.so.12"))
		return ELF_MPI_MPICH;
	return ELF_MPI_NONE;
}

/* The whole file in memory (programs are small next to memory), or NULL. */
static unsigned char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	unsigned char *buf = NULL;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && sb.st_size >= (off_t)sizeof(Elf64_Ehdr) && (buf = malloc((size_t)sb.st_size)))
		while (got < (size_t)sb.st_size) {
			ssize_t n = read(fd, buf + got, (size_t)sb.st_size - got);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
	close(fd);
	*len = got;
	return buf;
}

enum elf_mpi elf_needed_mpi(const char *path)
{
	size_t len = 0;
	unsigned char *f = slurp(path, &len);
	const Elf64_Ehdr *eh = (const void *)f;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	uint64_t ndyn = 0, strtab = 0, strsz = 0;
	enum elf_mpi mpi = ELF_MPI_NONE;

	if (!f || len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
	    (len - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
		goto out;
	ph = (const void *)(f + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC && ph[i].p_offset < len && ph[i].p_filesz <= len - ph[i].p_offset) {
			dyn = (const void *)(f + ph[i].p_offset);
			ndyn = ph[i].p_filesz / sizeof(Elf64_Dyn);
		}
	for (uint64_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = va_to_off(ph, eh->e_phnum, dyn[i].d_un.d_ptr);
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
	}
	if (!strtab || strtab >= len || strsz > len - strtab)
		goto out;
	for (uint64_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL && mpi == ELF_MPI_NONE; i++) {
		const char *name = (const char *)f + strtab + dyn[i].d_un.d_val;

		if (dyn[i].d_tag == DT_NEEDED && dyn[i].d_un.d_val < strsz &&
		    memchr(name, 0, strsz - dyn[i].d_un.d_val))
			mpi = classify(name);
	}
out:
	free(f);
	return mpi;
}
