/*
 * cp-walk.h - the walk back along a critical path's links
 * (docs/critical-path.md "The walk"), shared by the report, which walks a
 * run's path from its end, and the runtime, which walks it from a fold
 * point back to the one before (docs/critical-path.md "Fold points").
 *
 * From a segment known to be on the path, the walk takes the rank's
 * segments back to just after its latest link before them, follows that
 * link to the sender's event, and goes on from there, until it reaches a
 * rank's first segment it may take (low: 1, the first after a fold point,
 * or the first the rank kept past its budget).  Pure memory work.
 */
#ifndef CPPERF_CP_WALK_H
#define CPPERF_CP_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "link-pack.h"
#include "profile.h"

/* Segments from..to (inclusive) of one rank, on the path in that order. */
struct cp_run {
	int64_t rank;
	uint64_t from, to;
};

/* One rank as a walk sees it.  Its links are packed, or an array by
 * strictly increasing event (pack NULL). */
struct cp_walk_rank {
	int64_t rank;
	uint64_t events;	/* a link may lead to its events 1 .. events - 1 */
	uint64_t low;		/* the first of its segments the walk may take (>= 1) */
	bool dropped;		/* its records before low were dropped past its budget */
	uint64_t budget;	/* that budget (--cp-budget), for the reader */
	const struct link_pack *pack;
	const struct prof_cp_link *links;
	uint32_t nlinks;
};

struct cp_walk {
	struct cp_run *runs;	/* earliest first */
	uint32_t nruns;
	/* The walk stopped at segment cut_event of rank cut_rank, whose
	 * older records were dropped past its budget: the runs are the
	 * latest part of the path (docs/critical-path.md "Budget"). */
	bool cut;
	int64_t cut_rank;
	uint64_t cut_event, cut_budget;
};

/* Index of rank in ranks[0..n) (by increasing rank), or -1: a binary
 * search. */
long cp_walk_search(const struct cp_walk_rank *ranks, uint32_t n, int64_t rank);

/* The same, inline where every rank of a job is there: rank r at index r
 * (a walk looks a rank up at every link it follows). */
static inline long cp_walk_find(const struct cp_walk_rank *ranks, uint32_t n, int64_t rank)
{
	if (rank >= 0 && (uint64_t)rank < n && ranks[rank].rank == rank)
		return (long)rank;
	return cp_walk_search(ranks, n, rank);
}

/*
 * Walk back from segment e of ranks[start] (on the path) into w, which
 * this initialises.  A step follows one link, whatever the events'
 * numbers, so a step more than all ranks' links means a cycle.  Fails on
 * a cycle, a link to a rank not in ranks (saying it has no critical-path
 * data in scope: "the experiment"), or a link past the sender's events,
 * with a message naming the rank and the event.  Returns 0, or -1 with
 * the message in err (w is then released).
 */
int cp_walk_back(const struct cp_walk_rank *ranks, uint32_t n, uint32_t start, uint64_t e,
		 const char *scope, struct cp_walk *w, char *err, size_t errlen);
void cp_walk_release(struct cp_walk *w);

#endif
