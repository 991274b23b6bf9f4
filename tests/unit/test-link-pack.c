/*
 * test-link-pack.c - unit tests of the packed links
 * (common/link-pack.c): every link found by its event, with values of
 * every width and ranks of either sign, in packs of every block boundary;
 * the events between, before and after the links not found; the latest
 * link at or before any event; and a pack several times smaller than the
 * array on a ping-pong.
 */
#include <stdlib.h>
#include "tap.h"
#include "../../common/link-pack.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* n links at increasing events, gaps of 2 or more so that odd
 * neighbours are absent; wide values when wide. */
static struct prof_cp_link *make(uint32_t n, int wide)
{
	struct prof_cp_link *v = malloc((n ? n : 1) * sizeof(*v));
	uint64_t e = 3;

	for (uint32_t i = 0; i < n; i++) {
		e += 2 * (1 + (wide ? next() % 1000000 : 0));
		v[i] = (struct prof_cp_link){ e, wide ? (int64_t)(next() % 20001) - 10000 : 1,
					      wide ? next() >> (next() % 64) : e - 1 };
	}
	return v;
}

static void check(uint32_t n, int wide)
{
	struct prof_cp_link *v = make(n, wide), got;
	struct link_pack lp;
	uint32_t found = 0, absent = 0;
	char name[120];

	if (!ok(link_pack_build(&lp, v, n) == 0, "pack builds")) {
		free(v);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		found += link_pack_find(&lp, v[i].event, &got) && got.event == v[i].event &&
			 got.rank == v[i].rank && got.from == v[i].from;
		absent += !link_pack_find(&lp, v[i].event + 1, &got) &&
			  !link_pack_find(&lp, v[i].event - 1, &got);
	}
	snprintf(name, sizeof(name), "%u %s links: each found (%u), its neighbours not (%u)",
		 n, wide ? "wide" : "ping-pong", found, absent);
	ok(found == n && absent == n, name);
	ok(!link_pack_find(&lp, 0, &got) && !link_pack_find(&lp, 1, &got) &&
	   !link_pack_find(&lp, UINT64_MAX, &got), "before the first and after the last: none");
	link_pack_release(&lp);
	ok(!lp.bytes && !lp.blocks && !lp.n, "released and empty");
	free(v);
}

/* The latest link at or before an event: the link itself, from its event
 * to just before the next link's; none before the first. */
static void check_last(uint32_t n)
{
	struct prof_cp_link *v = make(n, 1), got;
	struct link_pack lp;
	uint32_t right = 0;
	char name[120];

	if (!ok(link_pack_build(&lp, v, n) == 0, "pack builds")) {
		free(v);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t after = i + 1 < n ? v[i + 1].event - 1 : UINT64_MAX;

		right += link_pack_find_last(&lp, v[i].event, &got) && got.event == v[i].event &&
			 got.rank == v[i].rank && got.from == v[i].from &&
			 link_pack_find_last(&lp, after, &got) && got.event == v[i].event;
	}
	snprintf(name, sizeof(name), "%u links: the latest at or before an event (%u right)", n,
		 right);
	ok(right == n, name);
	ok(!link_pack_find_last(&lp, n ? v[0].event - 1 : UINT64_MAX, &got),
	   "before the first: none");
	link_pack_release(&lp);
	free(v);
}

int main(void)
{
	static const uint32_t sizes[] = { 0, 1, 2, 63, 64, 65, 128, 129, 5000 };
	struct prof_cp_link *v = make(100000, 0);
	struct link_pack lp;

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check(sizes[i], 0);
		check(sizes[i], 1);
		check_last(sizes[i]);
	}
	if (ok(link_pack_build(&lp, v, 100000) == 0, "a ping-pong of 100000 links packs")) {
		/* three one-byte varints a link, the block heads aside */
		ok(lp.n == 100000 && lp.nblocks == (100000 + 63) / 64 && lp.nbytes <= 3 * 100000,
		   "in three bytes a link, against 24 in an array");
		link_pack_release(&lp);
	}
	free(v);
	return tap_done();
}
