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

/* Room for more spans: twice as many, or the newest half of
 * SPANS_KEPT when that many are kept already (a thread blocked for long
 * while others open region after region). */
#define SPANS_KEPT 4096
static bool span_room(struct act_state *a, struct act_thread *t)
{
	struct act_span *v;
	uint32_t cap = t->spans_cap ? 2 * t->spans_cap : 16;

	if (t->nspans < t->spans_cap)
		return true;
	if (t->nspans >= SPANS_KEPT) {
		memmove(t->spans, t->spans + t->nspans / 2,
			(t->nspans - t->nspans / 2) * sizeof(*t->spans));
		t->nspans -= t->nspans / 2;
		return true;
	}
	if (!(v = realloc(t->spans, cap * sizeof(*v)))) {
		a->failed = true;
		return false;
	}
	t->spans = v;
	t->spans_cap = cap;
	return true;
}

/* A working sample at time in region: the thread's last span grows, or
 * a new one begins. */
static void add_span(struct act_state *a, struct act_thread *t, uint64_t time, uint32_t region)
{
	struct act_span *last = t->nspans ? &t->spans[t->nspans - 1] : NULL;

	if (last && last->region == region && time <= last->to + reach(a)) {
		last->to = time;
		return;
	}
	if (span_room(a, t))
		t->spans[t->nspans++] = (struct act_span){ time, time, region };
}

void act_sample(struct act_state *a, struct act_thread *t, uint64_t time, uint32_t node,
		uint32_t region, bool spin)
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
	t->v[t->n++] = (struct act_sample){ time, node, region, spin };
	if (region != CCT_NO_FRAME && !spin)
		add_span(a, t, time, region);
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

/* u's first sample at or after lo (u->n when none). */
static uint32_t first_from(const struct act_thread *u, uint64_t lo)
{
	uint32_t l = 0, h = u->n;

	while (l < h) {
		uint32_t m = l + (h - l) / 2;

		if (u->v[m].t < lo)
			l = m + 1;
		else
			h = m;
	}
	return l;
}

/* Whether u has a sample out of a runtime's wait in [lo, hi]. */
static bool working_in(const struct act_thread *u, uint64_t lo, uint64_t hi)
{
	for (uint32_t l = first_from(u, lo); l < u->n && u->v[l].t <= hi; l++)
		if (!u->v[l].spin)
			return true;
	return false;
}

/* What thread t waits for at `time`: the node of a parallel region
 * another team thread works in within reach of it, else `own`. */
static uint32_t waited_for(const struct act_state *a, const struct act_thread *t,
			   uint64_t time, uint32_t own)
{
	uint64_t r = reach(a), lo = time > r ? time - r : 0, hi = time + r;

	for (const struct act_thread *u = a->threads; u; u = u->next) {
		if (u == t || !u->team)
			continue;
		for (uint32_t l = first_from(u, lo); l < u->n && u->v[l].t <= hi; l++)
			if (!u->v[l].spin && u->v[l].region != CCT_NO_FRAME)
				return u->v[l].region;
	}
	return own;
}

/* Where thread t's idle time from `from` to `to` goes: the region
 * another team thread worked in at the middle of it, else `own`. */
static uint32_t gap_for(const struct act_state *a, const struct act_thread *t, uint64_t from,
			uint64_t to, uint32_t own)
{
	uint64_t mid = from + (to - from) / 2, r = reach(a);

	for (const struct act_thread *u = a->threads; u; u = u->next) {
		uint32_t l = 0, h = u->nspans;

		if (u == t || !u->team)
			continue;
		while (l < h) {	/* the first span that ends at or after mid */
			uint32_t m = l + (h - l) / 2;

			if (u->spans[m].to + r < mid)
				l = m + 1;
			else
				h = m;
		}
		if (l < u->nspans && u->spans[l].from <= mid + r)
			return u->spans[l].region;
	}
	return own;
}

/* Forget the spans that no gap still to judge covers: those that ended
 * before the oldest last sample of a thread that may still block. */
static void trim_spans(struct act_state *a)
{
	uint64_t oldest = UINT64_MAX, r = reach(a);

	for (const struct act_thread *t = a->threads; t; t = t->next)
		if (!t->died || t->done < t->n) {
			uint64_t since = t->any ? t->last_t : t->born;

			oldest = since < oldest ? since : oldest;
		}
	for (struct act_thread *t = a->threads; t; t = t->next) {
		uint32_t k = 0;

		while (k < t->nspans && t->spans[k].to + r < oldest)
			k++;
		if (!k)
			continue;
		memmove(t->spans, t->spans + k, (t->nspans - k) * sizeof(*t->spans));
		t->nspans -= k;
	}
}

static void judge(struct act_state *a, struct act_thread *t, const struct act_sample *s)
{
	uint64_t r = reach(a), lo = s->t > r ? s->t - r : 0, hi = s->t + r;
	unsigned working = 1, idle = 0;

	/* a thread that blocks while another works in a region waits for it */
	add_gap(a, t, t->any ? t->last_t : t->born, s->t,
		gap_for(a, t, t->any ? t->last_t : t->born, s->t, t->any ? t->last_node : s->node),
		true);
	t->any = true;
	t->last_t = s->t;
	t->last_node = s->node;
	if (s->spin) {
		add(a, t, waited_for(a, t, s->t, s->node), PROF_ACT_spin, 1);
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
	trim_spans(a);
}

void act_finish(struct act_state *a, uint64_t end)
{
	act_resolve(a, UINT64_MAX);
	for (struct act_thread *t = a->threads; t; t = t->next) {
		uint64_t stop = t->died ? t->died : end;

		add_gap(a, t, t->any ? t->last_t : t->born, stop,
			t->any ? gap_for(a, t, t->last_t, stop, t->last_node) : 0, t->any);
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
		free(t->spans);
		free(t);
	}
	free(a->node);
	memset(a, 0, sizeof(*a));
}
