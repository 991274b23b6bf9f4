/*
 * activity.c - which threads were working at each sample (activity.h).
 * A sample is judged against every other thread's samples near it: a
 * look-up by bisection in each, so a sample costs O(threads * log).
 */
#include <stdlib.h>
#include <string.h>

#include "activity.h"

/* How far from a sample another thread's sample still says it was
 * working, and the longest gap between two samples of a thread running
 * all along: a window and a half, for the jitter of sampling. */
static uint64_t reach(const struct act_state *a)
{
	return a->window + a->window / 2;
}

void act_start(struct act_state *a, uint64_t window_ns)
{
	memset(a, 0, sizeof(*a));
	a->window = window_ns;
}

struct act_thread *act_thread_new(struct act_state *a, uint64_t born, bool team)
{
	struct act_thread *t;

	if (!a->window)
		return NULL;
	if (!(t = calloc(1, sizeof(*t)))) {
		a->failed = true;
		return NULL;
	}
	t->born = born;
	t->team = team;
	t->next = a->threads;
	a->threads = t;
	return t;
}

void act_thread_end(struct act_thread *t, uint64_t died)
{
	if (t && !t->died)
		t->died = died ? died : 1;
}

void act_sample(struct act_state *a, struct act_thread *t, uint64_t time, uint32_t node,
		bool spin)
{
	if (!t)
		return;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 64;
		struct act_sample *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			a->failed = true;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	if (t->n && time < t->v[t->n - 1].t)	/* a thread's are in order */
		time = t->v[t->n - 1].t;
	t->v[t->n++] = (struct act_sample){ time, node, spin };
}

static double *node_row(struct act_state *a, uint32_t node)
{
	if (node >= a->cap) {
		uint32_t cap = a->cap ? a->cap : 256;
		double *v;

		while (cap <= node)
			cap *= 2;
		if (!(v = realloc(a->node, (size_t)cap * PROF_ACTS * sizeof(*v)))) {
			a->failed = true;
			return NULL;
		}
		memset(v + (size_t)a->cap * PROF_ACTS, 0,
		       (size_t)(cap - a->cap) * PROF_ACTS * sizeof(*v));
		a->node = v;
		a->cap = cap;
	}
	return a->node + (size_t)node * PROF_ACTS;
}

static void add(struct act_state *a, struct act_thread *t, uint32_t node,
		enum prof_act_col col, double v)
{
	double *row = node_row(a, node);

	if (row)
		row[col] += v;
	t->col[col] += v;
}

/* The samples a thread running from `from` to `to` would have had beyond
 * the one at `to`, when the gap is longer than running all along allows:
 * its time off the CPU, idle, charged to the call path it left (node). */
static void add_gap(struct act_state *a, struct act_thread *t, uint64_t from, uint64_t to,
		    uint32_t node, bool has_node)
{
	double missing;

	if (to <= from || to - from <= reach(a))
		return;
	missing = (double)(to - from) / (double)a->window - 1;
	if (has_node)
		add(a, t, node, PROF_ACT_idle, missing);
	else
		t->col[PROF_ACT_idle] += missing;
}

static bool alive_at(const struct act_thread *u, uint64_t t)
{
	return u->born <= t && (!u->died || t <= u->died);
}

/* Whether u has a sample out of a runtime's wait in [lo, hi]. */
static bool working_in(const struct act_thread *u, uint64_t lo, uint64_t hi)
{
	uint32_t l = 0, h = u->n;

	while (l < h) {
		uint32_t m = l + (h - l) / 2;

		if (u->v[m].t < lo)
			l = m + 1;
		else
			h = m;
	}
	for (; l < u->n && u->v[l].t <= hi; l++)
		if (!u->v[l].spin)
			return true;
	return false;
}

