/*
 * pctab.c - the per-address cache of a session.
 *
 * Both sides of a sample's processing key on the same lookup address (the
 * pc of the innermost frame, return address - 1 for the others): the
 * unwinder caches the CFI rule of the step from there (rules.c), the
 * resolver the frames it resolves to (resolve.c).  One open-addressing
 * table holds both, so a warm frame costs one probe for each.
 */
#include <stdlib.h>
#include <string.h>
#include "../common/hash.h"
#include "internal.h"

/* The slot of addr or the empty slot where it goes; table not empty. */
static struct sym_pc *sym_pc_slot(struct sym_pctab *t, uint64_t addr)
{
	uint32_t mask = t->nslots - 1;
	for (uint32_t i = (uint32_t)hash_u64(addr) & mask;; i = (i + 1) & mask) {
		struct sym_pc *e = &t->slots[i];
		if (!e->used || e->addr == addr)
			return e;
	}
}

/* Double the table.  Returns 0, or -1 when memory is short (the old table
 * stays). */
static int sym_pctab_grow(struct sym_pctab *t)
{
	uint32_t n = t->nslots ? 2 * t->nslots : 1024;
	struct sym_pc *slots = calloc(n, sizeof *slots);
	if (!slots)
		return -1;
	struct sym_pc *old = t->slots;
	uint32_t nold = t->nslots;
	t->slots = slots;
	t->nslots = n;
	for (uint32_t i = 0; i < nold; i++)
		if (old[i].used)
			*sym_pc_slot(t, old[i].addr) = old[i];
	free(old);
	return 0;
}

struct sym_pc *sym_pc_get(struct sym_pctab *t, uint64_t addr)
{
	if (t->nslots) {
		struct sym_pc *e = sym_pc_slot(t, addr);
		if (e->used)
			return e;
	}
	if (2 * (t->used + 1) > t->nslots && sym_pctab_grow(t) != 0)
		return NULL;
	struct sym_pc *e = sym_pc_slot(t, addr);
	e->used = true;
	e->addr = addr;
	t->used++;
	return e;
}

uint32_t sym_pc_add_ids(struct sym_pctab *t, const uint32_t *ids, int n)
{
	if (t->nids + (uint32_t)n > t->ids_alloc) {
		uint32_t want = t->ids_alloc ? 2 * t->ids_alloc : 4096;
		while (want < t->nids + (uint32_t)n)
			want *= 2;
		uint32_t *p = realloc(t->ids, want * sizeof *p);
		if (!p)
			return UINT32_MAX;
		t->ids = p;
		t->ids_alloc = want;
	}
	memcpy(t->ids + t->nids, ids, (size_t)n * sizeof *ids);
	t->nids += (uint32_t)n;
	return t->nids - (uint32_t)n;
}

void sym_pctab_release(struct sym_pctab *t)
{
	free(t->slots);
	free(t->ids);
	memset(t, 0, sizeof *t);
}
