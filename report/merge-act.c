/*
 * merge-act.c - the thread activity of the profiles, per node of the
 * merged tree (merge-act.h).  Profiles that classified another event than
 * the first one's are left out, and the report says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge-act.h"

/* Room for node n. */
static int grow(struct rep_act *a, uint32_t n)
{
	uint32_t cap = a->cap ? a->cap : 256;
	uint64_t *v;

	if (n < a->cap)
		return 0;
	while (cap <= n)
		cap *= 2;
	if (!(v = realloc(a->node, (size_t)cap * PROF_ACTS * sizeof(*v))))
		return -1;
	memset(v + (size_t)a->cap * PROF_ACTS, 0, (size_t)(cap - a->cap) * PROF_ACTS * sizeof(*v));
	a->node = v;
	a->cap = cap;
	return 0;
}

int act_merge_add(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
		  const uint32_t *emap, char *err, size_t errlen)
{
	struct rep_act *a = &d->act;

	if (!p->act_on)
		return 0;
	if (!a->on) {
		a->on = true;
		a->event = emap[p->act_event];
		a->window_ns = p->act_window_ns;
	} else if (a->event != emap[p->act_event]) {
		a->mixed = true;
		return 0;
	}
	for (uint32_t i = 0; i < p->nact_nodes; i++) {
		uint32_t n = nmap[p->act_nodes[i].node];
		uint64_t *row;

		if (grow(a, n)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		row = a->node + (size_t)n * PROF_ACTS;
		for (int c = 0; c < PROF_ACTS; c++)
			row[c] += p->act_nodes[i].v[c];
	}
	return 0;
}

void act_merge_release(struct rep_act *a)
{
	free(a->node);
	memset(a, 0, sizeof(*a));
}
