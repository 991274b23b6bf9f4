/*
 * elf-needed.c - read a program's ELF headers without libelf: the class
 * and machine, PT_INTERP (whether the dynamic loader starts it; which
 * loader starts cpperf-record itself), and of a
 * 64-bit little-endian file the dynamic segment's DT_NEEDED and DT_SONAME
 * names (the program headers, the dynamic segment and its string table).
 * cpperf-record only needs these, before the program runs; the same
 * string table tells whether the program calls `use mpi_f08`.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* The whole file mapped (only the pages of the headers read are loaded),
 * or NULL for a file shorter than an ELF header or unreadable; release
 * with munmap(f, *len). */
static unsigned char *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	void *f = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= (off_t)sizeof(Elf64_Ehdr)) {
		*len = (size_t)sb.st_size;
		f = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	close(fd);
	return f == MAP_FAILED ? NULL : f;
}

/* Whether a file with e_ident id and machine is of this executable's
 * class, byte order and machine. */
static bool same_as_self(const unsigned char *id, unsigned machine)
{
	Elf64_Ehdr self;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	bool same = fd >= 0 && read(fd, &self, sizeof(self)) == (ssize_t)sizeof(self) &&
		    self.e_ident[EI_CLASS] == id[EI_CLASS] && self.e_ident[EI_DATA] == id[EI_DATA] &&
		    self.e_machine == machine;

	if (fd >= 0)
		close(fd);
	return same;
}

/* The dynamic section's DT_NEEDED and DT_SONAME of the 64-bit file f of
 * len bytes, whose program headers ph are checked, into facts. */
static void read_dynamic(const unsigned char *f, size_t len, const Elf64_Phdr *ph, int nph,
			 struct elf_facts *facts)
{
	const Elf64_Dyn *dyn = NULL;
	uint64_t ndyn = 0, strtab = 0, strsz = 0;

	for (int i = 0; i < nph; i++)
		if (ph[i].p_type == PT_DYNAMIC && ph[i].p_offset < len && ph[i].p_filesz <= len - ph[i].p_offset) {
			dyn = (const void *)(f + ph[i].p_offset);
			ndyn = ph[i].p_filesz / sizeof(Elf64_Dyn);
		}
	for (uint64_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = va_to_off(ph, nph, dyn[i].d_un.d_ptr);
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
		else if (dyn[i].d_tag == DT_SONAME)
			facts->soname = true;
	}
	if (!strtab || strtab >= len || strsz > len - strtab)
		return;
	for (uint64_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL && facts->mpi == MPI_LIB_NONE; i++) {
		const char *name = (const char *)f + strtab + dyn[i].d_un.d_val;

		if (dyn[i].d_tag == DT_NEEDED && dyn[i].d_un.d_val < strsz &&
		    memchr(name, 0, strsz - dyn[i].d_un.d_val))
			facts->mpi = mpi_lib_of(name);
	}
}

/* The 64-bit little-endian program headers of the file f of len bytes,
 * *n of them, checked to lie within it; NULL for any other file. */
static const Elf64_Phdr *program_headers(const unsigned char *f, size_t len, int *n)
{
	const Elf64_Ehdr *eh = (const void *)f;

	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
	    (len - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
		return NULL;
	*n = eh->e_phnum;
	return (const void *)(f + eh->e_phoff);
}

/* PT_INTERP's path of the file f of len bytes, whose program headers ph
 * are checked, or NULL when it has none within the file. */
static const char *interp_of(const unsigned char *f, size_t len, const Elf64_Phdr *ph, int nph)
{
	for (int i = 0; i < nph; i++)
		if (ph[i].p_type == PT_INTERP && ph[i].p_offset < len &&
		    ph[i].p_filesz <= len - ph[i].p_offset &&
		    memchr(f + ph[i].p_offset, 0, ph[i].p_filesz))
			return (const char *)f + ph[i].p_offset;
	return NULL;
}

const char *elf_own_loader(void)
{
	static char loader[PATH_MAX];
	static bool read;
	size_t len = 0;
	unsigned char *f;
	const Elf64_Phdr *ph;
	const char *interp;
	int nph;

	if (read)
		return loader;
	read = true;
	f = map_file("/proc/self/exe", &len);
	if (!f)
		return loader;
	if ((ph = program_headers(f, len, &nph)) && (interp = interp_of(f, len, ph, nph)))
		snprintf(loader, sizeof(loader), "%s", interp);
	munmap(f, len);
	return loader;
}

int elf_inspect(const char *path, struct elf_facts *facts)
{
	size_t len = 0;
	unsigned char *f = map_file(path, &len);
	const Elf64_Ehdr *eh = (const void *)f;
	const Elf64_Phdr *ph;
	int nph;

	memset(facts, 0, sizeof(*facts));
	if (!f)
		return -1;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		goto out;
	facts->elf = true;
	facts->is32 = eh->e_ident[EI_CLASS] == ELFCLASS32;
	facts->machine = eh->e_machine;	/* at the same offset in both classes */
	facts->native = same_as_self(eh->e_ident, eh->e_machine);
	if (!facts->native || !(ph = program_headers(f, len, &nph)))
		goto out;
	facts->exec_type = eh->e_type == ET_EXEC;
	for (int i = 0; i < nph; i++)
		facts->interp |= ph[i].p_type == PT_INTERP;
	read_dynamic(f, len, ph, nph, facts);
out:
	munmap(f, len);
	return 0;
}

bool elf_is_static(const struct elf_facts *f)
{
	return f->native && !f->interp && (f->exec_type || !f->soname);
}
