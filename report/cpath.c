/*
 * cpath.c - the critical path: the walk and the profile (the reference's
 * lengths are recomputed in cpath-ref.c).
 *
 * Online, every rank carried its path length in the piggyback and kept a
 * link wherever a remote length won at the exit of an event; the report
 * walks those links back from the rank whose length is largest at its last
 * event (docs/critical-path.md).  With --cp-trace every dependency and
 * segment length was recorded too, so --reference recomputes the lengths
 * offline, derives the winning dependency of every exit the same way, and
 * walks those: the same walk (common/cp-walk.c, which the runtime uses
 * too), other links.  Neither recurses: the walk is a loop of one step per
 * link followed (bounded by the links, whatever the events' numbers), the
 * reference advances ranks from a work queue while the dependencies of
 * their next exit are known.  The
 * path's profile sums the segment samples of every run into a tree with
 * the node ids of the merged tree, so the call-path renderers apply.
 *
 * Zeroing (docs/critical-path.md "Zeroing"): online, the run's net length
 * of a selected function f is the largest N_f the ranks wrote (L for a
 * rank that never started) and its share S_f is the end rank's; the
 * reference recomputes N_f and S_f over the --cp-trace graph in the same
 * pass as L, with f's time in a segment apportioned from the segment's
 * samples whose call path holds f.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpath.h"
#include "cpath-int.h"
#include "data.h"
#include "flat.h"
#include "model.h"
#include "show.h"
#include "tree.h"
#include "../common/order.h"

int cpath_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory computing the critical path");
	return -1;
}

/* Index of rank in c (sorted by rank), or -1. */
long cpath_rank_index(const struct rep_cpath *c, int64_t rank)
{
	size_t i = order_lower_i64(c->ranks, c->nranks, sizeof(*c->ranks),
				   offsetof(struct rep_cp_rank, rank), rank);

	return i < c->nranks && c->ranks[i].rank == rank ? (long)i : -1;
}

/* See cpath-int.h. */
int cpath_walk_from(const struct rep_cpath *c, const struct cp_walk_rank *v, uint32_t start,
		    struct cpath_result *r, char *err, size_t errlen)
{
	struct cp_walk w;

	if (cp_walk_back(v, c->nranks, start, c->ranks[start].events - 1, "the experiment", &w,
			 err, errlen) < 0)
		return -1;
	r->runs = w.runs;
	r->nruns = w.nruns;
	r->cut = w.cut;
	r->cut_rank = w.cut_rank;
	r->cut_event = w.cut_event;
	r->cut_budget = w.cut_budget;
	return 0;
}

void cpath_release(struct cpath_result *r)
{
	free(r->zero);
	free(r->runs);
	free(r->fns);
	tree_release(&r->cp);
	cct_release(&r->tree);
	memset(r, 0, sizeof(*r));
}

uint64_t cpath_max_wall(const struct rep_cpath *c)
{
	uint64_t w = 0;

	for (uint32_t i = 0; i < c->nranks; i++)
		w = c->ranks[i].wall_ns > w ? c->ranks[i].wall_ns : w;
	return w;
}

/*
 * Fill r->zero from each selected function's net length net[f] and share
 * share[f] (r->length_ns already set).  Returns 0 or -1 (memory).
 */
int cpath_fill_zero(struct cpath_result *r, const struct rep_cpath *c, const uint64_t *net,
		    const uint64_t *share, char *err, size_t errlen)
{
	if (c->nfns == 0)
		return 0;
	if (!(r->zero = calloc(c->nfns, sizeof(*r->zero))))
		return cpath_oom(err, errlen);
	r->nzero = c->nfns;
	for (uint32_t f = 0; f < c->nfns; f++) {
		struct cpath_zero *z = &r->zero[f];

		z->name = c->fn_names[f];
		z->net_ns = net[f];
		z->saving_ns = r->length_ns > net[f] ? r->length_ns - net[f] : 0;
		z->saving_pct = r->length_ns ? 100.0 * (double)z->saving_ns /
			(double)r->length_ns : 0.0;
		z->share_ns = share[f];
	}
	return 0;
}

/* The online zeroing: N_f is the largest over the ranks (L where a rank
 * never started), S_f the one of the rank at index end. */
static int zero_online(const struct rep_cpath *c, uint32_t end, struct cpath_result *r,
		       char *err, size_t errlen)
{
	uint64_t net[PROF_CP_FNS] = { 0 }, share[PROF_CP_FNS] = { 0 };

	for (uint32_t i = 0; i < c->nranks; i++) {
		const struct rep_cp_rank *rk = &c->ranks[i];

		for (uint32_t f = 0; f < c->nfns; f++) {
			uint64_t n = cpath_fn_tracked(rk) ? rk->fn_net[f] : rk->length_ns;

			net[f] = n > net[f] ? n : net[f];
			if (i == end && cpath_fn_tracked(rk))
				share[f] = rk->fn_share[f];
		}
	}
	return cpath_fill_zero(r, c, net, share, err, errlen);
}

/* Whether every rank of c resolved the same fold points (they are
 * collective): the same number, length and gap.  Returns 0, or -1 with a
 * message naming two ranks that differ. */
