/*
 * link-pack.c - a rank's links in blocks of BLOCK (link-pack.h): a block
 * starts with an absolute link in the block table, the rest of its links
 * follow in the byte stream as the differences to the link before them,
 * zigzag LEB128 varints (a ping-pong's take three bytes instead of 24).
 * Finding the link of an event, or the latest link at or before it, is a
 * binary search over the blocks and the decoding of one block.
 */
#include <stdlib.h>
#include <string.h>
#include "varint.h"
#include "link-pack.h"

#define BLOCK LINK_PACK_BLOCK

struct link_block {
	struct prof_cp_link first;
	uint32_t off;	/* where the block's other links start in bytes */
};

/* The three differences of link l to the one before it. */
static void deltas(const struct prof_cp_link *l, uint64_t d[3])
{
	d[0] = varint_zigzag(l->event, l[-1].event);
	d[1] = varint_zigzag((uint64_t)l->rank, (uint64_t)l[-1].rank);
	d[2] = varint_zigzag(l->from, l[-1].from);
}

int link_pack_build(struct link_pack *lp, const struct prof_cp_link *v, uint32_t n)
{
	uint32_t nblocks = (n + BLOCK - 1) / BLOCK;
	size_t size = 0, used = 0;
	uint64_t d[3];

	memset(lp, 0, sizeof(*lp));
	if (!n)
		return 0;
	for (uint32_t i = 1; i < n; i++)	/* the exact size first */
		if (i % BLOCK) {
			deltas(&v[i], d);
			size += varint_len(d[0]) + varint_len(d[1]) + varint_len(d[2]);
		}
	if (size > UINT32_MAX)
		return -1;
	lp->blocks = malloc((size_t)nblocks * sizeof(*lp->blocks));
	lp->bytes = malloc(size ? size : 1);
	if (!lp->blocks || !lp->bytes) {
		link_pack_release(lp);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (i % BLOCK == 0) {
			lp->blocks[i / BLOCK] = (struct link_block){ v[i], (uint32_t)used };
			continue;
		}
		deltas(&v[i], d);
		for (int k = 0; k < 3; k++)
			used += varint_put(lp->bytes + used, d[k]);
	}
	lp->n = n;
	lp->nblocks = nblocks;
	lp->nbytes = (uint32_t)size;
	return 0;
}

/* The last block whose first event is <= event; nblocks when there is
 * none. */
static uint32_t block_of(const struct link_pack *lp, uint64_t event)
{
	uint32_t lo = 0, hi = lp->nblocks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (lp->blocks[mid].first.event <= event)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : lp->nblocks;
}

/* The link after at in the bytes at *p (our own: never short). */
static struct prof_cp_link next_link(const unsigned char **p, const unsigned char *end,
				     struct prof_cp_link at)
{
	uint64_t d[3];

	for (int k = 0; k < 3; k++)
		*p += varint_get(*p, end, &d[k]);
	at.event = varint_unzigzag(d[0], at.event);
	at.rank = (int64_t)varint_unzigzag(d[1], (uint64_t)at.rank);
	at.from = varint_unzigzag(d[2], at.from);
	return at;
}

/* The links block b holds. */
static uint32_t block_links(const struct link_pack *lp, uint32_t b)
{
	return b + 1 == lp->nblocks ? lp->n - b * BLOCK : BLOCK;
}

bool link_pack_find_last(const struct link_pack *lp, uint64_t event, struct prof_cp_link *out)
{
	uint32_t b = block_of(lp, event), left;
	struct prof_cp_link at;
	const unsigned char *p, *end;

	if (b == lp->nblocks)
		return false;
	at = lp->blocks[b].first;
	p = lp->bytes + lp->blocks[b].off;
	end = lp->bytes + lp->nbytes;
	for (left = block_links(lp, b) - 1; left--;) {
		struct prof_cp_link next = next_link(&p, end, at);

		if (next.event > event)
			break;
		at = next;
	}
	*out = at;
	return true;
}

bool link_pack_find_last_cached(const struct link_pack *lp, uint64_t event,
				struct prof_cp_link *out, struct link_block_cache *c)
{
	uint32_t b = block_of(lp, event), lo = 0, hi;

	if (b == lp->nblocks)
		return false;
	if (c->block != b) {
		const unsigned char *p = lp->bytes + lp->blocks[b].off, *end = lp->bytes + lp->nbytes;

		c->n = block_links(lp, b);
		c->v[0] = lp->blocks[b].first;
		for (uint32_t i = 1; i < c->n; i++)
			c->v[i] = next_link(&p, end, c->v[i - 1]);
		c->block = b;
	}
	for (hi = c->n; lo < hi;) {	/* the first link after event; v[0] is not */
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].event <= event)
			lo = mid + 1;
		else
			hi = mid;
	}
	*out = c->v[lo - 1];
	return true;
}

bool link_pack_find(const struct link_pack *lp, uint64_t event, struct prof_cp_link *out)
{
	struct prof_cp_link at;

	if (!link_pack_find_last(lp, event, &at) || at.event != event)
		return false;
	*out = at;
	return true;
}

void link_pack_release(struct link_pack *lp)
{
	free(lp->bytes);
	free(lp->blocks);
	memset(lp, 0, sizeof(*lp));
}
