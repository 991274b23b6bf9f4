/*
 * cp-prefix.h - a rank's samples on the critical path's prefix
 * (docs/critical-path.md "Fold points"): counts per call-path tree node of
 * the segments that a fold point's walk found on the path, and the
 * segments of the last fold point, for their samples that reach the drain
 * thread after it.  Its memory is bounded by the tree's nodes and by the
 * rank's links between two fold points.  Pure memory work, no MPI: the
 * unit tests drive it.
 */
#ifndef CPPERF_PMPI_CP_PREFIX_H
#define CPPERF_PMPI_CP_PREFIX_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"

/* Segments from..to (inclusive) of the rank on the path. */
struct cp_range {
	uint64_t from, to;
};

struct cp_prefix {
	uint64_t *counts;	/* [cap * nevents], by node */
	uint32_t cap;		/* nodes with room */
	uint32_t nevents;
	struct cp_range *ranges;	/* the last fold point's, by from, disjoint */
	uint32_t nranges;
	uint64_t lost;		/* samples that found no memory */
};

/* Empty, for samples of nevents events.  Cannot fail. */
void cpp_init(struct cp_prefix *x, uint32_t nevents);
/* Whether segment seg is in a range of the last fold point. */
bool cpp_on_path(const struct cp_prefix *x, uint64_t seg);
/* Add the counts w (nevents) under node; counted in x->lost when memory
 * is short.  Cannot fail otherwise. */
void cpp_add(struct cp_prefix *x, uint32_t node, const uint64_t *w);
/* A fold point's n ranges (ranges may be NULL when n is 0), which x takes
 * over (freed here when they are not by increasing, disjoint segments: x
 * then has none); restart: forget the counts so far (the walk met dropped
 * records, and the prefix starts after them). */
void cpp_fold(struct cp_prefix *x, struct cp_range *ranges, uint32_t n, bool restart);
/* The nodes with samples as cp_prefix records, by increasing node, into
 * a new array (NULL when there are none).  Returns 0, or -1 when memory is
 * short. */
int cpp_records(const struct cp_prefix *x, struct prof_cp_prefix **out, uint32_t *n);
/* Free everything; x is left empty. */
void cpp_free(struct cp_prefix *x);

#endif
