/*
 * thread-view.c - the thread activity's view (thread-view.h).  The
 * columns become the counts of a copy of the merged tree's shape, so that
 * the tree's totals and the flat profile's walk (recursion counted once)
 * give them per node and per function as they give samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge-act.h"
#include "thread-view.h"

static int by_location(const void *a, const void *b)
{
	const struct flat_fn *x = *(const struct flat_fn *const *)a;
	const struct flat_fn *y = *(const struct flat_fn *const *)b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	return x->module < y->module ? -1 : x->module > y->module;
}

/* d's tree's shape with the activity columns as counts. */
static int make_cols(struct cct *c, const struct rep_data *d)
{
	size_t cells = (size_t)d->tree.nnodes * PROF_ACTS;

	*c = d->tree;
	c->nevents = PROF_ACTS;
	c->slots = NULL;
	c->nslots = 0;
	if (!(c->self = calloc(cells + 1, sizeof(*c->self))))
		return -1;
	for (uint32_t n = 0; n < d->tree.nnodes; n++) {
		const uint64_t *row = rep_act_node(&d->act, n);

		if (row)
			memcpy(c->self + (size_t)n * PROF_ACTS, row, PROF_ACTS * sizeof(*row));
	}
	return 0;
}

static void sum_threads(struct thr_view *v, const struct rep_data *d)
{
	const uint64_t *root = tree_total(&v->tv, CCT_ROOT);
	uint64_t worked = root[PROF_ACT_sequential] + root[PROF_ACT_concurrent];

	for (uint32_t i = 0; i < d->nthreads; i++) {
		const uint64_t *a = d->threads[i].act;

		v->work += a[PROF_ACT_sequential] + a[PROF_ACT_concurrent];
		v->spin += a[PROF_ACT_spin];
		v->idle += a[PROF_ACT_idle];
	}
	v->working = root[PROF_ACT_working];
	v->efficiency = v->work + v->spin + v->idle ?
			(double)v->work / (double)(v->work + v->spin + v->idle) : 0;
	v->mean_working = worked ? (double)v->working / (double)worked : 0;
}

int thr_build(struct thr_view *v, const struct rep_data *d, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	if (make_cols(&v->cols, d) < 0 ||
	    tree_build(&v->tv, &v->cols, PROF_ACT_sequential, err, errlen) < 0 ||
	    flat_build(&v->fns, d, &v->tv, PROF_ACT_sequential, err, errlen) < 0 ||
	    !(v->by_name = malloc(((size_t)v->fns.nfns + 1) * sizeof(*v->by_name)))) {
		thr_release(v);
		snprintf(err, errlen, "out of memory building the thread activity");
		return -1;
	}
	for (uint32_t i = 0; i < v->fns.nfns; i++)
		v->by_name[i] = &v->fns.fns[i];
	qsort(v->by_name, v->fns.nfns, sizeof(*v->by_name), by_location);
	sum_threads(v, d);
	return 0;
}

void thr_release(struct thr_view *v)
{
	free(v->by_name);
	flat_release(&v->fns);
	tree_release(&v->tv);
	free(v->cols.self);
	memset(v, 0, sizeof(*v));
}

const uint64_t *thr_node(const struct thr_view *v, uint32_t n)
{
	return n < v->cols.nnodes ? tree_total(&v->tv, n) : NULL;
}

const uint64_t *thr_function(const struct thr_view *v, const char *name, uint32_t module)
{
	struct flat_fn key = { .name = name, .module = module };
	const struct flat_fn *k = &key, *const *hit;

	hit = bsearch(&k, v->by_name, v->fns.nfns, sizeof(*v->by_name), by_location);
	return hit ? (*hit)->total : NULL;
}