static int folds_agree(const struct rep_cpath *c, char *err, size_t errlen)
{
	const struct rep_cp_rank *a = &c->ranks[0];

	for (uint32_t i = 1; i < c->nranks; i++) {
		const struct rep_cp_rank *b = &c->ranks[i];

		if (a->folds == b->folds && a->fold_ns == b->fold_ns &&
		    a->gap_rank == b->gap_rank && a->gap_event == b->gap_event)
			continue;
		snprintf(err, errlen, "critical path: rank %lld resolved %llu fold points (the "
			 "last at %.6f s), rank %lld %llu (at %.6f s): their profiles are not of "
			 "one run", (long long)a->rank, (unsigned long long)a->folds,
			 (double)a->fold_ns / 1e9, (long long)b->rank,
			 (unsigned long long)b->folds, (double)b->fold_ns / 1e9);
		return -1;
	}
	return 0;
}

/* Rank rk as the walk sees it: its segments after its fold point, or
 * after the records it dropped past its budget since. */
static struct cp_walk_rank walk_rank(const struct rep_cp_rank *rk)
{
	uint64_t after_fold = rk->fold_event + 1;
	bool dropped = rk->cut > after_fold;

	return (struct cp_walk_rank){ rk->rank, rk->events, dropped ? rk->cut : after_fold,
				      dropped, rk->budget, &rk->links, NULL, 0 };
}

/* After the online walk: the prefix of the fold points when the walk
 * reached the last, and the gap a fold's walk met, if any. */
static void take_folds(const struct rep_cpath *c, struct cpath_result *r)
{
	const struct rep_cp_rank *any = &c->ranks[0];
	long g;

	if (r->cut || !any->folds)
		return;
	r->folds = any->folds;
	r->fold_ns = any->fold_ns;
	if (!any->gap_event)
		return;
	g = cpath_rank_index(c, any->gap_rank);
	r->cut = true;
	r->cut_rank = any->gap_rank;
	r->cut_event = any->gap_event;
	r->cut_budget = g < 0 ? 0 : c->ranks[g].budget;
}

int cpath_walk(const struct rep_cpath *c, struct cpath_result *r, char *err, size_t errlen)
{
	struct cp_walk_rank *v;
	uint32_t start = 0;
	int rc;

	cpath_result_init(r);
	if (!cpath_present(c)) {
		snprintf(err, errlen, "no critical-path data in this experiment");
		return -1;
	}
	if (folds_agree(c, err, errlen) < 0)
		return -1;
	if (!(v = malloc((size_t)c->nranks * sizeof(*v))))
		return cpath_oom(err, errlen);
	for (uint32_t i = 0; i < c->nranks; i++) {
		v[i] = walk_rank(&c->ranks[i]);
		if (c->ranks[i].length_ns > c->ranks[start].length_ns)
			start = i;	/* strictly: the lowest rank wins ties */
	}
	r->end_rank = c->ranks[start].rank;
	r->length_ns = c->ranks[start].length_ns;
	r->wall_ns = cpath_max_wall(c);
	rc = cpath_walk_from(c, v, start, r, err, errlen);
	if (rc == 0) {
		take_folds(c, r);
		rc = zero_online(c, start, r, err, errlen);
	}
	free(v);
	if (rc < 0)
		cpath_release(r);
	return rc;
}

int cpath_fn_masks(const struct rep_data *d, uint8_t **mask, char *err, size_t errlen)
{
	const struct rep_cpath *c = &d->cpath;
	uint8_t *fm, *m;

	*mask = NULL;
	if (c->nfns == 0)
		return 0;
	fm = calloc((size_t)d->syms.nframes + 1, 1);
	m = calloc((size_t)d->tree.nnodes + 1, 1);
	if (!fm || !m) {
		free(fm);
		free(m);
		return cpath_oom(err, errlen);
	}
	for (uint32_t fr = 0; fr < d->syms.nframes; fr++)
		for (uint32_t f = 0; f < c->nfns; f++)
			if (!strcmp(d->syms.frames[fr].function, c->fn_names[f]) ||
			    (d->names && d->names[fr] && !strcmp(d->names[fr], c->fn_names[f])))
				fm[fr] |= (uint8_t)(1u << f);
	/* Parents have smaller ids than their children (cct.h). */
	for (uint32_t n = 1; n < d->tree.nnodes; n++) {
		uint32_t fr = d->tree.frame[n];

		m[n] = m[d->tree.parent[n]] | (fr < d->syms.nframes ? fm[fr] : 0);
	}
	free(fm);
	*mask = m;
	return 0;
}

/* ---- the path's profile ---- */

/* Add counts src (d's events) to node of r->tree. */
static void add_counts(struct cpath_result *r, const struct rep_data *d, uint32_t node,
		       const uint64_t *src)
{
	uint64_t *dst = cct_self(&r->tree, node);

	for (uint32_t e = 0; e < d->nevents; e++)
		dst[e] += src[e];
}

/* Sum the segment samples of every run, and with fold points every rank's
 * prefix, into r->tree (d->tree's shape). */
