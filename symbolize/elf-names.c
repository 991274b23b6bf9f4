/*
 * elf-names.c - the ELF symbol that names an address, for resolve.c: the
 * symbol dwfl_module_addrinfo would pick, at a fraction of its cost.
 *
 * dwfl_module_addrinfo reads the module's whole symbol table through
 * libelf for each address (50 us in an MPI library's dynamic symbols,
 * 290 us in libc with its debug file's static functions; on NAS LU each
 * rank spent some 20 ms of its first second there).  Here a module's
 * symbols are read once into a compact table, in the table's order, and
 * an address is named by the same choice libdwfl makes (elfutils 0.188,
 * libdwfl/dwfl_module_addrsym.c), run over that table: global symbols
 * first, then local ones only when no global one holds the address; the
 * closest sized symbol that holds it, a better binding winning, then a
 * narrower one at the same start; failing that, the closest sizeless
 * symbol (an assembly label) in the same section past the end of every
 * symbol below it.
 *
 * The choice depends only on which symbols start at or below the address,
 * which sized ones still hold it, and which section holds it; so it can
 * change only at a symbol's start or end, at a section's bounds, and
 * exactly at a symbol's start (absolute symbols match an address
 * exactly).  Those bounds are sorted once, and an address makes the
 * choice only the first time its stretch between two bounds (or a bound
 * itself) is seen.  test-symbolize checks the names against libdwfl's.
 */
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include "internal.h"

/* One symbol that can name an address. */
struct elf_sym {
	uint64_t value, size;
	const char *name;
	uint8_t bind;		/* higher is better: global 3, weak 2, local 1 */
	bool exact;		/* absolute or the like: names its value only */
};

/* One allocated section of the module's main file, as libdwfl sorts them
 * to find which section holds an address. */
struct elf_sec {
	uint64_t start, end;
	size_t ndx;
};

/* One module's symbols and the names of its stretches: name[2 i] for the
 * addresses strictly between bound[i] and bound[i + 1], name[2 i + 1] for
 * bound[i] itself; NULL until asked. */
struct sym_elf_names {
	struct elf_sym *sym;
	uint32_t nsym, nlocal;	/* sym[0 .. nlocal) are local, then global */
	struct elf_sec *sec;
	uint32_t nsec;
	uint64_t *bound;
	const char **name;
	uint32_t n;
	bool made, failed;	/* failed: ask libdwfl every time */
};

static int bind_value(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

static bool can_name(const char *name, const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	return name && *name && s->st_shndx != SHN_UNDEF && type != STT_SECTION &&
	       type != STT_FILE && type != STT_TLS;
}

/* The symbols that can name an address, locals first, each part in the
 * table's order; false when memory is short or there is no table. */
static bool read_symbols(struct sym_elf_names *x, Dwfl_Module *mod)
{
	int nsyms = dwfl_module_getsymtab(mod);
	int first_global = dwfl_module_getsymtab_first_global(mod);
	int split = first_global > 1 ? first_global : 1;

	if (nsyms <= 0 || first_global < 0 || !(x->sym = calloc((size_t)nsyms, sizeof(*x->sym))))
		return false;
	/* table indexes 1 .. split are local, split .. nsyms global */
	for (int pass = 0; pass < 2; pass++) {
		int from = pass ? split : 1, to = pass ? nsyms : split;

		for (int i = from; i < to; i++) {
			GElf_Sym s;
			GElf_Addr value;
			GElf_Word shndx;
			const char *name = dwfl_module_getsym_info(mod, i, &s, &value, &shndx,
								   NULL, NULL);

			if (can_name(name, &s))
				x->sym[x->nsym++] = (struct elf_sym){
					value, s.st_size, name, (uint8_t)bind_value(&s),
					shndx >= SHN_LORESERVE
				};
		}
		if (!pass)
			x->nlocal = x->nsym;
	}
	return true;
}

static int by_start(const void *a, const void *b)
{
	const struct elf_sec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->ndx < y->ndx ? -1 : x->ndx > y->ndx;
}

/* The allocated sections of the module's main file, sorted. */
static bool read_sections(struct sym_elf_names *x, Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t n = 0, cap = 0;

	if (!elf || elf_getshdrnum(elf, &cap) != 0)
		return false;
	if (cap && !(x->sec = calloc(cap, sizeof(*x->sec))))
		return false;
	while ((scn = elf_nextscn(elf, scn)) && n < cap) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (sh && (sh->sh_flags & SHF_ALLOC))
			x->sec[n++] = (struct elf_sec){ sh->sh_addr + bias,
							sh->sh_addr + bias + sh->sh_size,
							elf_ndxscn(scn) };
	}
	qsort(x->sec, n, sizeof(*x->sec), by_start);
	x->nsec = (uint32_t)n;
	return true;
}

