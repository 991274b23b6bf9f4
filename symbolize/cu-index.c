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
 * function by binary search.  The inlined calls at the address come from
 * the function's scopes (lexical blocks, inlined calls), read once into a
 * table in the DIE tree's order with their address ranges, the first
 * time one of its addresses is resolved: walking the DIEs again for every
 * address, with dwarf_haspc decoding each scope's ranges, cost 5-7 us an
 * address in NAS LU's inlined loops.
 *
 * The tables belong to the session (struct sym_cu_cache) and live as long
 * as it does; a Dwarf_Die stays valid while its module's Dwarf is open,
 * which the session's Dwfl keeps.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include "internal.h"

/* One scope below a function, in the DIE tree's pre-order: its subtree
 * is the scopes after it up to end. */
struct scope {
	Dwarf_Die die;
	uint32_t range, nranges;	/* its ranges in fn_scopes.ranges */
	uint32_t end;
	bool says_where;	/* it has DW_AT_low_pc or DW_AT_ranges */
	bool inlined;		/* DW_TAG_inlined_subroutine */
};

/* The scopes of one function, read the first time it is asked about. */
struct fn_scopes {
	Dwarf_Die die;
	struct scope *s;
	uint64_t (*ranges)[2];	/* [lo, hi) */
	uint32_t n, cap, nranges, ranges_cap;
	bool read, failed;
};

/* One address range of a function. */
struct fn_range {
	uint64_t lo, hi;	/* [lo, hi) in the unit's DWARF addresses */
	uint32_t depth;		/* DIE nesting: a nested function is deeper */
	uint32_t fn;		/* its function in sym_cu_index.fns */
};

/* The functions of one unit, sorted by lo. */
struct sym_cu_index {
	const void *dbg;	/* the unit's Dwarf */
	Dwarf_Off off;		/* the unit's DIE offset */
	struct fn_range *v;
	uint32_t n, cap;
	struct fn_scopes *fns;
	uint32_t nfns, fns_cap;
	bool failed;		/* memory ran short: ask dwarf_getscopes instead */
};

/* Room for one more of n elements of size in *v (capacity *cap); false
 * when memory is short. */
static bool grow(void **v, uint32_t n, uint32_t *cap, size_t size)
{
	uint32_t want = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return true;
	if (!(p = realloc(*v, (size_t)want * size)))
		return false;
	*v = p;
	*cap = want;
	return true;
}

/* How many ranges before the one found are looked at for a deeper
 * function that also holds the address (a nested one inside its host's
 * range); functions' ranges rarely overlap at all. */
#define LOOK_BACK 16

static void add_range(struct sym_cu_index *x, uint64_t lo, uint64_t hi, uint32_t depth,
		      uint32_t fn)
{
	if (x->failed || lo >= hi)
		return;
	if (!grow((void **)&x->v, x->n, &x->cap, sizeof(*x->v))) {
		x->failed = true;
		return;
	}
	x->v[x->n++] = (struct fn_range){ lo, hi, depth, fn };
}

