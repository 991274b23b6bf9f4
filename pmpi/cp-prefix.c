/*
 * cp-prefix.c - a rank's samples on the critical path's prefix
 * (cp-prefix.h): a dense array of counts by node id, grown as the tree
 * grows (node ids are small and dense), and the last fold point's ranges,
 * searched by binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "cp-prefix.h"

void cpp_init(struct cp_prefix *x, uint32_t nevents)
{
	memset(x, 0, sizeof(*x));
	x->nevents = nevents;
}

bool cpp_on_path(const struct cp_prefix *x, uint64_t seg)
{
	uint32_t lo = 0, hi = x->nranges;

	while (lo < hi) {	/* the first range that starts after seg */
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->ranges[mid].from <= seg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && seg <= x->ranges[lo - 1].to;
}

/* Room for node; false when memory is short. */
static bool room(struct cp_prefix *x, uint32_t node)
{
	uint32_t cap = x->cap ? x->cap : 64;
	uint64_t *v;

	if (node < x->cap)
		return true;
	while (cap <= node && cap < UINT32_MAX / 2)
		cap *= 2;
	if (cap <= node || !(v = realloc(x->counts, (size_t)cap * x->nevents * sizeof(*v))))
		return false;
	memset(v + (size_t)x->cap * x->nevents, 0, (size_t)(cap - x->cap) * x->nevents * sizeof(*v));
	x->counts = v;
	x->cap = cap;
	return true;
}

void cpp_add(struct cp_prefix *x, uint32_t node, const uint64_t *w)
{
	uint64_t *c;

	if (!room(x, node)) {
		x->lost++;
		return;
	}
	c = x->counts + (size_t)node * x->nevents;
	for (uint32_t e = 0; e < x->nevents; e++)
		c[e] += w[e];
}

/* Whether n ranges are by increasing, disjoint segments. */
static bool ranges_ordered(const struct cp_range *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].from > r[i].to || (i && r[i].from <= r[i - 1].to))
			return false;
	return true;
}

void cpp_fold(struct cp_prefix *x, struct cp_range *ranges, uint32_t n, bool restart)
{
	free(x->ranges);
	x->ranges = NULL;
	x->nranges = 0;
	if (ranges_ordered(ranges, n)) {
		x->ranges = ranges;
		x->nranges = n;
	} else {
		free(ranges);
	}
	if (restart && x->counts)
		memset(x->counts, 0, (size_t)x->cap * x->nevents * sizeof(*x->counts));
}

/* Whether node has samples. */
static bool has_samples(const struct cp_prefix *x, uint32_t node)
{
	for (uint32_t e = 0; e < x->nevents; e++)
		if (x->counts[(size_t)node * x->nevents + e])
			return true;
	return false;
}

int cpp_records(const struct cp_prefix *x, struct prof_cp_prefix **out, uint32_t *n)
{
	uint32_t k = 0;

	*out = NULL;
	*n = 0;
	for (uint32_t node = 0; node < x->cap; node++)
		k += has_samples(x, node);
	if (!k)
		return 0;
	if (!(*out = calloc(k, sizeof(**out))))
		return -1;
	for (uint32_t node = 0; node < x->cap; node++) {
		struct prof_cp_prefix *r = &(*out)[*n];

		if (!has_samples(x, node))
			continue;
		if (!(r->counts = malloc((size_t)x->nevents * sizeof(*r->counts)))) {
			while ((*n)--)
				free((*out)[*n].counts);
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		memcpy(r->counts, x->counts + (size_t)node * x->nevents,
		       (size_t)x->nevents * sizeof(*r->counts));
		r->node = node;
		(*n)++;
	}
	return 0;
}

void cpp_free(struct cp_prefix *x)
{
	free(x->counts);
	free(x->ranges);
	cpp_init(x, x->nevents);
}
