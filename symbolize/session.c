/*
 * session.c - the libdwfl session over the calling process.
 *
 * One Dwfl describes the process's own address space, its modules
 * reported by modules.c (the objects mapped, with their executable
 * segments, kept up to date from mmap records and re-reads of
 * /proc/self/maps); ELF files are found from the mapped paths and debug
 * info by a local search (debuginfo.c: build id, .gnu_debuglink; never a
 * debuginfod server).  The same Dwfl serves unwinding (unwind.c) and
 * address lookup (resolve.c), so CFI and DWARF are read once per module.
 * Modules are interned into the caller's symtab with their path and build
 * id, once per loaded object. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "../common/owned-fd.h"
#include "internal.h"

/*
 * libdwfl keeps the descriptor of each ELF file it opens until the session
 * ends, at the lowest free number and without close-on-exec: numbers that
 * belong to the program (one that lowers RLIMIT_NOFILE counts on them).
 * The file is mapped whole instead, libelf told that it is done with the
 * descriptor, and the descriptor closed.  What libelf cannot map (a compressed file) keeps libdwfl's way,
 * at a high number.
 */
static int sym_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, char **file_name, Elf **elfp)
{
	int fd = dwfl_linux_proc_find_elf(mod, userdata, modname, base, file_name, elfp);
	Elf *elf;

	if (fd < 0 || *elfp)
		return fd;
	elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	/* FDREAD reads what is not mapped, then lets go of the descriptor */
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_cntl(elf, ELF_C_FDREAD)) {
		elf_end(elf);
		return ofd_move_high(fd);
	}
	close(fd);
	*elfp = elf;
	return -1;
}

/* Read-only; libdwfl keeps a pointer to it for the Dwfl's lifetime.  Debug
 * files are looked for locally only (debuginfo.c). */
static const Dwfl_Callbacks sym_dwfl_callbacks = {
	.find_elf = sym_find_elf,
	.find_debuginfo = sym_find_debuginfo,
};

/*
 * Open a session over the calling process.  Returns NULL with a message in
 * err when memory is short or libdw cannot read the process's mappings.
 */
struct sym_session *sym_open(struct symtab *st, char *err, size_t errlen)
{
	struct sym_session *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory opening the symbolizer");
		return NULL;
	}
	s->st = st;
	s->pid = getpid();
	s->dwfl = dwfl_begin(&sym_dwfl_callbacks);
	if (!s->dwfl) {
		snprintf(err, errlen, "libdw: cannot start a session: %s",
			 dwfl_errmsg(-1));
		free(s);
		return NULL;
	}
	if (sym_modules_open(s, err, errlen) != 0 || sym_attach(s, err, errlen) != 0) {
		sym_close(s);
		return NULL;
	}
	return s;
}

/* Close the session; frames already interned stay in the symtab.  Accepts
 * NULL. */
void sym_close(struct sym_session *s)
{
	if (!s)
		return;
	/* dwfl_end closes the debug files' descriptors: should the program
	 * have taken one's number, the session is left as it is rather than
	 * close a file of the program's (its memory is the only loss) */
	if (s->dwfl && !sym_debug_fds_taken())
		dwfl_end(s->dwfl);
	sym_debug_fds_forget();
	sym_pctab_release(&s->pcs);
	sym_cu_cache_release(&s->cus);
	sym_names_cache_release(&s->names);
	sym_die_frames_release(&s->die_frames);
	sym_decl_files_release(&s->decl_files);
	sym_rows_release(&s->rows);
	sym_modules_release(&s->mods);
	free(s->dwarf_names);
	free(s);
}

void sym_use_separate_debug(struct sym_session *s, bool on)
{
	s->separate_debug = on;
}

void sym_names_from_symbols(struct sym_session *s, uint64_t addr)
{
	s->symbols_only = addr;
}

/* Mark the module list stale; it is re-read on the next miss.  Can't fail. */
void sym_modules_changed(struct sym_session *s)
{
	s->mods.changed = true;
}

/* Lowercase hex of the module's build id into buf (size >= 2*n+1); "" when
 * it has none. */
static void sym_build_id_hex(Dwfl_Module *mod, char *buf, size_t size)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	Dwarf_Addr bias;

	buf[0] = '\0';
	dwfl_module_getelf(mod, &bias);	/* the id is known once the ELF is */
	int n = dwfl_module_build_id(mod, &bits, &vaddr);
	for (int i = 0; i < n && (size_t)(2 * i + 2) < size; i++)
		snprintf(buf + 2 * i, 3, "%02x", bits[i]);
}

/* libdwfl names the vdso "[vdso: PID]"; without the pid it is the same
 * module in every process, so profiles of many ranks merge it. */
static const char *sym_module_name(const char *name)
{
	if (!name)
		return "";
	return strncmp(name, "[vdso", 5) ? name : "[vdso]";
}

bool sym_own_section(Dwfl_Module *mod, const char *name)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *sn = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;

		/* ".zdebug_*": the GNU compression of a ".debug_*" section */
		if (sn && sh->sh_type != SHT_NOBITS &&
		    (!strcmp(sn, name) || (sn[0] == '.' && sn[1] == 'z' && !strcmp(sn + 2, name + 1))))
			return true;
	}
	return false;
}

uint32_t sym_module_index(struct sym_session *s, Dwfl_Module *mod)
{
	uint32_t slot = sym_load_of(mod);
	struct sym_load *l = slot < s->mods.n ? &s->mods.v[slot] : NULL;
	const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	char id[2 * 64 + 1];
	uint32_t idx;

	if (l && l->module != SYMTAB_NO_MODULE)
		return l->module;
	sym_build_id_hex(mod, id, sizeof id);
	idx = symtab_module(s->st, sym_module_name(name), id);
	if (l)
		l->module = idx;
	return idx;
}
