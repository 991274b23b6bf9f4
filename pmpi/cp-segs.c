/*
 * cp-segs.c - the critical path's samples by (segment, node) (cp-segs.h):
 * an array of records and an open-addressing hash of their indexes.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/order.h"
#include "cp-segs.h"

#define HASH0 1024u		/* initial hash slots */

static uint64_t seg_key(uint64_t seg, uint32_t node)
{
	return (seg * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)node * 0xc2b2ae3d27d4eb4full);
}

static uint32_t first_slot(uint64_t seg, uint32_t node, uint32_t nslot)
{
	return (uint32_t)(seg_key(seg, node) >> 32) & (nslot - 1);
}

/* A hash of n slots over the records, in the present array when it has
 * n slots; false when memory is short (the hash is then unchanged). */
static bool reindex(struct cp_segs *s, uint32_t n)
{
	uint32_t *slot = n == s->nslot ? s->slot : calloc(n, sizeof(*slot));

	if (!slot)
		return false;
	if (slot == s->slot)
		memset(slot, 0, (size_t)n * sizeof(*slot));
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t at = first_slot(s->segs[i].seg, s->segs[i].node, n);

		while (slot[at])
			at = (at + 1) & (n - 1);
		slot[at] = i + 1;
	}
	if (slot != s->slot)
		free(s->slot);
	s->slot = slot;
	s->nslot = n;
	return true;
}

void cps_keep_from(struct cp_segs *s, uint64_t cut)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		if (s->segs[i].seg >= cut)
			s->segs[k++] = s->segs[i];
		else
			free(s->segs[i].counts);
	}
	s->n = k;
	s->cut = cut;
	reindex(s, s->nslot);	/* in place: cannot fail */
}

bool cps_nth(const struct cp_segs *s, uint32_t k, uint64_t *seg)
{
	uint64_t *v = malloc((size_t)s->n * sizeof(*v));

	if (!v)
		return false;
	for (uint32_t i = 0; i < s->n; i++)
		v[i] = s->segs[i].seg;
	qsort(v, s->n, sizeof(*v), cmp_u64);
	*seg = v[k];
	free(v);
	return true;
}

/* At the limit: drop the oldest quarter of the segments.  False when
 * nothing could be dropped. */
static bool drop_oldest(struct cp_segs *s)
{
	uint64_t seg;

	if (!cps_nth(s, s->n / 4, &seg))
		return false;
	cps_keep_from(s, seg + 1);
	return true;
}

/* Room for one more record; false when memory is short. */
static bool room_for_one(struct cp_segs *s)
{
	uint32_t cap;
	struct prof_cp_seg *v;

	if (s->n < s->cap)
		return true;
	cap = s->cap ? s->cap * 2 : 256;
	v = realloc(s->segs, (size_t)cap * sizeof(*v));
	if (!v)
		return false;
	s->segs = v;
	s->cap = cap;
	return true;
}

struct prof_cp_seg *cps_entry(struct cp_segs *s, uint64_t seg, uint32_t node, uint32_t nevents)
{
	uint32_t at;
	struct prof_cp_seg *r;

	if (s->max && s->n >= s->max && !drop_oldest(s))
		return NULL;
	if ((s->n + 1) * 2 > s->nslot && !reindex(s, s->nslot ? s->nslot * 2 : HASH0))
		return NULL;
	/* A sample in a segment past every recorded one (most, where MPI
	 * calls are frequent) has no record yet: the slots are passed without
	 * reading the records they point to, a cache miss each. */
	for (at = first_slot(seg, node, s->nslot); s->slot[at]; at = (at + 1) & (s->nslot - 1)) {
		if (seg > s->top)
			continue;
		r = &s->segs[s->slot[at] - 1];
		if (r->seg == seg && r->node == node)
			return r;
	}
	if (!room_for_one(s))
		return NULL;
	r = &s->segs[s->n];
	*r = (struct prof_cp_seg){ seg, node, calloc(nevents, sizeof(uint64_t)) };
	if (!r->counts)
		return NULL;
	s->slot[at] = ++s->n;
	if (seg > s->top)
		s->top = seg;
	return r;
}

void cps_fold(struct cp_segs *s, uint64_t event, struct cp_prefix *prefix, bool keep)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		struct prof_cp_seg *g = &s->segs[i];

		if (g->seg <= event && cpp_on_path(prefix, g->seg))
			cpp_add(prefix, g->node, g->counts);
		if (g->seg > event || keep)
			s->segs[k++] = *g;
		else
			free(g->counts);
	}
	s->n = k;
	reindex(s, s->nslot);	/* in place: cannot fail */
}

void cps_take(struct cp_segs *s, uint64_t end, uint64_t cut, bool all, struct prof_cp_seg **v,
	      uint32_t *n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		const struct prof_cp_seg *g = &s->segs[i];

		if (g->seg < end && (g->seg >= cut || all))
			s->segs[k++] = *g;
		else
			free(g->counts);
	}
	*v = s->segs;
	*n = k;
	s->segs = NULL;
	s->n = 0;
	cps_free(s);
}

void cps_free(struct cp_segs *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->segs[i].counts);
	free(s->segs);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
