/*
 * resolve.c - lookup address -> interned frames, with inline expansion.
 *
 * An address is resolved once: its module (sym_module_at), then the
 * function that holds it and the chain of inlined calls at it, from its
 * unit's table of functions (cu-index.c).  Each function is a frame named by its linkage name when it has
 * one (C++ and Fortran names stay mangled; the report demangles them all
 * the same way), with the file and line where it is declared.  Without
 * DWARF the ELF symbol names the frame (file "", line 0); so does a module
 * whose DWARF is in a separate debug file, unless the session was asked
 * to read those (sym_use_separate_debug).  An address in no
 * module is named "[0x<address>]" with no module; an address in a module
 * but in no symbol "[0x<offset in module>]" with that module, the offset
 * of the function that holds it when the unwind tables know it
 * (fde-start.c), so that equal code gives equal frames across processes
 * despite ASLR and a function is one frame.
 *
 * Results are cached in the session's per-address table (pctab.c); memory
 * grows with the number of distinct addresses sampled, not with samples.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include "internal.h"

/* Deepest inline chain kept for one address. */
#define SYM_MAX_INLINE 64

/* A string attribute of die, following abstract_origin/specification. */
static const char *sym_die_str(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;
	return dwarf_formstring(dwarf_attr_integrate(die, name, &a));
}

/* The name a frame gets for a function DIE: linkage name first. */
static const char *sym_die_name(Dwarf_Die *die)
{
	const char *n = sym_die_str(die, DW_AT_linkage_name);
	if (!n)
		n = sym_die_str(die, DW_AT_MIPS_linkage_name);
	if (!n)
		n = sym_die_str(die, DW_AT_name);
	return n;
}

static bool sym_is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* "[0x...]" for an address nothing names. */
static void sym_hex_name(char *buf, size_t size, uint64_t addr)
{
	snprintf(buf, size, "[0x%" PRIx64 "]", addr);
}

/* The ELF symbol name at addr in mod, or "[0x<offset>]" in buf: the
 * offset of the function that holds addr, else of addr. */
static const char *sym_elf_name(struct sym_session *s, Dwfl_Module *mod, uint64_t addr,
				char *buf, size_t size)
{
	Dwarf_Addr start;
	const char *name = sym_elf_symbol(&s->names, sym_load_of(mod), mod, addr);

	if (name && *name)
		return name;
	dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	sym_fde_start(mod, addr, &addr);	/* one frame per function, not per address */
	sym_hex_name(buf, size, addr - start);
	return buf;
}

/* The frame of one function DIE, kept per DIE; an unnamed one is named
 * by the ELF symbol at addr, and not kept (that depends on addr). */
static uint32_t sym_die_frame(struct sym_session *s, uint32_t module, Dwfl_Module *mod,
			      uint64_t addr, Dwarf_Die *die)
{
	uint32_t id = sym_die_frame_get(&s->die_frames, die->addr);
	const char *name, *file;
	char hex[32];
	int line = 0;

	if (id != UINT32_MAX)
		return id;
	name = sym_die_name(die);
	file = sym_decl_file(&s->decl_files, die);
	if (dwarf_decl_line(die, &line) != 0 || line < 0)
		line = 0;
	id = symtab_frame(s->st, module,
			  name ? name : sym_elf_name(s, mod, addr, hex, sizeof hex),
			  file ? file : "", (uint32_t)line);
	if (name && id != UINT32_MAX)
		sym_die_frame_put(&s->die_frames, die->addr, id);
	return id;
}

/* Whether DWARF names the frames of mod: its own, or a separate debug
 * file's when the session reads those; never in the module named by its
 * symbols alone (sym_names_from_symbols). */
static bool sym_dwarf_names(const struct sym_session *s, Dwfl_Module *mod)
{
	Dwarf_Addr start, end;

	if (s->symbols_only && dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL) &&
	    s->symbols_only >= start && s->symbols_only < end)
		return false;
	return s->separate_debug || sym_own_section(mod, ".debug_info");
}

/* sym_dwarf_names, asked once per module (it reads every section header). */
static bool sym_module_dwarf_names(struct sym_session *s, uint32_t module, Dwfl_Module *mod)
{
	if (module == SYMTAB_NO_MODULE)
		return sym_dwarf_names(s, mod);
	if (module >= s->n_dwarf_names) {
		uint32_t n = module + 16;
		uint8_t *v = realloc(s->dwarf_names, n);

		if (!v)
			return sym_dwarf_names(s, mod);
		memset(v + s->n_dwarf_names, 0, n - s->n_dwarf_names);
		s->dwarf_names = v;
		s->n_dwarf_names = n;
	}
	if (!s->dwarf_names[module])
		s->dwarf_names[module] = sym_dwarf_names(s, mod) ? 2 : 1;
	return s->dwarf_names[module] == 2;
}