/* The index of the section that holds addr, SHN_UNDEF for none; a
 * section's end is inside it unless the next one starts there. */
static size_t section_of(const struct sym_elf_names *x, uint64_t addr)
{
	uint32_t l = 0, u = x->nsec;

	while (l < u) {
		uint32_t i = (l + u) / 2;

		if (addr < x->sec[i].start) {
			u = i;
		} else if (addr > x->sec[i].end) {
			l = i + 1;
		} else {
			if (addr == x->sec[i].end && i + 1 < x->nsec && addr == x->sec[i + 1].start)
				i++;
			return x->sec[i].ndx;
		}
	}
	return SHN_UNDEF;
}

/* The choice under way for one address. */
struct pick {
	uint64_t addr, min_label;
	const struct elf_sym *closest;	/* sized */
	const struct elf_sym *sizeless;
};

static bool same_section(const struct sym_elf_names *x, const struct pick *p,
			 const struct elf_sym *s)
{
	if (s->exact)
		return s->value == p->addr;
	return section_of(x, s->value) == section_of(x, p->addr);
}

/* Weigh one symbol that starts at or below the address. */
static void try_symbol(const struct sym_elf_names *x, struct pick *p, const struct elf_sym *s)
{
	const struct elf_sym *c = p->closest;

	if (s->value + s->size > p->min_label)
		p->min_label = s->value + s->size;
	if (s->size && p->addr - s->value >= s->size)
		return;
	if (!c || c->value < s->value || c->bind < s->bind) {
		if (s->size)
			p->closest = s;
		else if (!c && s->value >= p->min_label && same_section(x, p, s))
			p->sizeless = s;
	} else if (s->size && c->value == s->value &&
		   ((c->size > s->size && c->bind <= s->bind) ||
		    (c->size >= s->size && c->bind < s->bind))) {
		p->closest = s;
	}
}

static void try_symbols(const struct sym_elf_names *x, struct pick *p, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (x->sym[i].value <= p->addr)
			try_symbol(x, p, &x->sym[i]);
}

/* The name of the symbol that names addr, "" for none. */
static const char *choose(const struct sym_elf_names *x, uint64_t addr)
{
	struct pick p = { addr, 0, NULL, NULL };

	try_symbols(x, &p, x->nlocal, x->nsym);
	if (!p.closest && x->nlocal && (!p.sizeless || p.sizeless->value != addr))
		try_symbols(x, &p, 0, x->nlocal);
	if (!p.closest && p.sizeless && p.sizeless->value >= p.min_label)
		p.closest = p.sizeless;
	return p.closest ? p.closest->name : "";
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every symbol's start and end and every section's bounds, sorted, one
 * of each. */
static bool make_bounds(struct sym_elf_names *x)
{
	size_t n = 0, k = 0;

	if (!(x->bound = malloc((2 * (size_t)x->nsym + 2 * x->nsec + 1) * sizeof(*x->bound))))
		return false;
	for (uint32_t i = 0; i < x->nsym; i++) {
		x->bound[n++] = x->sym[i].value;
		if (x->sym[i].size)
			x->bound[n++] = x->sym[i].value + x->sym[i].size;
	}
	for (uint32_t i = 0; i < x->nsec; i++) {
		x->bound[n++] = x->sec[i].start;
		x->bound[n++] = x->sec[i].end;
	}
	qsort(x->bound, n, sizeof(*x->bound), by_value);
	for (size_t i = 0; i < n; i++)
		if (!k || x->bound[i] != x->bound[k - 1])
			x->bound[k++] = x->bound[i];
	x->n = (uint32_t)k;
	return (x->name = calloc(2 * k + 2, sizeof(*x->name))) != NULL;
}

static void make(struct sym_elf_names *x, Dwfl_Module *mod)
{
	x->made = true;
	x->failed = !read_symbols(x, mod) || !read_sections(x, mod) || !make_bounds(x);
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
	size_t k;

	if (x && !x->made)
		make(x, mod);
	if (!x || x->failed)
		return dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	k = slot_of(x, addr);
	if (!x->name[k])
		x->name[k] = choose(x, addr);
	return x->name[k];
}

void sym_names_cache_release(struct sym_names_cache *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		free(c->v[i].sym);
		free(c->v[i].sec);
		free(c->v[i].bound);
		free(c->v[i].name);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
