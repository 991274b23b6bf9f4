/*
 * profile-act.c - the thread activity's nodes as the tree changes under
 * them: re-keyed when a prune folds nodes, added when profiles merge.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static int node_order(const void *a, const void *b)
{
	const struct prof_act_node *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/* Sort p's nodes and sum those that share one. */
static void sort_and_sum(struct profile *p)
{
	struct prof_act_node *v = p->act_nodes;
	uint32_t k = 0;

	if (p->nact_nodes > 1)
		qsort(v, p->nact_nodes, sizeof(*v), node_order);
	for (uint32_t i = 0; i < p->nact_nodes; i++)
		if (k && v[k - 1].node == v[i].node) {
			for (int c = 0; c < PROF_ACTS; c++)
				v[k - 1].v[c] += v[i].v[c];
		} else {
			v[k++] = v[i];
		}
	p->nact_nodes = k;
}

/* See profile.h. */
void prof_act_map(struct profile *p, const uint32_t *nmap)
{
	for (uint32_t i = 0; i < p->nact_nodes; i++)
		p->act_nodes[i].node = nmap[p->act_nodes[i].node];
	sort_and_sum(p);
}

/* See profile.h. */
int prof_act_merge(struct profile *d, const struct profile *s, const uint32_t *nmap)
{
	struct prof_act_node *v;

	if (!s->act_on)
		return 0;
	if (!d->act_on) {
		d->act_on = 1;
		d->act_event = s->act_event;
		d->act_window_ns = s->act_window_ns;
	}
	if (!s->nact_nodes)
		return 0;
	v = realloc(d->act_nodes, ((size_t)d->nact_nodes + s->nact_nodes) * sizeof(*v));
	if (!v)
		return -1;
	d->act_nodes = v;
	for (uint32_t i = 0; i < s->nact_nodes; i++) {
		v[d->nact_nodes] = s->act_nodes[i];
		v[d->nact_nodes++].node = nmap[s->act_nodes[i].node];
	}
	sort_and_sum(d);
	return 0;
}
