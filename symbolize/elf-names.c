/*
 * elf-names.c - the ELF symbol that names an address, for resolve.c, with
 * the answer kept for the stretch of addresses it holds for.
 *
 * dwfl_module_addrinfo reads the module's whole symbol table for each
 * address (about 290 us for each new address in libc, whose separate
 * debug file has all its static functions).  Which symbol it picks
 * depends only on which symbols start at or below the address, which
 * sized ones still hold it, and which section holds it; so it can change
 * only at a symbol's start or end, at a section's bounds, and exactly at
 * a symbol's start (absolute and sizeless symbols match an address
 * exactly).  The module's bounds are collected once, sorted; an address
 * asks libdwfl only the first time its stretch between two bounds (or a
 * bound itself) is seen, and later addresses of the stretch take the
 * same name.  Collecting the bounds costs about 40 lookups (5.5 ms for
 * libc with its debug file's symbols), so a module gets them only once
 * it has been asked BOUNDS_AFTER times.
 */
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include "internal.h"

/* The names of one module's stretches: name[2 i] for the addresses
 * strictly between bound[i] and bound[i + 1], name[2 i + 1] for bound[i]
 * itself; NULL until asked. */
struct sym_elf_names {
	uint64_t *bound;
	const char **name;
	uint32_t n, cap;
	uint32_t asks;		/* addresses asked of libdwfl before the bounds */
	bool made, failed;	/* failed: ask libdwfl every time */
};

#define BOUNDS_AFTER 64

static void add_bound(struct sym_elf_names *x, uint64_t v)
{
	if (x->failed)
		return;
	if (x->n == x->cap) {
		uint32_t cap = x->cap ? 2 * x->cap : 1024;
		uint64_t *b = realloc(x->bound, (size_t)cap * sizeof(*b));

		if (!b) {
			x->failed = true;
			return;
		}
		x->bound = b;
		x->cap = cap;
	}
	x->bound[x->n++] = v;
}

/* The bounds of elf's sections, at the addresses its symbols have. */
static void add_sections(struct sym_elf_names *x, Elf *elf, Dwarf_Addr bias)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (sh && sh->sh_addr) {
			add_bound(x, sh->sh_addr + bias);
			add_bound(x, sh->sh_addr + sh->sh_size + bias);
		}
	}
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define ELFS 4			/* ELF files followed per module */

/* Whether elf is new to seen[0..*n); added when it is and there is room
 * (*n goes past ELFS when there is not). */
static bool first_sight(Elf *seen[ELFS], int *n, Elf *elf)
{
	for (int i = 0; i < *n && i < ELFS; i++)
		if (seen[i] == elf)
			return false;
	if (*n < ELFS)
		seen[*n] = elf;
	(*n)++;
	return *n <= ELFS;
}

/* Every symbol's start and end and every section's bounds, in the ELF
 * files its symbols come from (the module's, a separate debug file's). */
static void make_bounds(struct sym_elf_names *x, Dwfl_Module *mod)
{
	Elf *seen[ELFS];
	int nsyms = dwfl_module_getsymtab(mod), nseen = 0;
	uint32_t k = 0;

	x->made = true;
	for (int i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr value;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, &elf, &bias);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || sym.st_shndx == SHN_UNDEF || type == STT_SECTION ||
		    type == STT_FILE || type == STT_TLS)
			continue;
		add_bound(x, value);
		if (sym.st_size)
			add_bound(x, value + sym.st_size);
		if (elf && first_sight(seen, &nseen, elf))
			add_sections(x, elf, bias);
	}
	if (nsyms <= 0 || nseen > ELFS)
		x->failed = true;	/* no table, or more files than followed */
	if (x->failed)
		return;
	qsort(x->bound, x->n, sizeof(*x->bound), by_value);
	for (uint32_t i = 0; i < x->n; i++)	/* unique */
		if (!k || x->bound[i] != x->bound[k - 1])
			x->bound[k++] = x->bound[i];
	x->n = k;
	if (!(x->name = calloc(2 * (size_t)x->n + 2, sizeof(*x->name))))
		x->failed = true;
}

/* The slot of addr's stretch in x->name: below the first bound is slot
 * 2 n, one past the table's stretches. */
static size_t slot_of(const struct sym_elf_names *x, uint64_t addr)
{
	uint32_t lo = 0, hi = x->n;

	while (lo < hi) {	/* the first bound above addr */
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->bound[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 2 * (size_t)x->n;
	return 2 * (size_t)(lo - 1) + (x->bound[lo - 1] == addr);
}

/* The table of module index m, made room for; NULL when memory is short. */
static struct sym_elf_names *names_of(struct sym_names_cache *c, uint32_t m)
{
	if (m == SYMTAB_NO_MODULE)
		return NULL;
	if (m >= c->n) {
		uint32_t n = m + 16;
		struct sym_elf_names *v = realloc(c->v, (size_t)n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + c->n, 0, (size_t)(n - c->n) * sizeof(*v));
		c->v = v;
		c->n = n;
	}
	return &c->v[m];
}

const char *sym_elf_symbol(struct sym_names_cache *c, uint32_t module, Dwfl_Module *mod,
			   uint64_t addr)
{
	struct sym_elf_names *x = names_of(c, module);
	GElf_Off off;
	GElf_Sym sym;
	const char *name;
	size_t k;

	if (x && !x->made && ++x->asks > BOUNDS_AFTER)
		make_bounds(x, mod);
	if (!x || !x->made || x->failed)
		return dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	k = slot_of(x, addr);
	if (!x->name[k])
		x->name[k] = (name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL)) ?
			     name : "";
	return x->name[k];
}

void sym_names_cache_release(struct sym_names_cache *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		free(c->v[i].bound);
		free(c->v[i].name);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
