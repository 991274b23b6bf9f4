/*
 * rank-list.h - which ranks the views list one by one (rank-list.c): all of
 * a small job; of a large one the extremes, with each column's
 * distribution over all ranks in their place (docs/report.md "Large
 * jobs").
 */
#ifndef CPPERF_REPORT_RANK_LIST_H
#define CPPERF_REPORT_RANK_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include "data.h"

#define REP_LISTED_RANKS 64	/* a job up to this size is listed whole */
#define REP_EXTREME_RANKS 8	/* else rank 0 and this many at each end */

/*
 * The ranks of m to list, as a flag per entry of m->ranks into *listed
 * (the caller frees it): every one when all is set or m has at most
 * REP_LISTED_RANKS entries; otherwise rank 0 and the REP_EXTREME_RANKS
 * entries with the most and the least MPI time (ties broken by rank).
 * Returns how many are listed, or -1 when memory is short.
 */
long rep_rank_listing(const struct rep_mpi *m, bool all, bool **listed);

/* A per-rank value over all entries of m: min, median, mean, max and the
 * rank of the max (the lowest on ties). */
struct rep_dist {
	double min, median, mean, max;
	int64_t max_rank;
};

/* The measured per-rank times the views summarise, in seconds: one table
 * for the text and the JSON. */
struct rep_rank_col {
	const char *key;	/* JSON */
	const char *name;	/* text */
	double (*value)(const struct rep_rank *);
};
#define REP_RANK_COLS 4
extern const struct rep_rank_col rep_rank_cols[REP_RANK_COLS];

/* The distribution of value over m's entries; zeros when it has none.
 * Returns 0 or -1 when memory is short. */
int rep_rank_dist(const struct rep_mpi *m, double (*value)(const struct rep_rank *),
		  struct rep_dist *out);

#endif
