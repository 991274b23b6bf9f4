/*
 * cp-segs.h - a rank's samples of the critical path's segments: counts
 * per (segment, call-path tree node), found by hash, for the segments
 * the report may still find on the path.  Bounded by a number of records
 * (half of --cp-budget): past it the oldest quarter of the segments is
 * dropped and the cut moves (docs/critical-path.md "Budget").  Pure
 * memory work, no MPI and no locks: the unit tests drive it.
 */
#ifndef CPPERF_PMPI_CP_SEGS_H
#define CPPERF_PMPI_CP_SEGS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"
#include "cp-prefix.h"

struct cp_segs {
	struct prof_cp_seg *segs;	/* no two with the same (seg, node) */
	uint32_t n, cap;
	uint32_t *slot;		/* index + 1, 0 empty */
	uint32_t nslot;
	uint32_t max;		/* records to keep at most, 0 no limit */
	uint64_t cut;		/* segments before it were dropped past max, 0
				 * when none were */
	uint64_t top;		/* the highest segment recorded */
};

/* The record of (seg, node), created with nevents zero counts; NULL when
 * memory is short.  At max records the oldest quarter goes first. */
struct prof_cp_seg *cps_entry(struct cp_segs *s, uint64_t seg, uint32_t node, uint32_t nevents);
/* Keep the records of segments from cut on; cut becomes s->cut. */
void cps_keep_from(struct cp_segs *s, uint64_t cut);
/* The segment of the k-th record (k < s->n) in segment order into *seg;
 * false when memory for sorting is short. */
bool cps_nth(const struct cp_segs *s, uint32_t k, uint64_t *seg);
/* A fold point at event: the records up to it that its walk found on the
 * path (prefix's ranges) added to prefix, and dropped unless keep. */
void cps_fold(struct cp_segs *s, uint64_t event, struct cp_prefix *prefix, bool keep);
/* The records of segments before end, and from cut on unless all, into
 * *v, *n (the array's owner is the caller now); s is left empty. */
void cps_take(struct cp_segs *s, uint64_t end, uint64_t cut, bool all, struct prof_cp_seg **v,
	      uint32_t *n);
/* Free everything; s is left empty. */
void cps_free(struct cp_segs *s);

#endif