static int sum_runs(struct cpath_result *r, const struct rep_data *d, char *err,
		    size_t errlen)
{
	const struct rep_cpath *c = &d->cpath;

	if (cct_init(&r->tree, d->nevents) < 0)
		return cpath_oom(err, errlen);
	/* Replaying in id order gives every node its id in d->tree. */
	for (uint32_t n = 1; n < d->tree.nnodes; n++)
		if (cct_child(&r->tree, d->tree.parent[n], d->tree.frame[n]) != n)
			return cpath_oom(err, errlen);
	for (uint32_t i = 0; r->folds && i < c->nranks; i++)
		for (uint32_t k = 0; k < c->ranks[i].nprefix; k++)
			add_counts(r, d, c->ranks[i].prefix_nodes[k],
				   c->ranks[i].prefix_counts + (size_t)k * c->nevents);
	for (uint32_t k = 0; k < r->nruns; k++) {
		const struct cp_run *run = &r->runs[k];
		const struct rep_cp_rank *rk = &c->ranks[cpath_rank_index(c, run->rank)];
		uint32_t lo = 0, hi = rk->nsegs;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (rk->segs[mid].seg < run->from)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < rk->nsegs && rk->segs[lo].seg <= run->to; lo++)
			add_counts(r, d, rk->segs[lo].node, rk->counts + (size_t)lo * c->nevents);
	}
	return 0;
}

static int cmp_fn_key(const void *a, const void *b, void *arg)
{
	const struct flat_fn *x = *(const struct flat_fn *const *)a;
	const struct flat_fn *y = *(const struct flat_fn *const *)b;
	int c = strcmp(x->name, y->name);

	(void)arg;
	if (c)
		return c;
	return x->module < y->module ? -1 : x->module > y->module;
}

/* The entry of all (sorted by cmp_fn_key) for fn's function, or NULL. */
static const struct flat_fn *const *find_fn(const struct flat_fn **all, uint32_t n,
					     const struct flat_fn *fn)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cmp_fn_key(&all[mid], &fn, NULL) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cmp_fn_key(&all[lo], &fn, NULL) == 0 ? &all[lo] : NULL;
}

/* The per-function table: functions with path samples of event 0, in the
 * order of cpf (by those samples), cpu_pct from d's flat profile f. */
static int make_fns(struct cpath_result *r, const struct flat *cpf, const struct flat *f,
		    char *err, size_t errlen)
{
	const struct flat_fn **all = malloc(((size_t)f->nfns + 1) * sizeof(*all));

	r->fns = calloc((size_t)cpf->nfns + 1, sizeof(*r->fns));
	if (!all || !r->fns) {
		free(all);
		return cpath_oom(err, errlen);
	}
	for (uint32_t i = 0; i < f->nfns; i++)
		all[i] = &f->fns[i];
	qsort_r(all, f->nfns, sizeof(*all), cmp_fn_key, NULL);
	r->all = cpf->all[0];
	for (uint32_t i = 0; i < cpf->nfns; i++) {
		const struct flat_fn *fn = &cpf->fns[i], *const *hit;
		struct cpath_fn *o = &r->fns[r->nfns];

		if (fn->self[0] == 0)
			continue;
		hit = find_fn(all, f->nfns, fn);
		o->name = fn->name;
		o->module = fn->module;
		o->samples = fn->self[0];
		o->cp_pct = rep_pct(fn->self[0], r->all);
		o->cp_time = r->all ? (double)r->length_ns / 1e9 * (double)fn->self[0] /
			(double)r->all : 0.0;
		o->cpu_pct = hit ? rep_pct((*hit)->self[0], f->all[0]) : 0.0;
		r->nfns++;
	}
	free(all);
	return 0;
}

/* Each zeroing row's CP time: the walk's of the functions so named. */
static void zero_cp_time(struct cpath_result *r)
{
	for (uint32_t z = 0; z < r->nzero; z++)
		for (uint32_t i = 0; i < r->nfns; i++)
			if (!strcmp(r->fns[i].name, r->zero[z].name))
				r->zero[z].cp_time += r->fns[i].cp_time;
}

int cpath_build(struct cpath_result *r, const struct rep_data *d, const struct flat *f,
		bool reference, char *err, size_t errlen)
{
	struct flat cpf;
	uint8_t *mask = NULL;
	int rc;

	if (reference && cpath_fn_masks(d, &mask, err, errlen) < 0)
		return -1;
	rc = reference ? cpath_reference(&d->cpath, mask, d->tree.nnodes, r, err, errlen) :
		cpath_walk(&d->cpath, r, err, errlen);
	free(mask);
	if (rc < 0)
		return -1;
	if (sum_runs(r, d, err, errlen) < 0 ||
	    tree_build(&r->cp, &r->tree, 0, err, errlen) < 0) {
		cpath_release(r);
		return -1;
	}
	if (flat_build(&cpf, d, &r->cp, 0, err, errlen) < 0) {
		cpath_release(r);
		return -1;
	}
	rc = make_fns(r, &cpf, f, err, errlen);
	flat_release(&cpf);
	if (rc < 0)
		cpath_release(r);
	else
		zero_cp_time(r);
	return rc;
}