/* Every range of a function DIE with code. */
static void add_function(struct sym_cu_index *x, Dwarf_Die *die, uint32_t depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t at = 0;

	if (x->failed || !grow((void **)&x->fns, x->nfns, &x->fns_cap, sizeof(*x->fns))) {
		x->failed = true;
		return;
	}
	x->fns[x->nfns] = (struct fn_scopes){ .die = *die };
	while ((at = dwarf_ranges(die, at, &base, &lo, &hi)) > 0)
		add_range(x, lo, hi, depth, x->nfns);
	x->nfns++;
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
	if (!grow((void **)&c->v, c->n, &c->cap, sizeof(*c->v)) || !(x = calloc(1, sizeof(*x))))
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
	uint32_t lo = sym_upper(x->v, x->n, sizeof(*x->v), addr);

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

/* Append the scope child of a function's scope, with its ranges when it
 * says where it is; false when memory is short. */
static bool add_scope(struct fn_scopes *f, Dwarf_Die *child, int tag)
{
	struct scope *e;

	if (!grow((void **)&f->s, f->n, &f->cap, sizeof(*f->s)))
		return false;
	e = &f->s[f->n++];
	*e = (struct scope){ .die = *child, .range = f->nranges,
			     .says_where = says_where(child),
			     .inlined = tag == DW_TAG_inlined_subroutine };
	if (e->says_where) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t at = 0;

		/* dwarf_haspc's ranges: those read before an error count */
		while ((at = dwarf_ranges(child, at, &base, &lo, &hi)) > 0) {
			if (!grow((void **)&f->ranges, f->nranges, &f->ranges_cap,
				  sizeof(*f->ranges)))
				return false;
			f->ranges[f->nranges][0] = lo;
			f->ranges[f->nranges++][1] = hi;
			e->nranges++;
		}
	}
	return true;
}

/* The scopes under die, nested subprograms left out (they are functions
 * of their own); false when memory is short. */
static bool read_scopes(struct fn_scopes *f, Dwarf_Die *die)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return true;
	do {
		int tag = dwarf_tag(&child);
		uint32_t i = f->n;

		if (tag == DW_TAG_subprogram)
			continue;
		if (!add_scope(f, &child, tag) ||
		    (dwarf_haschildren(&child) && !read_scopes(f, &child)))
			return false;
		f->s[i].end = f->n;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

static bool scope_holds(const struct fn_scopes *f, const struct scope *e, uint64_t addr)
{
	for (uint32_t k = e->range; k < e->range + e->nranges; k++)
		if (addr >= f->ranges[k][0] && addr < f->ranges[k][1])
			return true;
	return false;
}

/*
 * The inlined calls at addr among the scopes [i, to) of f (siblings and
 * their subtrees), outermost first, appended to chain[*n..max).  A scope
 * that holds addr, or says nothing of its addresses, is looked into.
 * Returns whether addr was placed inside one (then no later sibling can
 * hold it).
 */
static bool inlined_at(const struct fn_scopes *f, uint32_t i, uint32_t to, uint64_t addr,
		       Dwarf_Die *chain, int *n, int max)
{
	while (i < to) {
		const struct scope *e = &f->s[i];

		if (e->says_where) {
			if (!scope_holds(f, e, addr)) {
				i = e->end;
				continue;
			}
			if (e->inlined) {
				if (*n >= max)
					return true;
				chain[(*n)++] = e->die;
			}
			inlined_at(f, i + 1, e->end, addr, chain, n, max);
			return true;
		}
		if (inlined_at(f, i + 1, e->end, addr, chain, n, max))
			return true;
		i = e->end;
	}
	return false;
}

/* The scopes of function f, read when missing; NULL when memory is
 * short. */
static const struct fn_scopes *scopes_of(struct fn_scopes *f)
{
	if (!f->read) {
		f->read = true;
		f->failed = !read_scopes(f, &f->die);
	}
	return f->failed ? NULL : f;
}

int sym_cu_chain(struct sym_cu_cache *c, Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn, int max)
{
	struct sym_cu_index *x = index_of(c, cu);
	const struct fn_scopes *f;
	const struct fn_range *r;
	int n = 1;

	if (!x || x->failed)
		return -1;
	if (!(r = function_at(x, addr)))
		return 0;
	if (max <= 0)
		return 0;
	if (!(f = scopes_of(&x->fns[r->fn])))
		return -1;
	fn[0] = f->die;
	inlined_at(f, 0, f->n, addr, fn, &n, max);
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
		struct sym_cu_index *x = c->v[i];

		for (uint32_t k = 0; k < x->nfns; k++) {
			free(x->fns[k].s);
			free(x->fns[k].ranges);
		}
		free(x->fns);
		free(x->v);
		free(x);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
