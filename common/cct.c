/*
 * cct.c - the calling context tree: parallel arrays of nodes (parent, frame,
 * per-event self counts) plus an open-addressing hash index on (parent,
 * frame) so that finding or adding a child is O(1).  Nodes are never
 * removed; ids are dense and a child always gets a larger id than its parent.
 */
#include <stdlib.h>
#include <string.h>
#include "cct.h"
#include "hash.h"
#include "sum.h"

#define CCT_MIN_NODES 16u
#define CCT_MIN_SLOTS 32u
#define CCT_MAX_SLOTS (UINT32_C(1) << 31)

static uint32_t cct_hash(uint32_t parent, uint32_t frame)
{
	return (uint32_t)hash_u64((uint64_t)parent << 32 | frame);
}

/* Grow the node arrays to hold n nodes, zeroing new counts.  Returns 0 or
 * -1 (memory short or size overflow) with the tree unchanged but valid. */
static int cct_grow_nodes(struct cct *t, uint32_t n)
{
	size_t ne = t->nevents ? t->nevents : 1;
	uint32_t *p;
	uint64_t *s;

	if ((size_t)n > SIZE_MAX / sizeof(uint64_t) / ne)
		return -1;
	p = realloc(t->parent, (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	t->parent = p;
	p = realloc(t->frame, (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	t->frame = p;
	s = realloc(t->self, (size_t)n * ne * sizeof(*s));
	if (!s)
		return -1;
	t->self = s;
	memset(s + (size_t)t->alloc * t->nevents, 0,
	       (size_t)(n - t->alloc) * t->nevents * sizeof(*s));
	t->alloc = n;
	return 0;
}

/* Rebuild the index with n slots (a power of two).  Returns 0 or -1 with
 * the old index kept. */
static int cct_rehash(struct cct *t, uint32_t n)
{
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (uint32_t id = 1; id < t->nnodes; id++) {
		uint32_t i = cct_hash(t->parent[id], t->frame[id]) & (n - 1);

		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = id;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

/* See cct.h. */
int cct_init(struct cct *t, uint32_t nevents)
{
	memset(t, 0, sizeof(*t));
	t->nevents = nevents;
	if (cct_grow_nodes(t, CCT_MIN_NODES) || cct_rehash(t, CCT_MIN_SLOTS)) {
		cct_release(t);
		t->nevents = nevents;
		return -1;
	}
	t->nnodes = 1;
	t->parent[CCT_ROOT] = CCT_ROOT;
	t->frame[CCT_ROOT] = CCT_NO_FRAME;
	return 0;
}

/* Free the tree's arrays; it is then empty (no root) and may be released
 * again or passed to cct_init.  Cannot fail. */
void cct_release(struct cct *t)
{
	free(t->parent);
	free(t->frame);
	free(t->self);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* Make room for one more node: node arrays and a load factor <= 3/4. */
static int cct_reserve(struct cct *t)
{
	if (t->nnodes == t->alloc) {
		if (t->alloc > UINT32_MAX / 2)
			return -1;
		if (cct_grow_nodes(t, t->alloc * 2))
			return -1;
	}
	if ((uint64_t)(t->nnodes + 1) * 4 > (uint64_t)t->nslots * 3) {
		if (t->nslots >= CCT_MAX_SLOTS)
			return -1;
		if (cct_rehash(t, t->nslots * 2))
			return -1;
	}
	return 0;
}

/* See cct.h.  Also returns CCT_NO_FRAME when parent is not a node of t or
 * frame is CCT_NO_FRAME. */
uint32_t cct_child(struct cct *t, uint32_t parent, uint32_t frame)
{
	uint32_t i, id;

	if (parent >= t->nnodes || frame == CCT_NO_FRAME)
		return CCT_NO_FRAME;
	for (i = cct_hash(parent, frame) & (t->nslots - 1); (id = t->slots[i]);
	     i = (i + 1) & (t->nslots - 1))
		if (t->parent[id] == parent && t->frame[id] == frame)
			return id;
	if (cct_reserve(t))
		return CCT_NO_FRAME;
	for (i = cct_hash(parent, frame) & (t->nslots - 1); t->slots[i];
	     i = (i + 1) & (t->nslots - 1))
		;
	id = t->nnodes++;
	t->slots[i] = id;
	t->parent[id] = parent;
	t->frame[id] = frame;
	return id;
}

/* See cct.h. */
uint32_t cct_path(struct cct *t, const uint32_t *frames, size_t nframes)
{
	uint32_t node = CCT_ROOT;

	for (size_t i = 0; i < nframes && node != CCT_NO_FRAME; i++)
		node = cct_child(t, node, frames[i]);
	return node;
}

/* See cct.h. */
uint32_t cct_add_self(const struct cct *t, const uint32_t *emap, uint64_t *sum)
{
	for (uint32_t id = 0; id < t->nnodes; id++)
		for (uint32_t e = 0; e < t->nevents; e++)
			if (!sum_add(&sum[emap ? emap[e] : e], cct_self(t, id)[e]))
				return e;
	return t->nevents;
}
