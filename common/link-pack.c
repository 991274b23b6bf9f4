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

#define BLOCK 64u	/* links per block: the decoding a lookup pays at most */

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

bool link_pack_find_last(const struct link_pack *lp, uint64_t event, struct prof_cp_link *out)
{
	uint32_t lo = 0, hi = lp->nblocks, b, left;
	struct prof_cp_link at;
	const unsigned char *p, *end;

	while (lo < hi) {	/* the last block whose first event is <= event */
		uint32_t mid = lo + (hi - lo) / 2;

		if (lp->blocks[mid].first.event <= event)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	b = lo - 1;
	at = lp->blocks[b].first;
	p = lp->bytes + lp->blocks[b].off;
	end = lp->bytes + lp->nbytes;
	left = (b + 1 == lp->nblocks ? lp->n - b * BLOCK : BLOCK) - 1;
	while (left--) {
		struct prof_cp_link next;
		uint64_t d[3];

		for (int k = 0; k < 3; k++)
			p += varint_get(p, end, &d[k]);	/* our own bytes: never short */
		next.event = varint_unzigzag(d[0], at.event);
		next.rank = (int64_t)varint_unzigzag(d[1], (uint64_t)at.rank);
		next.from = varint_unzigzag(d[2], at.from);
		if (next.event > event)
			break;
		at = next;
	}
	*out = at;
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