int sym_scopes_chain(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn, int max)
{
	Dwarf_Die *scopes = NULL, *chain = NULL;
	int n = 0;
	int ns = dwarf_getscopes(cu, addr, &scopes);
	int i = 0;
	while (i < ns && !sym_is_function(&scopes[i]))
		i++;
	if (i >= ns || max <= 0) {
		free(scopes);
		return 0;
	}
	int nc = 0;
	if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
		nc = dwarf_getscopes_die(&scopes[i], &chain);
	if (nc <= 0) {	/* a real function, or no physical parents found */
		fn[n++] = scopes[i];
	} else {
		for (int j = 0; j < nc && n < max; j++) {
			if (!sym_is_function(&chain[j]))
				continue;
			fn[n++] = chain[j];
			if (dwarf_tag(&chain[j]) == DW_TAG_subprogram)
				break;	/* not its lexical host (nested) */
		}
	}
	free(chain);
	free(scopes);
	return n;
}

/*
 * The function DIEs at addr, innermost first, into fn[]; at most max.
 * Returns the count, 0 without DWARF for addr.  The unit's function table
 * (cu-index.c) answers; the walk of the whole unit only when memory for
 * the table is short.
 */
static int sym_dwarf_chain(struct sym_session *s, Dwfl_Module *mod, uint64_t addr,
			   Dwarf_Die *fn, int max)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	int n;

	if (!cu)
		return 0;
	n = sym_cu_chain(&s->cus, cu, addr - bias, fn, max);
	return n >= 0 ? n : sym_scopes_chain(cu, addr - bias, fn, max);
}

/* Resolve addr in mod into ids[] outermost first; returns the count, 0
 * when memory is short. */
static int sym_resolve_in(struct sym_session *s, Dwfl_Module *mod,
			  uint64_t addr, uint32_t *ids)
{
	Dwarf_Die fn[SYM_MAX_INLINE];
	char hex[32];
	uint32_t module = sym_module_index(s, mod);
	int nfn = sym_module_dwarf_names(s, module, mod) ?
		  sym_dwarf_chain(s, mod, addr, fn, SYM_MAX_INLINE) : 0;

	if (nfn == 0) {
		uint32_t id = symtab_frame(s->st, module,
					   sym_elf_name(s, mod, addr, hex, sizeof hex),
					   "", 0);
		ids[0] = id;
		return id == UINT32_MAX ? 0 : 1;
	}
	for (int k = 0; k < nfn; k++) {
		ids[k] = sym_die_frame(s, module, mod, addr, &fn[nfn - 1 - k]);
		if (ids[k] == UINT32_MAX)
			return 0;
	}
	return nfn;
}

/*
 * Resolve a lookup address (see symbolize.h).  An address in no module
 * re-reads the module list when a re-read is due (sym_refresh_due); a
 * cached "no module" result is redone when the module list changed since,
 * or a re-read is due.  Returns 0 only when memory is short.
 */
int sym_resolve(struct sym_session *s, uint64_t addr, uint32_t *frames, int max)
{
	uint32_t ids[SYM_MAX_INLINE];
	struct sym_pc *e = sym_pc_get(&s->pcs, addr);
	int n;

	if (max <= 0)
		return 0;
	if (e && e->nframes && e->unknown && e->gen == s->mods.gen && sym_refresh_due(s))
		sym_modules_refresh(s);
	if (e && e->nframes && !(e->unknown && e->gen != s->mods.gen)) {
		n = e->nframes < max ? e->nframes : max;
		memcpy(frames, s->pcs.ids + e->first, (size_t)n * sizeof *frames);
		return n;
	}
	Dwfl_Module *mod = sym_module_at(s, addr);
	if (!mod && sym_refresh_due(s) && sym_modules_refresh(s) > 0)
		mod = sym_module_at(s, addr);
	if (mod) {
		n = sym_resolve_in(s, mod, addr, ids);
	} else {
		char hex[32];
		sym_hex_name(hex, sizeof hex, addr);
		ids[0] = symtab_frame(s->st, SYMTAB_NO_MODULE, hex, "", 0);
		n = ids[0] == UINT32_MAX ? 0 : 1;
	}
	if (n == 0)
		return 0;
	uint32_t first = e ? sym_pc_add_ids(&s->pcs, ids, n) : UINT32_MAX;
	if (first != UINT32_MAX) {	/* else uncached: memory is short */
		e->first = first;
		e->nframes = (uint16_t)n;
		e->unknown = !mod;
		e->gen = s->mods.gen;
	}
	if (n > max)
		n = max;
	memcpy(frames, ids, (size_t)n * sizeof *frames);
	return n;
}
