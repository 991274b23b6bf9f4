/*
 * merge-cp.h - keep per rank what the critical-path walk needs (merge-cp.c).
 */
#ifndef CPPERF_REPORT_MERGE_CP_H
#define CPPERF_REPORT_MERGE_CP_H

#include <stddef.h>
#include "data.h"

/*
 * Keep what the critical-path walk needs of p (a rank with cp_events > 0;
 * nothing is kept otherwise): its links, lengths and trace records, and its
 * segment samples with node ids mapped through nmap (p's node -> merged
 * node) and counts through emap (p's event -> merged event of nevents);
 * its zeroing results (how, start, N_f and S_f per selected function) and
 * its series of path lengths.  The links are kept packed (link-pack.h),
 * a few bytes each.  Memory is O(links + segments) per rank, plus
 * O(events + edges) with --cp-trace.  Fails, naming the file, on a segment
 * or link outside the rank's events, a node outside p's tree, a trace that
 * does not cover the events, data from a process without a rank, zeroing
 * records that contradict themselves (unknown how, a start outside the
 * events, functions without a start or a start without functions), a
 * selection that differs from an earlier rank's (naming both ranks), or a
 * second rank with a series.  Returns 0 or -1.
 */
int cpath_merge_add(struct rep_cpath *c, const struct profile *p, const uint32_t *nmap,
		    const uint32_t *emap, uint32_t nevents, const char *name,
		    char *err, size_t errlen);
/* Sort the ranks.  Cannot fail. */
void cpath_merge_finish(struct rep_cpath *c);
void cpath_merge_release(struct rep_cpath *c);

#endif
