/*
 * pctab.c - the per-address cache of a session.
 *
 * Both sides of a sample's processing key on the same lookup address (the
 * pc of the innermost frame, return address - 1 for the others): the
 * unwinder caches the CFI rule of the step from there (rules.c), the
 * resolver the frames it resolves to (resolve.c).  One open-addressing
 * table holds both, so a warm frame costs one probe for each.  A slot
 * holds the index of its rule, not the rule: the addresses of a function
 * share a few rules, and 24-byte slots instead of 80 keep the table three
 * times smaller (fewer cache misses per probe, and fewer fresh pages as
 * it grows, each a page fault).
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

static uint32_t sym_rule_hash(const struct sym_rule *r)
{
	const unsigned char *p = (const unsigned char *)r;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < sizeof(*r); i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The index slot of rule r: its own or the empty one it goes in. */
static uint32_t *sym_rule_slot(const struct sym_pctab *t, const struct sym_rule *r)
{
	uint32_t mask = t->nrule_slots - 1;

	for (uint32_t i = sym_rule_hash(r) & mask;; i = (i + 1) & mask) {
		uint32_t *x = &t->rule_index[i];

		if (!*x || !memcmp(&t->rules[*x - 1], r, sizeof(*r)))
			return x;
	}
}

/* Room for one more rule, the index kept at most half full. */
static bool sym_rules_room(struct sym_pctab *t)
{
	if (t->nrules == t->rules_alloc) {
		uint32_t n = t->rules_alloc ? 2 * t->rules_alloc : 64;
		struct sym_rule *v = realloc(t->rules, (size_t)n * sizeof(*v));

		if (!v)
			return false;
		t->rules = v;
		t->rules_alloc = n;
	}
	if (2 * (t->nrules + 1) > t->nrule_slots) {
		uint32_t n = t->nrule_slots ? 2 * t->nrule_slots : 128;
		uint32_t *index = calloc(n, sizeof(*index));

		if (!index)
			return false;
		free(t->rule_index);
		t->rule_index = index;
		t->nrule_slots = n;
		for (uint32_t k = 0; k < t->nrules; k++)
			*sym_rule_slot(t, &t->rules[k]) = k + 1;
	}
	return true;
}

uint32_t sym_rule_intern(struct sym_pctab *t, const struct sym_rule *r)
{
	uint32_t *x;

	if (!sym_rules_room(t))
		return UINT32_MAX;
	x = sym_rule_slot(t, r);
	if (!*x) {
		t->rules[t->nrules++] = *r;
		*x = t->nrules;
	}
	return *x - 1;
}

void sym_pctab_forget(struct sym_pctab *t, uint64_t lo, uint64_t hi)
{
	for (uint32_t i = 0; i < t->nslots; i++) {
		struct sym_pc *e = &t->slots[i];

		if (e->used && e->addr >= lo && e->addr < hi) {
			e->nframes = 0;	/* its frame ids stay in the pool, unused */
			e->rule_state = SYM_RULE_NONE;
			e->unknown = false;
			e->root = 0;
		}
	}
}

void sym_pctab_release(struct sym_pctab *t)
{
	free(t->slots);
	free(t->ids);
	free(t->rules);
	free(t->rule_index);
	memset(t, 0, sizeof *t);
}