static void judge(struct act_state *a, struct act_thread *t, const struct act_sample *s)
{
	uint64_t r = reach(a), lo = s->t > r ? s->t - r : 0, hi = s->t + r;
	unsigned working = 1, idle = 0;

	add_gap(a, t, t->any ? t->last_t : t->born, s->t, t->any ? t->last_node : s->node, true);
	t->any = true;
	t->last_t = s->t;
	t->last_node = s->node;
	if (s->spin) {
		add(a, t, s->node, PROF_ACT_spin, 1);
		return;
	}
	for (const struct act_thread *u = a->threads; u; u = u->next) {
		if (u == t || !u->team || !alive_at(u, s->t))
			continue;
		if (working_in(u, lo, hi))
			working++;
		else
			idle++;
	}
	add(a, t, s->node, working == 1 ? PROF_ACT_sequential : PROF_ACT_concurrent, 1);
	add(a, t, s->node, PROF_ACT_working, working);
	if (idle)
		add(a, t, s->node, PROF_ACT_idle_blame, (double)idle / working);
}

/* Forget the judged samples no later judgement looks at: those before
 * what is still to judge, less its reach. */
static void trim(struct act_thread *t, uint64_t keep_from)
{
	uint32_t k = 0;

	while (k < t->done && t->v[k].t < keep_from)
		k++;
	if (!k)
		return;
	memmove(t->v, t->v + k, (t->n - k) * sizeof(*t->v));
	t->n -= k;
	t->done -= k;
}

void act_resolve(struct act_state *a, uint64_t horizon)
{
	uint64_t r = reach(a);

	if (!a->window)
		return;
	for (struct act_thread *t = a->threads; t; t = t->next)
		while (t->done < t->n &&
		       (horizon == UINT64_MAX || t->v[t->done].t + r <= horizon)) {
			judge(a, t, &t->v[t->done]);
			t->done++;
		}
	if (horizon == UINT64_MAX || horizon < 2 * r)
		return;
	for (struct act_thread *t = a->threads; t; t = t->next)
		trim(t, horizon - 2 * r);
}

void act_finish(struct act_state *a, uint64_t end)
{
	act_resolve(a, UINT64_MAX);
	for (struct act_thread *t = a->threads; t; t = t->next) {
		uint64_t stop = t->died ? t->died : end;

		add_gap(a, t, t->any ? t->last_t : t->born, stop, t->last_node, t->any);
		t->any = true;
		t->last_t = stop > t->last_t ? stop : t->last_t;
	}
}

static uint64_t units(double v)
{
	return v > 0 ? (uint64_t)(v * PROF_ACT_UNIT + 0.5) : 0;
}

int act_nodes(const struct act_state *a, struct prof_act_node **out, uint32_t *n)
{
	uint32_t k = 0;

	*out = NULL;
	*n = 0;
	for (uint32_t i = 0; i < a->cap; i++)
		for (int c = 0; c < PROF_ACTS; c++)
			if (units(a->node[(size_t)i * PROF_ACTS + c])) {
				k++;
				break;
			}
	if (!k)
		return 0;
	if (!(*out = calloc(k, sizeof(**out))))
		return -1;
	for (uint32_t i = 0; i < a->cap && *n < k; i++) {
		struct prof_act_node x = { .node = i };
		bool any = false;

		for (int c = 0; c < PROF_ACTS; c++)
			any |= (x.v[c] = units(a->node[(size_t)i * PROF_ACTS + c])) != 0;
		if (any)
			(*out)[(*n)++] = x;
	}
	return 0;
}

void act_thread_totals(const struct act_thread *t, uint64_t v[PROF_ACTS])
{
	for (int c = 0; c < PROF_ACTS; c++)
		v[c] = t ? units(t->col[c]) : 0;
}

void act_release(struct act_state *a)
{
	while (a->threads) {
		struct act_thread *t = a->threads;

		a->threads = t->next;
		free(t->v);
		free(t);
	}
	free(a->node);
	memset(a, 0, sizeof(*a));
}
