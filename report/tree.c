/*
 * tree.c - inclusive totals and ordered children of a call-path tree,
 * and a depth-first walk over it.
 *
 * A cct stores only parent links and exclusive counts.  Because a node's
 * parent always has a smaller id, one backward pass over the ids adds every
 * node's total into its parent's; a counting pass then lays the children of
 * every node out contiguously (compressed rows), and each row is sorted by
 * total once.  The renderers (text, JSON, folded) and the flat profile all
 * walk the tree through tree_walk, which keeps its own stack instead of
 * recursing, so a very deep tree cannot overflow the C stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tree.h"

struct sort_ctx {
	const struct tree_view *cp;
	uint32_t event;
};

static int cmp_kids(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = tree_total(s->cp, x)[s->event], ty = tree_total(s->cp, y)[s->event];

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void sum_totals(struct tree_view *cp)
{
	const struct cct *t = cp->cct;
	size_t n = (size_t)t->nnodes * t->nevents;

	memcpy(cp->total, t->self, n * sizeof(*cp->total));
	for (uint32_t i = t->nnodes; i-- > 1;) {
		const uint64_t *mine = tree_total(cp, i);
		uint64_t *up = cp->total + (size_t)t->parent[i] * t->nevents;

		for (uint32_t e = 0; e < t->nevents; e++)
			up[e] += mine[e];
	}
}

static void lay_out_children(struct tree_view *cp, uint32_t sort_event)
{
	const struct cct *t = cp->cct;
	struct sort_ctx s = { cp, sort_event };

	for (uint32_t i = 1; i < t->nnodes; i++)
		cp->first[t->parent[i] + 1]++;
	for (uint32_t i = 0; i < t->nnodes; i++)
		cp->first[i + 1] += cp->first[i];
	/* Place each child at its parent's next free slot; first[] is shifted
	 * by one while filling and restored by the pass that follows. */
	for (uint32_t i = 1; i < t->nnodes; i++)
		cp->kids[cp->first[t->parent[i]]++] = i;
	for (uint32_t i = t->nnodes; i-- > 0;)
		cp->first[i + 1] = cp->first[i];
	cp->first[0] = 0;
	if (sort_event >= t->nevents)
		return;
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (cp->first[i + 1] - cp->first[i] > 1)
			qsort_r(cp->kids + cp->first[i], cp->first[i + 1] - cp->first[i],
				sizeof(*cp->kids), cmp_kids, &s);
}

int tree_build(struct tree_view *cp, const struct cct *t, uint32_t sort_event,
	       char *err, size_t errlen)
{
	memset(cp, 0, sizeof(*cp));
	cp->cct = t;
	cp->nevents = t->nevents;
	cp->total = malloc(((size_t)t->nnodes * t->nevents + 1) * sizeof(*cp->total));
	cp->first = calloc((size_t)t->nnodes + 1, sizeof(*cp->first));
	cp->kids = malloc(((size_t)t->nnodes + 1) * sizeof(*cp->kids));
	if (!cp->total || !cp->first || !cp->kids) {
		tree_release(cp);
		snprintf(err, errlen, "out of memory summing the call-path tree");
		return -1;
	}
	sum_totals(cp);
	lay_out_children(cp, sort_event);
	return 0;
}

void tree_release(struct tree_view *cp)
{
	free(cp->total);
	free(cp->first);
	free(cp->kids);
	memset(cp, 0, sizeof(*cp));
}

int tree_walk(const struct tree_view *cp, tree_visit enter, tree_visit leave, void *ctx)
{
	uint32_t n = cp->cct->nnodes;
	uint32_t *node = malloc(((size_t)n + 1) * sizeof(*node));
	uint32_t *next = malloc(((size_t)n + 1) * sizeof(*next));
	uint32_t depth = 0;
	int rc = 0;

	if (!node || !next) {
		free(node);
		free(next);
		return -1;
	}
	rc = enter(ctx, CCT_ROOT, 0);
	node[0] = CCT_ROOT;
	next[0] = rc > 0 ? cp->first[CCT_ROOT] : cp->first[CCT_ROOT + 1];
	while (rc >= 0) {
		uint32_t cur = node[depth];

		if (next[depth] < cp->first[cur + 1]) {
			uint32_t kid = cp->kids[next[depth]++];

			rc = enter(ctx, kid, depth + 1);
			if (rc < 0)
				break;
			depth++;
			node[depth] = kid;
			next[depth] = rc > 0 ? cp->first[kid] : cp->first[kid + 1];
			continue;
		}
		if (leave && (rc = leave(ctx, cur, depth)) < 0)
			break;
		if (depth == 0)
			break;
		depth--;
	}
	free(node);
	free(next);
	return rc < 0 ? rc : 0;
}
