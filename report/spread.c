/*
 * spread.c - how each function's time spreads over the ranks: min, mean
 * and max over the MPI ranks of its self samples of the first event, and
 * the rank of the max (docs/json.md "flat"), imbalance at a glance.
 *
 * merge_add keeps, per rank, its self samples by merged frame (only the
 * frames that have some: a few hundred per rank); flat_build folds them
 * into functions.  Linear in ranks x frames with samples.
 */
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "flat.h"
#include "spread.h"
#include "../common/sum.h"

static int by_frame(const void *a, const void *b)
{
	const struct rep_frame_count *x = a, *y = b;

	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* A merged profile's kept trees, read again from file for the page. */
static int add_kept(struct rep_spread *s, const struct profile *p, const char *file)
{
	struct rep_kept *v = realloc(s->kept, ((size_t)s->nkept + p->nkept + 1) * sizeof(*v));

	if (!v)
		return -1;
	s->kept = v;
	for (uint32_t i = 0; i < p->nkept; i++, s->nkept++) {
		v[s->nkept] = (struct rep_kept){ p->kept[i].rank, strdup(file), i };
		if (!v[s->nkept].file)
			return -1;
	}
	return 0;
}

/* A merged profile's function spreads, which are over its ranks already,
 * and its kept trees. */
static int add_merged(struct rep_spread *s, const struct profile *p, const char *file,
		      const uint32_t *fmap)
{
	struct prof_fn_spread *v = realloc(s->fns, ((size_t)s->nfns + p->nfn_spread + 1) *
					   sizeof(*v));

	if (!v)
		return -1;
	s->fns = v;
	for (uint32_t i = 0; i < p->nfn_spread; i++) {
		v[s->nfns] = p->fn_spread[i];
		v[s->nfns++].frame = fmap[p->fn_spread[i].frame];
	}
	s->merged_ranks += (uint32_t)p->merged;
	return add_kept(s, p, file);
}

int spread_add(struct rep_spread *s, const struct profile *p, const char *file,
	       const uint32_t *fmap, const uint32_t *emap)
{
	const struct cct *t = &p->tree;
	struct rep_frame_count *v;
	struct rep_rank_self *r;
	uint32_t e0 = 0, n = 0, k = 0;

	if (p->merged)
		return add_merged(s, p, file, fmap);
	if (p->rank < 0)
		return 0;	/* not an MPI rank */
	while (e0 < p->nevents && emap[e0] != 0)
		e0++;
	if (e0 == p->nevents)
		return 0;
	if (s->n == s->alloc) {
		uint32_t alloc = s->alloc ? 2 * s->alloc : 64;
		struct rep_rank_self *ranks = realloc(s->ranks, alloc * sizeof(*ranks));

		if (!ranks)
			return -1;
		s->ranks = ranks;
		s->alloc = alloc;
	}
	if (!(v = malloc(((size_t)t->nnodes + 1) * sizeof(*v))))
		return -1;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint64_t c = cct_self(t, i)[e0];

		if (c)
			v[n++] = (struct rep_frame_count){ fmap[t->frame[i]], c };
	}
	qsort(v, n, sizeof(*v), by_frame);
	for (uint32_t i = 0; i < n; i++) {
		if (k && v[k - 1].frame == v[i].frame)
			v[k - 1].count += v[i].count;
		else
			v[k++] = v[i];
	}
	r = &s->ranks[s->n];
	if (!(r->file = strdup(file))) {
		free(v);
		return -1;
	}
	s->n++;
	r->rank = p->rank;
	r->n = k;
	r->v = v;
	return 0;
}

void spread_release(struct rep_spread *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->ranks[i].v);
		free(s->ranks[i].file);
	}
	free(s->ranks);
	for (uint32_t i = 0; i < s->nkept; i++)
		free(s->kept[i].file);
	free(s->kept);
	free(s->fns);
	memset(s, 0, sizeof(*s));
}

/* Fold a merged profile's spread of one function into fns[fn]; seen and
 * sum count ranks and samples as the per-rank loop does. */
static void add_function(struct flat *f, uint32_t fn, const struct prof_fn_spread *m,
			 uint32_t *seen, uint64_t *sum)
{
	struct flat_fn *x = &f->fns[fn];

	if (!m->s.ranks)
		return;
	if (!seen[fn] || m->s.max > x->rank_max ||
	    (m->s.max == x->rank_max && m->s.max_rank < x->rank_max_at)) {
		x->rank_max = m->s.max;
		x->rank_max_at = m->s.max_rank;
	}
	if (m->s.min < x->rank_min)
		x->rank_min = m->s.min;
	seen[fn] += m->s.ranks;
	sum[fn] = sum_sat(sum[fn], m->sum);	/* a merged profile's, unchecked */
}

int spread_functions(const struct rep_spread *s, struct flat *f, const uint32_t *fn_of_frame)
{
	uint64_t *acc = calloc((size_t)f->nfns + 1, sizeof(*acc)), *sum;
	uint32_t *seen = calloc((size_t)f->nfns + 1, sizeof(*seen));

	sum = calloc((size_t)f->nfns + 1, sizeof(*sum));
	if (!acc || !seen || !sum) {
		free(acc);
		free(seen);
		free(sum);
		return -1;
	}
	for (uint32_t i = 0; i < f->nfns; i++)
		f->fns[i].rank_min = UINT64_MAX;
	for (uint32_t r = 0; r < s->n; r++) {
		const struct rep_rank_self *rs = &s->ranks[r];

		for (uint32_t i = 0; i < rs->n; i++)	/* a function's frames are not together */
			acc[fn_of_frame[rs->v[i].frame]] += rs->v[i].count;
		for (uint32_t i = 0; i < rs->n; i++) {
			uint32_t fn = fn_of_frame[rs->v[i].frame];
			struct flat_fn *x = &f->fns[fn];

			if (!acc[fn])
				continue;	/* this function's frames were taken already */
			if (!seen[fn]++ || acc[fn] > x->rank_max ||
			    (acc[fn] == x->rank_max && rs->rank < x->rank_max_at)) {
				x->rank_max = acc[fn];
				x->rank_max_at = rs->rank;
			}
			if (acc[fn] < x->rank_min)
				x->rank_min = acc[fn];
			sum[fn] += acc[fn];
			acc[fn] = 0;
		}
	}
	for (uint32_t k = 0; k < s->nfns; k++)
		add_function(f, fn_of_frame[s->fns[k].frame], &s->fns[k], seen, sum);
	for (uint32_t i = 0; i < f->nfns; i++) {
		struct flat_fn *x = &f->fns[i];
		uint32_t n = s->n + s->merged_ranks;

		x->nranks = n;
		if (seen[i] < n)
			x->rank_min = 0;	/* a rank without the function */
		x->rank_mean = n ? (double)sum[i] / n : 0;
		if (!seen[i])
			x->rank_max_at = -1;
	}
	free(acc);
	free(seen);
	free(sum);
	return 0;
}
