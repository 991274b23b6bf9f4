/*
 * rank-runs.h - a set of MPI ranks kept and printed as runs of
 * consecutive ranks, "0-3,7,9-999999" (rank-runs.c): a million-rank job
 * that lacks most of its ranks takes a few runs, not a million numbers.
 */
#ifndef CPPERF_REPORT_RANK_RUNS_H
#define CPPERF_REPORT_RANK_RUNS_H

#include <stdint.h>
#include <stdio.h>

struct rank_run {
	int64_t first, last;	/* first <= last */
};

struct rank_runs {
	struct rank_run *v;	/* ascending, not adjacent */
	uint32_t n, alloc;
	uint64_t ranks;		/* in all the runs */
};

/* Add rank, larger than every rank added before.  Returns 0, or -1 when
 * memory is short (s unchanged). */
int rank_runs_add(struct rank_runs *s, int64_t rank);
/* Write s to out as "0-3,7,9-999999" (nothing when empty). */
void rank_runs_put(FILE *out, const struct rank_runs *s);
/* s as rank_runs_put writes it, in a new string (the caller frees it), or
 * NULL when memory is short. */
char *rank_runs_str(const struct rank_runs *s);
/* Free s's runs; s is then empty.  Cannot fail. */
void rank_runs_release(struct rank_runs *s);

#endif
