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
 * exactly).  Once a module has been asked for more than a few addresses,
 * those bounds are sorted, and an address makes the choice only the first
 * time its stretch between two bounds (or a bound itself) is seen.  Then a
 * sized symbol that holds it names it whatever the labels, so the choice
 * is made among those holders, found through an index by start, and the
 * whole table is scanned only for an address no sized symbol holds or a
 * bound, or before the module has been asked for enough stretches to pay
 * for the index (test-symbolize, libc's names with its debug file's 10 000
 * symbols at 13 832 addresses: 4.5-5.1 us each with a scan per stretch,
 * 2.0-2.4 us with the index).  test-symbolize checks the names against
 * libdwfl's.
 */
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include "internal.h"

/* One symbol that can name an address; its name is asked of libdwfl by
 * its index once it is chosen.  Small, because a module's table is read
 * whole and every page of it is a page fault (tens of microseconds on a
 * virtual machine). */
struct elf_sym {
	uint64_t value;
	uint32_t size;
	uint32_t ndx : 29;	/* in libdwfl's symbol table */
	uint32_t bind : 2;	/* higher is better: global 3, weak 2, local 1 */
	uint32_t exact : 1;	/* absolute or the like: names its value only */
};

#define SYM_NDX_MAX ((1u << 29) - 1)

/* The names chosen so far, by stretch (open addressing; key 0 empty). */
struct name_memo {
	uint32_t *key;		/* stretch + 1 */
	const char **name;
	uint32_t nslots, used;
};

/* One allocated section of the module's main file, as libdwfl sorts them
 * to find which section holds an address. */
struct elf_sec {
	uint64_t start, end;
	size_t ndx;
};

/* The sized symbols of one part of a table (its locals or its globals)
 * by start, to find those that hold an address without a scan: sym[at[k]]
 * are in order of value, reach[k] is the highest end among the first k + 1. */
struct holders {
	uint32_t *at;
	uint64_t *reach;
	uint32_t n;
};

/* One module's symbols and the names of its stretches: stretch 2 i for
 * the addresses strictly between bound[i] and bound[i + 1], 2 i + 1 for
 * bound[i] itself, 2 n below the first bound. */
struct sym_elf_names {
	struct elf_sym *sym;
	uint32_t nsym, nlocal;	/* sym[0 .. nlocal) are local, then global */
	struct elf_sec *sec;
	uint32_t nsec;
	uint64_t *bound;
	uint32_t n;
	struct holders part[2];	/* locals, globals; made after SCANS_BEFORE_HOLDERS */
	uint32_t scans;		/* stretches named by a scan of the table */
	struct name_memo names;
	uint32_t direct;	/* addresses named without bounds so far */
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

/*
 * A module's symbol table read straight from its ELF data when libdwfl's
 * is one plain table (no auxiliary one, no extended section indexes, not
 * a relocatable file): dwfl_module_getsym_info looks up the section of
 * every symbol through libelf (the loop over a rank's symbols took 5.6-11.5
 * ms of NAS LU.A with it, 3.9-6.4 ms here, mostly page faults).  The values and sections come out as libdwfl makes them (elfutils 0.188,
 * libdwfl/dwfl_module_getsym.c, x86-64): the bias of the table's file
 * added to a symbol of an allocated section, a section not allocated
 * given as -1.  Three symbols are checked against libdwfl's before the
 * view is used.
 */
struct sym_view {
	Elf_Data *syms, *strs;	/* NULL: ask libdwfl */
	uint64_t bias;
	bool *alloc;		/* by section index: SHF_ALLOC */
	size_t nsecs;
};

static const char *view_get(const struct sym_view *v, Dwfl_Module *mod, int i, GElf_Sym *s,
			    GElf_Addr *value, GElf_Word *shndx)
{
	bool alloc = true;

	if (!v->syms)
		return dwfl_module_getsym_info(mod, i, s, value, shndx, NULL, NULL);
	if (!gelf_getsym(v->syms, i, s) || s->st_shndx == SHN_XINDEX)
		return NULL;
	if (s->st_shndx < SHN_LORESERVE && s->st_shndx != SHN_UNDEF && s->st_shndx < v->nsecs)
		alloc = v->alloc[s->st_shndx];
	*value = s->st_value;
	if (s->st_shndx != SHN_ABS && s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_COMMON &&
	    alloc)
		*value += v->bias;
	*shndx = alloc ? s->st_shndx : (GElf_Word)-1;
	return s->st_name < v->strs->d_size ? (const char *)v->strs->d_buf + s->st_name : NULL;
}

/* A section of elf of type type holding nsyms entries (any number when
 * nsyms < 0), or NULL. */
static Elf_Scn *table_of(Elf *elf, Elf64_Word type, int nsyms)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (sh && sh->sh_type == type &&
		    (nsyms < 0 || (sh->sh_entsize &&
				   sh->sh_size / sh->sh_entsize == (uint64_t)nsyms)))
			return scn;
	}
	return NULL;
}

