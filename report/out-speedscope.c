/*
 * out-speedscope.c - `cpperf report --format=speedscope`: speedscope's
 * file format (https://www.speedscope.app/file-format-schema.json), to
 * open in speedscope or anything that reads it.
 *
 * One "sampled" profile per event of the merged tree, then one per rank of
 * its own (the ranks the page shows: every rank of a small job, else rank
 * 0 and the ranks that compute most and least) of the first event; a
 * sample is a call path with self counts, weighted by them, its frames
 * outermost first, indices into "shared.frames".  Each tree's frames are
 * numbered once (a map per tree), the first time a walk meets them.
 */
#include <stdlib.h>
#include "json.h"
#include "model.h"
#include "out-speedscope.h"

#define UNKNOWN_FRAME "[unknown]"	/* the samples without any frame */

/* One tree being written. */
struct ss_walk {
	struct json_w *w;
	const struct rep_data *d;
	const struct tree_view *cp;
	uint32_t event;
	int64_t *index;		/* the tree's frame id -> shared index, -1: none yet */
	uint32_t *path;		/* shared indices of the current path, by depth */
	uint32_t *nshared;	/* frames numbered so far, over all trees */
	enum { NUMBER, SAMPLES, WEIGHTS } pass;
};

static void put_frame(struct json_w *w, const struct rep_data *d, uint32_t fr)
{
	const struct sym_frame *sf = fr == UINT32_MAX ? NULL : &d->syms.frames[fr];

	json_begin_object(w);
	json_key(w, "name");
	json_string(w, sf ? d->names[fr] : UNKNOWN_FRAME);
	if (sf && sf->file[0]) {
		json_key(w, "file");
		json_string(w, sf->file);
		if (sf->line) {
			json_key(w, "line");
			json_u64(w, sf->line);
		}
	}
	json_end_object(w);
}

/* The shared index of frame fr of the walk's tree (d->syms.nframes: the
 * root's "[unknown]"), numbered and written in the NUMBER pass. */
static uint32_t shared_index(struct ss_walk *s, uint32_t fr, uint32_t slot)
{
	if (s->index[slot] < 0) {
		s->index[slot] = (*s->nshared)++;
		put_frame(s->w, s->d, fr);
	}
	return (uint32_t)s->index[slot];
}

static int ss_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct ss_walk *s = ctx;
	uint64_t n = cct_self(s->cp->cct, node)[s->event];
	uint32_t nframes = s->d->syms.nframes;

	if (tree_total(s->cp, node)[s->event] == 0)
		return 0;
	if (node != CCT_ROOT && s->pass == NUMBER)
		s->path[depth] = shared_index(s, s->cp->cct->frame[node], s->cp->cct->frame[node]);
	else if (node != CCT_ROOT)
		s->path[depth] = (uint32_t)s->index[s->cp->cct->frame[node]];
	if (n == 0)
		return 1;
	if (node == CCT_ROOT && s->pass == NUMBER)
		s->path[1] = shared_index(s, UINT32_MAX, nframes);
	else if (node == CCT_ROOT)
		s->path[1] = (uint32_t)s->index[nframes];
	if (s->pass == WEIGHTS) {
		json_u64(s->w, n);
	} else if (s->pass == SAMPLES) {
		json_begin_array(s->w);
		for (uint32_t i = 1; i <= (node == CCT_ROOT ? 1 : depth); i++)
			json_u64(s->w, s->path[i]);
		json_end_array(s->w);
	}
	return 1;
}

/* The trees written: the merged one, then the ranks' own. */
struct ss_tree {
	const struct rep_data *d;
	const struct tree_view *cp;
	int64_t rank;		/* -1: the merged tree */
	int64_t *index;
};

/* The profile of event ev of tree cp of d (its frames numbered), named. */
static int put_profile(struct ss_walk *s, const char *name)
{
	struct json_w *w = s->w;
	const uint64_t all = tree_total(s->cp, CCT_ROOT)[s->event];

	json_begin_object(w);
	json_key(w, "type");
	json_string(w, "sampled");
	json_key(w, "name");
	json_string(w, name);
	json_key(w, "unit");
	json_string(w, "none");
	json_key(w, "startValue");
	json_u64(w, 0);
	json_key(w, "endValue");
	json_u64(w, all);
	json_key(w, "samples");
	json_begin_array(w);
	s->pass = SAMPLES;
	if (tree_walk(s->cp, ss_enter, NULL, s) < 0)
		return -1;
	json_end_array(w);
	json_key(w, "weights");
	json_begin_array(w);
	s->pass = WEIGHTS;
	if (tree_walk(s->cp, ss_enter, NULL, s) < 0)
		return -1;
	json_end_array(w);
	json_end_object(w);
	return 0;
}


