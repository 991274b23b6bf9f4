/*
 * link-pack.h - a rank's critical-path links kept compactly until a walk
 * follows them (link-pack.c): a long run's links are most of what a large
 * experiment keeps, three 8-byte numbers each, which differ from the
 * previous link's by a little.  In common/ so that the runtime can walk
 * links too.
 */
#ifndef CPPERF_LINK_PACK_H
#define CPPERF_LINK_PACK_H

#include <stdbool.h>
#include <stdint.h>
#include "profile.h"

struct link_block;

#define LINK_PACK_BLOCK 64u	/* links per block: the decoding a lookup pays at most */

struct link_pack {
	unsigned char *bytes;		/* the links as varint deltas, by block */
	struct link_block *blocks;	/* each block's first link and offset */
	uint32_t n, nblocks;		/* links; blocks */
	uint32_t nbytes;		/* of bytes */
};

/* Pack the n links of v (by strictly increasing event) into lp.  Returns 0,
 * or -1 when memory is short (lp is then empty). */
int link_pack_build(struct link_pack *lp, const struct prof_cp_link *v, uint32_t n);
/* The link of event into *out; false when there is none. */
bool link_pack_find(const struct link_pack *lp, uint64_t event, struct prof_cp_link *out);
/* The link of the latest event at or before event into *out; false when
 * there is none.  Costs a binary search and at most one block's decoding,
 * however far back that link is. */
bool link_pack_find_last(const struct link_pack *lp, uint64_t event, struct prof_cp_link *out);
/* One block decoded, for lookups near each other: a walk goes back along
 * a rank's links, block after block. */
struct link_block_cache {
	uint32_t block;		/* which; UINT32_MAX for none */
	uint32_t n;
	struct prof_cp_link v[LINK_PACK_BLOCK];
};
/* An empty cache. */
static inline void link_cache_init(struct link_block_cache *c)
{
	c->block = UINT32_MAX;
	c->n = 0;
}
/* link_pack_find_last through cache c (of lp's blocks alone), which then
 * holds the block of the answer: a block is decoded once while the
 * lookups stay in it, two binary searches each. */
bool link_pack_find_last_cached(const struct link_pack *lp, uint64_t event,
				struct prof_cp_link *out, struct link_block_cache *c);
void link_pack_release(struct link_pack *lp);

#endif