/* Does v give symbol i as libdwfl does? */
static bool view_agrees(const struct sym_view *v, Dwfl_Module *mod, int i)
{
	GElf_Sym a, b;
	GElf_Addr va = 0, vb = 0;
	GElf_Word sa = 0, sb = 0;
	const char *na = view_get(v, mod, i, &a, &va, &sa);
	const char *nb = dwfl_module_getsym_info(mod, i, &b, &vb, &sb, NULL, NULL);

	return na == nb && va == vb && sa == sb && a.st_size == b.st_size &&
	       a.st_info == b.st_info && a.st_shndx == b.st_shndx;
}

/* Set v up to read mod's nsyms symbols itself when it can; else v asks
 * libdwfl. */
static void view_open(struct sym_view *v, Dwfl_Module *mod, int nsyms)
{
	GElf_Sym sym;
	GElf_Addr value;
	GElf_Word shndx;
	GElf_Ehdr ehdr;
	Elf *elf = NULL;
	Dwarf_Addr bias = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr mem, *sh;

	memset(v, 0, sizeof(*v));
	if (nsyms < 2 ||
	    !dwfl_module_getsym_info(mod, 1, &sym, &value, &shndx, &elf, &bias) || !elf ||
	    !gelf_getehdr(elf, &ehdr) || ehdr.e_type == ET_REL ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64 || ehdr.e_machine != EM_X86_64 ||
	    elf_getshdrnum(elf, &v->nsecs) != 0 || table_of(elf, SHT_SYMTAB_SHNDX, -1))
		goto libdwfl;
	if (!(scn = table_of(elf, SHT_SYMTAB, nsyms)))
		scn = table_of(elf, SHT_DYNSYM, nsyms);
	if (!scn || !(sh = gelf_getshdr(scn, &mem)) || !(v->alloc = calloc(v->nsecs + 1, sizeof(bool))))
		goto libdwfl;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(elf, s));) {
		GElf_Shdr m, *h = gelf_getshdr(s, &m);
		size_t k = elf_ndxscn(s);

		if (k < v->nsecs)
			v->alloc[k] = !h || (h->sh_flags & SHF_ALLOC);
	}
	v->syms = elf_getdata(scn, NULL);
	v->strs = elf_getdata(elf_getscn(elf, sh->sh_link), NULL);
	v->bias = bias;
	if (v->syms && v->strs && view_agrees(v, mod, 1) && view_agrees(v, mod, nsyms / 2) &&
	    view_agrees(v, mod, nsyms - 1))
		return;
libdwfl:
	free(v->alloc);
	memset(v, 0, sizeof(*v));
}

/* The symbols that can name an address, locals first, each part in the
 * table's order; false when memory is short or there is no table. */
