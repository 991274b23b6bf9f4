/*
 * merge-cp.h - keep per rank what the critical-path walk needs (merge-cp.c).
 */
#ifndef CPPERF_REPORT_MERGE_CP_H
#define CPPERF_REPORT_MERGE_CP_H

#include <stddef.h>
#include "data.h"

/*
 * What of a rank's critical-path data can be kept before the merged tree
 * exists, for a thread that reads profiles ahead: its links checked
 * (inside the rank's events, one per event) and packed, its segments
 * checked and copied in the rank's own node ids and events.
 */
struct cpath_prep {
	struct link_pack links;
	struct rep_cp_seg *segs;
	uint64_t *counts;	/* [nsegs * p->nevents] */
	uint32_t nsegs;
	uint32_t *prefix_nodes;	/* the cp_prefix records: p's node ids */
	uint64_t *prefix_counts;	/* [nprefix * p->nevents] */
	uint32_t nprefix;
};

/* Prepare p into cp (empty when p has no critical path).  Returns 0, or
 * -1 with a message in err (cp is then empty). */
int cpath_prepare(const struct profile *p, struct cpath_prep *cp, char *err, size_t errlen);
void cpath_prep_release(struct cpath_prep *cp);

/*
 * Keep what the critical-path walk needs of p (a rank with cp_events > 0;
 * nothing is kept otherwise): its links, lengths and trace records, and its
 * segment samples with node ids mapped through nmap (p's node -> merged
 * node) and counts through emap (p's event -> merged event of nevents);
 * its zeroing results (how, start, N_f and S_f per selected function) and
 * its series of path lengths; its fold point and its samples on the path's
 * prefix (cp_prefix, nodes and events mapped like the segments').  The
 * links are kept packed (link-pack.h),
 * a few bytes each.  prep is cpath_prepare's result for p, whose arrays
 * are taken over (NULL: prepared here).  Memory is O(links + segments) per rank, plus
 * O(events + edges) with --cp-trace.  Fails, naming the file, on a segment
 * or link outside the rank's events, a node outside p's tree, a trace that
 * does not cover the events, data from a process without a rank, zeroing
 * records that contradict themselves (unknown how, a start outside the
 * events, functions without a start or a start without functions), a
 * selection that differs from an earlier rank's (naming both ranks), or a
 * second rank with a series.  Returns 0 or -1.
 */
int cpath_merge_add(struct rep_cpath *c, const struct profile *p, struct cpath_prep *prep,
		    const uint32_t *nmap, const uint32_t *emap, uint32_t nevents,
		    const char *name, char *err, size_t errlen);
/* Sort the ranks.  Cannot fail. */
void cpath_merge_finish(struct rep_cpath *c);
void cpath_merge_release(struct rep_cpath *c);

#endif
