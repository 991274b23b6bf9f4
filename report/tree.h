/*
 * tree.h - inclusive totals and sorted children of a call-path tree, and a
 * depth-first walk over it (tree.c).
 */
#ifndef CPPERF_REPORT_TREE_H
#define CPPERF_REPORT_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "../common/cct.h"

struct tree_view {
	const struct cct *cct;
	uint32_t nevents;
	uint64_t *total;	/* [nnodes * nevents] inclusive counts */
	uint32_t *first;	/* [nnodes + 1] offsets into kids */
	uint32_t *kids;		/* children of each node, by total descending */
};

/* Compute inclusive totals and children lists of t (sorted by the total of
 * event sort_event, then by node id).  Linear apart from the sorts.  Returns
 * 0, or -1 when memory is short. */
int tree_build(struct tree_view *cp, const struct cct *t, uint32_t sort_event,
	       char *err, size_t errlen);
void tree_release(struct tree_view *cp);

static inline const uint64_t *tree_total(const struct tree_view *cp, uint32_t node)
{
	return cp->total + (size_t)node * cp->nevents;
}

/*
 * Visit the tree depth first, children in sorted order, starting with the
 * root at depth 0.  enter returns 1 to descend into the node's children, 0 to
 * skip them, or a negative value to stop the walk (tree_walk then returns that
 * value).  leave, when not NULL, is called for every node entered, after its
 * children.  Uses no recursion; returns 0, or -1 when memory is short.
 */
typedef int (*tree_visit)(void *ctx, uint32_t node, uint32_t depth);
int tree_walk(const struct tree_view *cp, tree_visit enter, tree_visit leave, void *ctx);

#endif