static bool read_symbols(struct sym_names_cache *c, struct sym_elf_names *x, Dwfl_Module *mod)
{
	int nsyms = dwfl_module_getsymtab(mod);
	int first_global = dwfl_module_getsymtab_first_global(mod);
	int split = first_global > 1 ? first_global : 1;
	struct sym_view v;
	bool ok = true;

	if (nsyms <= 0 || first_global < 0 || !(x->sym = calloc((size_t)nsyms, sizeof(*x->sym))))
		return false;
	view_open(&v, mod, nsyms);
	c->read_direct += v.syms != NULL;
	/* table indexes 1 .. split are local, split .. nsyms global */
	for (int pass = 0; pass < 2 && ok; pass++) {
		int from = pass ? split : 1, to = pass ? nsyms : split;

		for (int i = from; i < to && ok; i++) {
			GElf_Sym s;
			GElf_Addr value;
			GElf_Word shndx;
			const char *name = view_get(&v, mod, i, &s, &value, &shndx);

			if (!can_name(name, &s))
				continue;
			ok = s.st_size <= UINT32_MAX && (unsigned)i <= SYM_NDX_MAX;
			x->sym[x->nsym++] = (struct elf_sym){
				value, (uint32_t)s.st_size, (uint32_t)i,
				(uint32_t)bind_value(&s), shndx >= SHN_LORESERVE
			};
		}
		if (!pass)
			x->nlocal = x->nsym;
	}
	free(v.alloc);
	return ok;
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

/* Does sized symbol s, which holds the address, name it rather than c,
 * the choice among the holders before it in the table? */
static bool better_holder(const struct elf_sym *c, const struct elf_sym *s)
{
	if (!c || c->value < s->value || c->bind < s->bind)
		return true;
	return c->value == s->value && ((c->size > s->size && c->bind <= s->bind) ||
					(c->size >= s->size && c->bind < s->bind));
}

/* Weigh one symbol that starts at or below the address. */
static void try_symbol(const struct sym_elf_names *x, struct pick *p, const struct elf_sym *s)
{
	const struct elf_sym *c = p->closest;

	if (s->value + s->size > p->min_label)
		p->min_label = s->value + s->size;
	if (s->size && p->addr - s->value >= s->size)
		return;
	if (s->size) {
		if (better_holder(c, s))
			p->closest = s;
	} else if (!c && s->value >= p->min_label && same_section(x, p, s)) {
		p->sizeless = s;
	}
}

static void try_symbols(const struct sym_elf_names *x, struct pick *p, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (x->sym[i].value <= p->addr)
			try_symbol(x, p, &x->sym[i]);
}

/* The symbol that names addr, NULL for none: a scan of the table. */
static const struct elf_sym *choose(const struct sym_elf_names *x, uint64_t addr)
{
	struct pick p = { addr, 0, NULL, NULL };

	try_symbols(x, &p, x->nlocal, x->nsym);
	if (!p.closest && x->nlocal && (!p.sizeless || p.sizeless->value != addr))
		try_symbols(x, &p, 0, x->nlocal);
	if (!p.closest && p.sizeless && p.sizeless->value >= p.min_label)
		p.closest = p.sizeless;
	return p.closest;
}

/* The name of symbol s of mod, "" for none. */
static const char *name_of(Dwfl_Module *mod, const struct elf_sym *s)
{
	GElf_Sym sym;
	const char *name = s ? dwfl_module_getsym(mod, (int)s->ndx, &sym, NULL) : NULL;

	return name ? name : "";
}

/* Sort v[0..n) in place (fresh memory, as a second array would be, is
 * what costs here): quicksort on the median of three, the smaller part
 * first so the recursion stays shallow, insertion sort below 16. */
static void sort_values(uint64_t *v, size_t n)
{
	while (n > 16) {
		uint64_t a = v[0], b = v[n / 2], c = v[n - 1];
		uint64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t i = 0, j = n - 1;

		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			uint64_t t = v[i];

			v[i++] = v[j];
			v[j--] = t;
		}
		if (j + 1 < n - j - 1) {
			sort_values(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_values(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t t = v[i];
		size_t k = i;

		for (; k > 0 && v[k - 1] > t; k--)
			v[k] = v[k - 1];
		v[k] = t;
	}
}

/* The symbols of an index, for qsort_r: by value. */
static int by_value(const void *a, const void *b, void *arg)
{
	const struct elf_sym *sym = arg;
	uint64_t x = sym[*(const uint32_t *)a].value, y = sym[*(const uint32_t *)b].value;

	return x < y ? -1 : x > y;
}

/* The holders index of the sized symbols sym[from .. to). */
static bool make_holders(const struct sym_elf_names *x, uint32_t from, uint32_t to,
			 struct holders *h)
{
	uint64_t reach = 0;

	h->n = 0;
	h->at = malloc(((size_t)(to - from) + 1) * sizeof(*h->at));
	h->reach = malloc(((size_t)(to - from) + 1) * sizeof(*h->reach));
	if (!h->at || !h->reach)
		return false;
	for (uint32_t i = from; i < to; i++)
		if (x->sym[i].size)
			h->at[h->n++] = i;
	qsort_r(h->at, h->n, sizeof(*h->at), by_value, x->sym);
	for (uint32_t k = 0; k < h->n; k++) {
		const struct elf_sym *s = &x->sym[h->at[k]];

		if (s->value + s->size > reach)
			reach = s->value + s->size;
		h->reach[k] = reach;
	}
	return true;
}

static void free_holders(struct sym_elf_names *x)
{
	for (int i = 0; i < 2; i++) {
		free(x->part[i].at);
		free(x->part[i].reach);
		x->part[i] = (struct holders){ 0 };
	}
}

#define HOLDERS_MAX 64	/* sized symbols over one address; more: the scan */

/* Stretches named by scans before the holders index is made: a module
 * asked for a few dozen stretches (libc, in most runs) is scanned for less
 * than sorting its symbols costs (fresh pages again: the index made at
 * once took each rank of NAS LU.A 2 ms more in libc). */
#define SCANS_BEFORE_HOLDERS 32

/* The holders index, made once enough stretches were scanned; false
 * before, or when memory is short (scans go on). */
static bool holders_ready(struct sym_elf_names *x)
{
	if (x->part[1].at)
		return true;
	if (x->scans < SCANS_BEFORE_HOLDERS)
		return false;
	if (make_holders(x, 0, x->nlocal, &x->part[0]) &&
	    make_holders(x, x->nlocal, x->nsym, &x->part[1]))
		return true;
	free_holders(x);
	x->scans = 0;		/* try again later */
	return false;
}

/*
 * The choice among the sized symbols of one part that hold addr, as the
 * scan of that part makes it (they are weighed in the table's order);
 * NULL when none holds it.  Those starting at or below addr are found by
 * a binary search, then walked down while some symbol below still
 * reaches past addr.  *many: more than HOLDERS_MAX of them.
 */
static const struct elf_sym *closest_holder(const struct sym_elf_names *x, const struct holders *h,
					    uint64_t addr, bool *many)
{
	uint32_t lo = 0, hi = h->n, found[HOLDERS_MAX], n = 0;
	const struct elf_sym *c = NULL;

	while (lo < hi) {	/* the first symbol starting above addr */
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->sym[h->at[mid]].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t k = lo; k-- > 0 && h->reach[k] > addr;) {
		const struct elf_sym *s = &x->sym[h->at[k]];

		if (addr - s->value >= s->size)
			continue;
		if (n == HOLDERS_MAX) {
			*many = true;
			return NULL;
		}
		found[n++] = h->at[k];
	}
	for (uint32_t i = 1; i < n; i++)	/* into the table's order */
		for (uint32_t k = i; k > 0 && found[k - 1] > found[k]; k--) {
			uint32_t t = found[k];

			found[k] = found[k - 1];
			found[k - 1] = t;
		}
	for (uint32_t i = 0; i < n; i++)
		if (better_holder(c, &x->sym[found[i]]))
			c = &x->sym[found[i]];
	return c;
}

/*
 * choose() for an address that is no bound, so that no symbol starts at
 * it: a global holder names it when there is one; else, since no global
 * label sits at the address, the locals are weighed, and a local holder
 * names it.  NULL when neither holds it, where labels decide: the scan.
 */
static const struct elf_sym *choose_holder(const struct sym_elf_names *x, uint64_t addr)
{
	bool many = false;
	const struct elf_sym *c = closest_holder(x, &x->part[1], addr, &many);

	if (!c && !many && x->nlocal)
		c = closest_holder(x, &x->part[0], addr, &many);
	return many ? NULL : c;
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
	sort_values(x->bound, n);
	for (size_t i = 0; i < n; i++)
		if (!k || x->bound[i] != x->bound[k - 1])
			x->bound[k++] = x->bound[i];
	x->n = (uint32_t)k;
	return true;
}

/* Addresses of a module named by a scan of its symbols before its bounds
 * are made: most modules of a run are asked a few times, and sorting
 * their bounds cost more than the scans (fresh pages, mostly). */
#define DIRECT_NAMES 32

static void make(struct sym_names_cache *c, struct sym_elf_names *x, Dwfl_Module *mod)
{
	x->made = true;
	x->failed = !read_symbols(c, x, mod) || !read_sections(x, mod);
}

/* The stretch of addr: below the first bound is stretch 2 n, one past
 * the table's. */
static uint32_t stretch_of(const struct sym_elf_names *x, uint64_t addr)
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
		return 2 * x->n;
	return 2 * (lo - 1) + (x->bound[lo - 1] == addr);
}

/* The memo's slot of stretch k: its own or the empty one it goes in. */
static uint32_t memo_slot(const struct name_memo *m, uint32_t k)
{
	uint32_t mask = m->nslots - 1, i = (uint32_t)((k + 1) * 0x9e3779b1u) & mask;

	while (m->key[i] && m->key[i] != k + 1)
		i = (i + 1) & mask;
	return i;
}

/* The name chosen for stretch k, or NULL. */
static const char *memo_get(const struct name_memo *m, uint32_t k)
{
	return m->nslots ? m->name[memo_slot(m, k)] : NULL;
}

/* Remember name for stretch k; forgotten when memory is short. */
static void memo_put(struct name_memo *m, uint32_t k, const char *name)
{
	if (2 * (m->used + 1) > m->nslots) {
		struct name_memo bigger = { .nslots = m->nslots ? 2 * m->nslots : 64 };

		bigger.key = calloc(bigger.nslots, sizeof(*bigger.key));
		bigger.name = calloc(bigger.nslots, sizeof(*bigger.name));
		if (!bigger.key || !bigger.name) {
			free(bigger.key);
			free(bigger.name);
			return;
		}
		for (uint32_t i = 0; i < m->nslots; i++)
			if (m->key[i]) {
				uint32_t j = memo_slot(&bigger, m->key[i] - 1);

				bigger.key[j] = m->key[i];
				bigger.name[j] = m->name[i];
			}
		bigger.used = m->used;
		free(m->key);
		free(m->name);
		*m = bigger;
	}
	uint32_t i = memo_slot(m, k);

	m->key[i] = k + 1;
	m->name[i] = name;
	m->used++;
}

/* The table of key m, made room for; NULL when memory is short or for
 * no key. */
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

const char *sym_elf_symbol(struct sym_names_cache *c, uint32_t key, Dwfl_Module *mod,
			   uint64_t addr)
{
	struct sym_elf_names *x = names_of(c, key);
	const char *name;
	GElf_Off off;
	GElf_Sym sym;
	uint32_t k;

	if (x && !x->made)
		make(c, x, mod);
	if (!x || x->failed)
		return dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	if (!x->bound && (x->direct++ < DIRECT_NAMES || !make_bounds(x)))
		return name_of(mod, choose(x, addr));
	k = stretch_of(x, addr);
	if (!(name = memo_get(&x->names, k))) {
		const struct elf_sym *s = k % 2 || !holders_ready(x) ? NULL : choose_holder(x, addr);

		c->by_holders += s != NULL;
		if (!s) {
			s = choose(x, addr);
			x->scans++;
		}
		name = name_of(mod, s);
		memo_put(&x->names, k, name);
	}
	return name;
}

/* Free one module's table, leaving it empty. */
static void forget(struct sym_elf_names *x)
{
	free(x->sym);
	free(x->sec);
	free(x->bound);
	free_holders(x);
	free(x->names.key);
	free(x->names.name);
	memset(x, 0, sizeof(*x));
}

void sym_names_forget(struct sym_names_cache *c, uint32_t key)
{
	if (key < c->n)
		forget(&c->v[key]);
}

void sym_names_cache_release(struct sym_names_cache *c)
{
	for (uint32_t i = 0; i < c->n; i++)
		forget(&c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
