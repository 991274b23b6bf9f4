/*
 * flat.c - the flat profile: self and total samples per function.
 *
 * A function is a (demangled name, module) pair, so inline copies and the
 * frames of several profiles that name the same function fold into one
 * row.  Self is the sum of the exclusive counts of the function's nodes.
 * Total must count a sample once even when the function is on its stack
 * several times (recursion), so it is computed by a depth-first walk that
 * keeps, per function, how many times it is on the current path, and adds a
 * node's inclusive count only at the function's outermost occurrence.  The
 * walk visits each node once: linear in the tree size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "flat.h"
#include "model.h"
#include "show.h"
#include "spread.h"
#include "tree.h"
#include "../common/hash.h"

struct fn_index {
	uint32_t *slots;	/* function id + 1, 0 when empty */
	uint32_t mask;
};

struct flat_walk {
	struct flat *f;
	const struct tree_view *cp;
	const uint32_t *fn_of_frame;
	uint32_t *on_path;	/* [nfns] */
};

static uint64_t hash_fn(const char *name, uint32_t module)
{
	return hash_bytes(hash_u64(module) ^ HASH_SEED, name, strlen(name));
}

/* Return the function id of frame fr, adding a row when it is new. */
static uint32_t intern_fn(struct flat *f, struct fn_index *ix, const struct rep_data *d,
			  uint32_t fr)
{
	const struct sym_frame *sf = &d->syms.frames[fr];
	const char *name = d->names[fr];
	uint32_t i = (uint32_t)hash_fn(name, sf->module) & ix->mask;

	for (; ix->slots[i]; i = (i + 1) & ix->mask) {
		struct flat_fn *fn = &f->fns[ix->slots[i] - 1];

		if (fn->module == sf->module && !strcmp(fn->name, name))
			return ix->slots[i] - 1;
	}
	struct flat_fn *fn = &f->fns[f->nfns];

	fn->name = name;
	fn->module = sf->module;
	fn->file = sf->file;
	fn->line = sf->line;
	fn->self = f->counts + (size_t)f->nfns * 2 * f->nevents;
	fn->total = fn->self + f->nevents;
	ix->slots[i] = ++f->nfns;
	return f->nfns - 1;
}

static int enter_node(void *ctx, uint32_t node, uint32_t depth)
{
	struct flat_walk *w = ctx;

	(void)depth;
	if (node == CCT_ROOT)
		return 1;
	uint32_t fn = w->fn_of_frame[w->cp->cct->frame[node]];

	if (w->on_path[fn]++ == 0) {
		const uint64_t *tot = tree_total(w->cp, node);

		for (uint32_t e = 0; e < w->f->nevents; e++)
			w->f->fns[fn].total[e] += tot[e];
	}
	return 1;
}

static int leave_node(void *ctx, uint32_t node, uint32_t depth)
{
	struct flat_walk *w = ctx;

	(void)depth;
	if (node != CCT_ROOT)
		w->on_path[w->fn_of_frame[w->cp->cct->frame[node]]]--;
	return 0;
}

struct sort_ctx {
	uint32_t event, nevents;
	const struct rep_data *d;
};

static int cmp_fns(const void *a, const void *b, void *arg)
{
	const struct flat_fn *x = a, *y = b;
	const struct sort_ctx *s = arg;
	int c;

	if (s->event < s->nevents && x->self[s->event] != y->self[s->event])
		return x->self[s->event] > y->self[s->event] ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	return strcmp(rep_module_path(s->d, x->module), rep_module_path(s->d, y->module));
}

/* Give every frame its function id and sum the self counts. */
static int assign_functions(struct flat *f, const struct rep_data *d, const struct cct *t,
			    uint32_t *fn_of_frame)
{
	struct fn_index ix;
	uint32_t n = 16;

	while (n < 2 * d->syms.nframes)
		n *= 2;
	ix.mask = n - 1;
	ix.slots = calloc(n, sizeof(*ix.slots));
	if (!ix.slots)
		return -1;
	for (uint32_t fr = 0; fr < d->syms.nframes; fr++)
		fn_of_frame[fr] = intern_fn(f, &ix, d, fr);
	free(ix.slots);
	for (uint32_t node = 1; node < t->nnodes; node++) {
		const uint64_t *self = cct_self(t, node);
		struct flat_fn *fn = &f->fns[fn_of_frame[t->frame[node]]];

		for (uint32_t e = 0; e < f->nevents; e++)
			fn->self[e] += self[e];
	}
	return 0;
}

/* Remove functions that are on no sampled path (frames only of nodes
 * without counts). */
static void drop_unsampled(struct flat *f)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < f->nfns; i++) {
		uint32_t e = 0;

		while (e < f->nevents && f->fns[i].total[e] == 0)
			e++;
		if (e < f->nevents)
			f->fns[kept++] = f->fns[i];
	}
	f->nfns = kept;
}

int flat_build(struct flat *f, const struct rep_data *d, const struct tree_view *cp,
	       uint32_t sort_event, char *err, size_t errlen)
{
	size_t nfr = (size_t)d->syms.nframes + 1;
	struct flat_walk w = { f, cp, NULL, NULL };
	uint32_t *fn_of_frame = malloc(nfr * sizeof(*fn_of_frame));
	int rc = -1;

	memset(f, 0, sizeof(*f));
	f->nevents = cp->nevents;
	f->fns = calloc(nfr, sizeof(*f->fns));
	f->counts = calloc(nfr * 2 * (f->nevents + 1), sizeof(*f->counts));
	f->all = calloc((size_t)f->nevents + 1, sizeof(*f->all));
	if (fn_of_frame && f->fns && f->counts && f->all &&
	    assign_functions(f, d, cp->cct, fn_of_frame) == 0 &&
	    (cp->nevents != d->nevents || spread_functions(&d->spread, f, fn_of_frame) == 0) &&
	    (w.on_path = calloc((size_t)f->nfns + 1, sizeof(*w.on_path)))) {
		w.fn_of_frame = fn_of_frame;
		rc = tree_walk(cp, enter_node, leave_node, &w);
	}
	free(fn_of_frame);
	free(w.on_path);
	if (rc < 0) {
		flat_release(f);
		snprintf(err, errlen, "out of memory building the flat profile");
		return -1;
	}
	memcpy(f->all, tree_total(cp, CCT_ROOT), f->nevents * sizeof(*f->all));
	drop_unsampled(f);
	struct sort_ctx s = { sort_event, f->nevents, d };

	qsort_r(f->fns, f->nfns, sizeof(*f->fns), cmp_fns, &s);
	return 0;
}

void flat_release(struct flat *f)
{
	free(f->fns);
	free(f->counts);
	free(f->all);
	memset(f, 0, sizeof(*f));
}
