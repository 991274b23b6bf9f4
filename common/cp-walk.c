/*
 * cp-walk.c - the walk back along a critical path's links (cp-walk.h).
 *
 * State (i, e): segment e of rank i is on the path, and so are the rank's
 * segments before it down to just after the latest event l < e with a
 * link, at whose exit the path came from (link.rank, link.from).  Without
 * such a link they go down to the rank's low, where the walk ends: at
 * segment 1 (the exit of MPI_Init), after a fold point, or where the rank
 * dropped older records (then w->cut says where).  The runs are built
 * latest first and reversed at the end.  A walk goes back along a rank's
 * links block after block, so each rank it visits keeps its last decoded
 * block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cp-walk.h"
#include "order.h"

long cp_walk_search(const struct cp_walk_rank *ranks, uint32_t n, int64_t rank)
{
	size_t i = order_lower_i64(ranks, n, sizeof(*ranks), offsetof(struct cp_walk_rank, rank),
				   rank);

	return i < n && ranks[i].rank == rank ? (long)i : -1;
}

/* Where the walk is on a rank: a pack's cache of one decoded block (made
 * on the first lookup; without memory for it, each lookup decodes), or
 * an array's index of the link it found last, where the next lookup,
 * for an earlier event, begins. */
struct cursor {
	struct link_block_cache *cache;
	uint32_t at;		/* UINT32_MAX before the first lookup */
};

/*
 * The index of the first of v[0..n), sorted by event, after event: found
 * by steps doubling outward from near, then halving.  The walk goes back
 * a few links at a time on each rank, so from the previous answer this
 * takes a few compares where a search of the whole rank took some fifteen
 * (a fold point's walk of ten thousand steps, 1.2 million instructions).
 */
static uint32_t first_after(const struct prof_cp_link *v, uint32_t n, uint64_t event,
			    uint32_t near)
{
	uint32_t lo = 0, hi, step;

	if (near > n)
		near = n;
	if (near < n && v[near].event <= event) {	/* after near */
		lo = near + 1;
		for (hi = lo, step = 1; hi < n && v[hi].event <= event; step *= 2) {
			lo = hi + 1;
			hi = n - hi > step ? hi + step : n;
		}
	} else {	/* at or before near: everything from hi on is after */
		for (hi = near, step = 1; hi > 0; step *= 2) {
			uint32_t p = hi > step ? hi - step : 0;

			if (v[p].event <= event) {
				lo = p + 1;
				break;
			}
			hi = p;
		}
	}
	while (lo < hi) {	/* before lo: at or before event; from hi: after */
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].event <= event)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The link of r at the latest event at or before event into *out; false
 * when there is none. */
static bool link_at_or_before(const struct cp_walk_rank *r, uint64_t event,
			      struct prof_cp_link *out, struct cursor *cur)
{
	uint32_t i;

	if (r->pack && !cur->cache && (cur->cache = malloc(sizeof(*cur->cache))))
		link_cache_init(cur->cache);
	if (r->pack)
		return cur->cache ? link_pack_find_last_cached(r->pack, event, out, cur->cache) :
			link_pack_find_last(r->pack, event, out);
	i = first_after(r->links, r->nlinks, event, cur->at);
	if (i == 0)
		return false;
	cur->at = i - 1;
	*out = r->links[i - 1];
	return true;
}

static uint64_t rank_links(const struct cp_walk_rank *r)
{
	return r->pack ? r->pack->n : r->nlinks;
}

static int walk_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory computing the critical path");
	return -1;
}

/* Append segments from..to of rank to the runs, which are built latest
 * first. */
static int push_run(struct cp_walk *w, uint32_t *alloc, int64_t rank, uint64_t from, uint64_t to)
{
	struct cp_run *last = w->nruns ? &w->runs[w->nruns - 1] : NULL;

	if (last && last->rank == rank && last->from == to + 1) {
		last->from = from;
		return 0;
	}
	if (w->nruns == *alloc) {
		uint32_t n = *alloc ? *alloc * 2 : 16;
		struct cp_run *a = realloc(w->runs, (size_t)n * sizeof(*a));

		if (!a)
			return -1;
		w->runs = a;
		*alloc = n;
	}
	w->runs[w->nruns++] = (struct cp_run){ rank, from, to };
	return 0;
}

