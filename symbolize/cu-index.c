/*
 * cu-index.c - the functions of a compilation unit by address, for
 * resolve.c.
 *
 * dwarf_getscopes walks the unit's DIEs from its top for every address
 * it is asked about, so resolving a new address costs the size of its
 * unit: 1.4 ms in a unit of 500 small functions, 9 ms in one of 4 000.
 * Here the unit is walked once, the first time one of its addresses is
 * resolved, into a sorted table of the address ranges of its functions
 * (DW_TAG_subprogram with code, at any depth); an address then finds its
 * function by binary search, and the inlined calls at the address by a
 * walk of that function's DIEs alone.
 *
 * The tables belong to the session (struct sym_cu_cache) and live as long
 * as it does; a Dwarf_Die stays valid while its module's Dwarf is open,
 * which the session's Dwfl keeps.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include "internal.h"

/* One address range of a function. */
struct fn_range {
	uint64_t lo, hi;	/* [lo, hi) in the unit's DWARF addresses */
	uint32_t depth;		/* DIE nesting: a nested function is deeper */
	Dwarf_Die die;
};

/* The functions of one unit, sorted by lo. */
struct sym_cu_index {
	const void *dbg;	/* the unit's Dwarf */
	Dwarf_Off off;		/* the unit's DIE offset */
	struct fn_range *v;
	uint32_t n, cap;
	bool failed;		/* memory ran short: ask dwarf_getscopes instead */
};

/* How many ranges before the one found are looked at for a deeper
 * function that also holds the address (a nested one inside its host's
 * range); functions' ranges rarely overlap at all. */
#define LOOK_BACK 16

static void add_range(struct sym_cu_index *x, uint64_t lo, uint64_t hi, uint32_t depth,
		      const Dwarf_Die *die)
{
	if (x->failed || lo >= hi)
		return;
	if (x->n == x->cap) {
		uint32_t cap = x->cap ? 2 * x->cap : 64;
		struct fn_range *v = realloc(x->v, (size_t)cap * sizeof(*v));

		if (!v) {
			x->failed = true;
			return;
		}
		x->v = v;
		x->cap = cap;
	}
	x->v[x->n++] = (struct fn_range){ lo, hi, depth, *die };
}

/* Every range of a function DIE with code. */
static void add_function(struct sym_cu_index *x, Dwarf_Die *die, uint32_t depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t at = 0;

	while ((at = dwarf_ranges(die, at, &base, &lo, &hi)) > 0)
		add_range(x, lo, hi, depth, die);
}

/* The subprograms under die, at any depth (namespaces, classes, the
 * bodies of functions that contain others). */
static void walk(struct sym_cu_index *x, Dwarf_Die *die, uint32_t depth)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram)
			add_function(x, &child, depth + 1);
		if (dwarf_haschildren(&child))
			walk(x, &child, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int by_lo(const void *a, const void *b)
{
	const struct fn_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The index of cu, made when missing; NULL when memory is short. */
static struct sym_cu_index *index_of(struct sym_cu_cache *c, Dwarf_Die *cu)
{
	const void *dbg = dwarf_cu_getdwarf(cu->cu);
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct sym_cu_index *x;

	for (uint32_t i = 0; i < c->n; i++)
		if (c->v[i]->dbg == dbg && c->v[i]->off == off)
			return c->v[i];
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 16;
		struct sym_cu_index **v = realloc(c->v, (size_t)cap * sizeof(*v));

		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	if (!(x = calloc(1, sizeof(*x))))
		return NULL;
	x->dbg = dbg;
	x->off = off;
	walk(x, cu, 0);
	qsort(x->v, x->n, sizeof(*x->v), by_lo);
	c->v[c->n++] = x;
	return x;
}

/* The deepest function whose range holds addr; NULL when none does. */
static const struct fn_range *function_at(const struct sym_cu_index *x, uint64_t addr)
{
	const struct fn_range *best = NULL;
	uint32_t lo = 0, hi = x->n;

	while (lo < hi) {	/* the first range starting after addr */
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo, k = 0; i > 0 && k < LOOK_BACK; i--, k++) {
		const struct fn_range *r = &x->v[i - 1];

		if (addr < r->hi && (!best || r->depth > best->depth))
			best = r;
	}
	return best;
}

static bool says_where(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

/*
 * The inlined calls at addr inside die, outermost first, appended to
 * chain[*n..max).  A lexical block (or any other scope) that holds addr,
 * or says nothing of its addresses, is looked into; nested subprograms
 * are functions of their own.  Returns whether addr was placed inside die
 * (then no sibling can hold it).
 */
static bool inlined_at(Dwarf_Die *die, uint64_t addr, Dwarf_Die *chain, int *n, int max)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram)
			continue;
		if (says_where(&child)) {
			if (dwarf_haspc(&child, addr) != 1)
				continue;
			if (tag == DW_TAG_inlined_subroutine) {
				if (*n >= max)
					return true;
				chain[(*n)++] = child;
			}
			if (dwarf_haschildren(&child))
				inlined_at(&child, addr, chain, n, max);
			return true;
		}
		if (dwarf_haschildren(&child) && inlined_at(&child, addr, chain, n, max))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

int sym_cu_chain(struct sym_cu_cache *c, Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn, int max)
{
	struct sym_cu_index *x = index_of(c, cu);
	const struct fn_range *r;
	Dwarf_Die die;
	int n = 1;

	if (!x || x->failed)
		return -1;
	if (!(r = function_at(x, addr)))
		return 0;
	if (max <= 0)
		return 0;
	die = r->die;
	fn[0] = die;
	inlined_at(&die, addr, fn, &n, max);
	for (int i = 0, j = n - 1; i < j; i++, j--) {	/* innermost first */
		Dwarf_Die t = fn[i];

		fn[i] = fn[j];
		fn[j] = t;
	}
	return n;
}

void sym_cu_cache_release(struct sym_cu_cache *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		free(c->v[i]->v);
		free(c->v[i]);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