/* Call fn on s set to each profile written, in order: every event of the
 * merged tree, then the first event of each rank's own. */
static int each_profile(struct ss_walk *s, const struct ss_tree *t, uint32_t ntrees,
			uint32_t nevents, int (*fn)(struct ss_walk *s, const struct ss_tree *t))
{
	for (uint32_t k = 0; k < ntrees; k++) {
		s->d = t[k].d;
		s->cp = t[k].cp;
		s->index = t[k].index;
		for (s->event = 0; s->event < (t[k].rank < 0 ? nevents : 1); s->event++)
			if (fn(s, &t[k]) < 0)
				return -1;
	}
	return 0;
}

/* Number (and write) the frames a profile meets. */
static int number_frames(struct ss_walk *s, const struct ss_tree *t)
{
	(void)t;
	s->pass = NUMBER;
	return tree_walk(s->cp, ss_enter, NULL, s);
}

static int write_profile(struct ss_walk *s, const struct ss_tree *t)
{
	char name[160];

	if (t->rank < 0)
		snprintf(name, sizeof(name), "all ranks: %s", s->d->events[s->event].name);
	else
		snprintf(name, sizeof(name), "rank %lld: %s", (long long)t->rank,
			 s->d->events[s->event].name);
	return put_profile(s, name);
}

/* The trees and their frame maps; NULL when memory is short. */
static struct ss_tree *make_trees(const struct rep_model *m, uint32_t *ntrees)
{
	struct ss_tree *t = calloc((size_t)m->nrank_trees + 1, sizeof(*t));

	*ntrees = 0;
	if (!t)
		return NULL;
	t[0] = (struct ss_tree){ m->d, m->cp, -1, NULL };
	for (uint32_t i = 0; i < m->nrank_trees; i++)
		t[i + 1] = (struct ss_tree){ &m->rank_trees[i].one, &m->rank_trees[i].cp,
					     m->rank_trees[i].rank, NULL };
	for (uint32_t k = 0; k <= m->nrank_trees; k++) {
		size_t n = (size_t)t[k].d->syms.nframes + 1;

		if (!(t[k].index = malloc(n * sizeof(*t[k].index)))) {
			*ntrees = k;
			return t;
		}
		for (size_t i = 0; i < n; i++)
			t[k].index[i] = -1;
	}
	*ntrees = m->nrank_trees + 1;
	return t;
}

int rep_speedscope(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	struct ss_walk s = { .nshared = &(uint32_t){ 0 } };
	struct json_w w;
	struct ss_tree *t;
	uint32_t ntrees, longest = 0;
	int rc = -1;

	t = make_trees(m, &ntrees);
	for (uint32_t k = 0; k < ntrees; k++)
		longest = t[k].cp->cct->nnodes > longest ? t[k].cp->cct->nnodes : longest;
	s.path = malloc(((size_t)longest + 2) * sizeof(*s.path));
	if (!t || ntrees != m->nrank_trees + 1 || !s.path)
		goto out;
	json_init(&w, out);
	s.w = &w;
	json_begin_object(&w);
	json_key(&w, "$schema");
	json_string(&w, "https://www.speedscope.app/file-format-schema.json");
	json_key(&w, "exporter");
	json_string(&w, "cpperf " CPPERF_VERSION);
	json_key(&w, "name");
	json_string(&w, d->argc ? d->argv[0] : "cpperf");
	json_key(&w, "activeProfileIndex");
	json_u64(&w, 0);
	json_key(&w, "shared");
	json_begin_object(&w);
	json_key(&w, "frames");
	json_begin_array(&w);
	if (each_profile(&s, t, ntrees, d->nevents, number_frames) < 0)
		goto out;
	json_end_array(&w);
	json_end_object(&w);
	json_key(&w, "profiles");
	json_begin_array(&w);
	if (each_profile(&s, t, ntrees, d->nevents, write_profile) < 0)
		goto out;
	json_end_array(&w);
	json_end_object(&w);
	rc = json_finish(&w);
out:
	for (uint32_t k = 0; t && k < ntrees; k++)
		free(t[k].index);
	free(t);
	free(s.path);
	return rc;
}
