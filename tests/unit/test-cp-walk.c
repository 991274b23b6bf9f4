/*
 * test-cp-walk.c - the walk back along a critical path's links
 * (common/cp-walk.c) against a reference that finds each rank's link by
 * scanning its whole array: random ranks and links, the walk starting at
 * random segments, so that on a rank it looks links up backwards, forwards
 * and far from its last answer; every other round the ranks' numbers
 * have a gap, which a link may name.  Results, runs, cuts and errors must be
 * the same, and packed links must walk as arrays do.
 */
#include "tap.h"
#include "../../common/cp-walk.h"

#define RANKS 4
#define MAX_LINKS 200

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(uint64_t n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return n ? seed % n : 0;
}

/* The index of rank in ranks, by a scan; -1 when none. */
static long scan_rank(const struct cp_walk_rank *ranks, int64_t rank)
{
	for (long i = 0; i < RANKS; i++)
		if (ranks[i].rank == rank)
			return i;
	return -1;
}

/* The link of r at or before event, by a scan; false when none. */
static bool scan_link(const struct cp_walk_rank *r, uint64_t event, struct prof_cp_link *out)
{
	bool found = false;

	for (uint32_t i = 0; i < r->nlinks && r->links[i].event <= event; i++) {
		*out = r->links[i];
		found = true;
	}
	return found;
}

/* The walk of cp-walk.h, step by step with scans: the runs latest first
 * into runs (n of them), the cut, and 0 or -1. */
static int reference(const struct cp_walk_rank *ranks, uint32_t start, uint64_t e,
		     struct cp_run *runs, uint32_t *n, int64_t *cut_rank, uint64_t *cut_event)
{
	uint64_t bound = 1, steps = 0;
	long i = start;

	*n = 0;
	*cut_rank = -1;
	*cut_event = 0;
	for (uint32_t k = 0; k < RANKS; k++)
		bound += ranks[k].nlinks;
	while (e >= 1) {
		const struct cp_walk_rank *r = &ranks[i];
		uint64_t low = r->low > 1 ? r->low : 1, from;
		struct prof_cp_link l;
		bool linked;

		if (e < low) {
			if (r->dropped) {
				*cut_rank = r->rank;
				*cut_event = e;
			}
			return 0;
		}
		if (++steps > bound)
			return -1;
		linked = scan_link(r, e - 1, &l) && l.event >= low;
		from = linked ? l.event + 1 : low;
		if (*n && runs[*n - 1].rank == r->rank && runs[*n - 1].from == e + 1)
			runs[*n - 1].from = from;
		else
			runs[(*n)++] = (struct cp_run){ r->rank, from, e };
		if (!linked) {
			if (r->dropped) {
				*cut_rank = r->rank;
				*cut_event = low - 1;
			}
			return 0;
		}
		i = scan_rank(ranks, l.rank);
		if (i < 0 || l.from == 0 || l.from >= ranks[i].events)
			return -1;
		e = l.from;
	}
	return 0;
}

/* Random ranks with links by strictly increasing event, most from an
 * earlier event (a walk back ends), some from anywhere (a cycle, or a
 * walk that turns forward on a rank).  With gap, the last rank is one
 * more than its index, and a link may name the rank missing. */
static void make_ranks(struct cp_walk_rank *ranks, struct prof_cp_link (*links)[MAX_LINKS],
		       bool gap)
{
	for (int r = 0; r < RANKS; r++) {
		uint32_t n = (uint32_t)rnd(MAX_LINKS);
		uint64_t event = 0;

		for (uint32_t k = 0; k < n; k++) {
			event += 1 + rnd(4);
			links[r][k] = (struct prof_cp_link){ .event = event,
							     .rank = (int64_t)rnd(RANKS + gap),
							     .from = rnd(20) ? 1 + rnd(event) :
									       1 + rnd(MAX_LINKS * 3) };
		}
		ranks[r] = (struct cp_walk_rank){ .rank = r + (gap && r == RANKS - 1), .events = MAX_LINKS * 5 + 1,
						  .low = 1 + rnd(3) * rnd(20), .dropped = rnd(2),
						  .links = links[r], .nlinks = n };
	}
}

/* Whether walk w is the reference's (runs latest first, count n). */
static bool same_runs(const struct cp_walk *w, const struct cp_run *runs, uint32_t n)
{
	if (w->nruns != n)
		return false;
	for (uint32_t k = 0; k < n; k++) {
		const struct cp_run *a = &w->runs[k], *b = &runs[n - 1 - k];

		if (a->rank != b->rank || a->from != b->from || a->to != b->to)
			return false;
	}
	return true;
}

static void test_random_walks(bool packed)
{
	static struct prof_cp_link links[RANKS][MAX_LINKS];
	static struct cp_run runs[RANKS * MAX_LINKS * 8];
	struct link_pack packs[RANKS];
	int bad = 0, walks = 0, failed = 0, cut = 0;

	for (int round = 0; round < 300; round++) {
		struct cp_walk_rank ranks[RANKS];
		uint32_t start = (uint32_t)rnd(RANKS), n;
		uint64_t e = 1 + rnd(MAX_LINKS * 5 - 1);
		int64_t cut_rank;
		uint64_t cut_event;
		struct cp_walk w;
		char err[256];
		int want, got;

		make_ranks(ranks, links, round % 2);
		if (packed)
			for (int r = 0; r < RANKS; r++) {
				if (link_pack_build(&packs[r], links[r], ranks[r].nlinks) < 0)
					return;
				ranks[r].pack = &packs[r];
			}
		want = reference(ranks, start, e, runs, &n, &cut_rank, &cut_event);
		got = cp_walk_back(ranks, RANKS, start, e, "the test", &w, err, sizeof(err));
		walks++;
		failed += want < 0;
		cut += want == 0 && cut_rank >= 0;
		if (got != want || (!got && (!same_runs(&w, runs, n) || w.cut != (cut_rank >= 0) ||
					     (w.cut && (w.cut_rank != cut_rank ||
							w.cut_event != cut_event))))) {
			if (!bad++)
				printf("# round %d: rc %d against %d, %u runs against %u\n", round, got,
				       want, got ? 0 : w.nruns, n);
		}
		if (!got)
			cp_walk_release(&w);
		if (packed)
			for (int r = 0; r < RANKS; r++)
				link_pack_release(&packs[r]);
	}
	ok(!bad, packed ? "packed links: every walk is the reference's" :
			  "arrays: every walk is the reference's");
	/* the data reach the walk's every ending */
	printf("# %d walks, %d failed, %d cut\n", walks, failed, cut);
	ok(walks - failed > 100 && failed > 0 && cut > 0,
	   packed ? "packed links: walks that end, fail and are cut" :
		    "arrays: walks that end, fail and are cut");
}

int main(void)
{
	test_random_walks(false);
	test_random_walks(true);
	return tap_done();
}