static void cut_at(struct cp_walk *w, const struct cp_walk_rank *r, uint64_t e)
{
	w->cut = true;
	w->cut_rank = r->rank;
	w->cut_event = e;
	w->cut_budget = r->budget;
}

/* Check link l of rank r, whose sender is at index j of ranks (-1: none). */
static int check_link(const struct cp_walk_rank *ranks, const struct cp_walk_rank *r,
		      const struct prof_cp_link *l, long j, const char *scope, char *err,
		      size_t errlen)
{
	if (j < 0) {
		snprintf(err, errlen, "critical path: rank %lld event %llu links to "
			 "rank %lld, which has no critical-path data in %s",
			 (long long)r->rank, (unsigned long long)l->event, (long long)l->rank,
			 scope);
		return -1;
	}
	if (l->from == 0 || l->from >= ranks[j].events) {
		snprintf(err, errlen, "critical path: rank %lld event %llu links to "
			 "event %llu of rank %lld, which has events 1 to %llu",
			 (long long)r->rank, (unsigned long long)l->event,
			 (unsigned long long)l->from, (long long)l->rank,
			 (unsigned long long)(ranks[j].events - 1));
		return -1;
	}
	return 0;
}

/* The runs, built latest first, into time order. */
static void reverse_runs(struct cp_walk *w)
{
	for (uint32_t a = 0, b = w->nruns; a + 1 < b; a++, b--) {
		struct cp_run t = w->runs[a];

		w->runs[a] = w->runs[b - 1];
		w->runs[b - 1] = t;
	}
}

/* See cp-walk.h. */
int cp_walk_back(const struct cp_walk_rank *ranks, uint32_t n, uint32_t start, uint64_t e,
		 const char *scope, struct cp_walk *w, char *err, size_t errlen)
{
	struct cursor *cur = calloc(n + 1, sizeof(*cur));
	uint64_t bound = 1, steps = 0;
	uint32_t alloc = 0;
	long i = start;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	if (!cur)
		return walk_oom(err, errlen);
	for (uint32_t k = 0; k < n; k++)
		cur[k].at = UINT32_MAX;
	for (uint32_t k = 0; k < n; k++)
		bound += rank_links(&ranks[k]);
	while (e >= 1) {
		const struct cp_walk_rank *r = &ranks[i];
		uint64_t low = r->low > 1 ? r->low : 1;
		struct prof_cp_link l = { 0 };	/* set when linked */
		bool linked;

		if (e < low) {	/* a link into segments the rank did not keep */
			if (r->dropped)
				cut_at(w, r, e);
			break;
		}
		if (++steps > bound) {
			snprintf(err, errlen, "critical path: the links form a cycle (still "
				 "walking at rank %lld event %llu after %llu steps, more than "
				 "all ranks' links)", (long long)r->rank,
				 (unsigned long long)e, (unsigned long long)steps - 1);
			rc = -1;
			break;
		}
		linked = link_at_or_before(r, e - 1, &l, &cur[i]) && l.event >= low;
		if (push_run(w, &alloc, r->rank, linked ? l.event + 1 : low, e) < 0) {
			rc = walk_oom(err, errlen);
			break;
		}
		if (!linked) {
			if (r->dropped)	/* the link of low - 1, if any, was dropped */
				cut_at(w, r, low - 1);
			break;
		}
		i = cp_walk_find(ranks, n, l.rank);
		if ((rc = check_link(ranks, r, &l, i, scope, err, errlen)) < 0)
			break;
		e = l.from;
	}
	for (uint32_t k = 0; k < n; k++)
		free(cur[k].cache);
	free(cur);
	if (rc < 0)
		cp_walk_release(w);
	else
		reverse_runs(w);
	return rc;
}

void cp_walk_release(struct cp_walk *w)
{
	free(w->runs);
	memset(w, 0, sizeof(*w));
}
