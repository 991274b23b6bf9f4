/*
 * idset.c - the index set of idset.h: open addressing with linear probing,
 * kept at most half full, the hashes stored beside the indices so growing
 * never calls back into the caller.
 */
#include <stdlib.h>
#include <string.h>
#include "idset.h"

/* See idset.h. */
void idset_release(struct idset *s)
{
	free(s->slot);
	free(s->hash);
	memset(s, 0, sizeof(*s));
}

/* Put index i with hash h into the first free slot of its chain. */
static void idset_place(struct idset *s, uint64_t h, uint32_t i)
{
	uint32_t k = (uint32_t)h & s->mask;

	while (s->slot[k])
		k = (k + 1) & s->mask;
	s->slot[k] = i + 1;
	s->hash[k] = h;
}

/* Make room for one more index.  Returns 0, or -1 when memory is short
 * (s is then unchanged). */
static int idset_grow(struct idset *s)
{
	uint32_t have = s->slot ? s->mask + 1 : 0, cap = have ? have * 2 : 16;
	struct idset t;

	if ((uint64_t)(s->n + 1) * 2 <= have)
		return 0;
	if (cap == 0)
		return -1;
	t.slot = calloc(cap, sizeof(*t.slot));
	t.hash = calloc(cap, sizeof(*t.hash));
	if (!t.slot || !t.hash) {
		free(t.slot);
		free(t.hash);
		return -1;
	}
	t.mask = cap - 1;
	t.n = s->n;
	for (uint32_t k = 0; k < have; k++)
		if (s->slot[k])
			idset_place(&t, s->hash[k], s->slot[k] - 1);
	free(s->slot);
	free(s->hash);
	*s = t;
	return 0;
}

/* See idset.h. */
uint32_t idset_add(struct idset *s, const void *ctx, uint32_t i, uint64_t h,
		   idset_eq eq)
{
	if (idset_grow(s) < 0)
		return UINT32_MAX;
	for (uint32_t k = (uint32_t)h & s->mask; s->slot[k]; k = (k + 1) & s->mask)
		if (s->hash[k] == h && eq(ctx, s->slot[k] - 1, i))
			return s->slot[k] - 1;
	idset_place(s, h, i);
	s->n++;
	return i;
}
