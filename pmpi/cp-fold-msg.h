/*
 * cp-fold-msg.h - the messages of a fold point and the walk between them
 * (docs/critical-path.md "Fold points"), without MPI: every rank packs
 * its state and its links since the last fold point; the root unpacks
 * them all, walks back from the fold point's latest entrant to the last
 * fold point (common/cp-walk.c, the report's walk) and answers every rank
 * with the ranges of its segments on that part of the path; each rank
 * reads its answer.  cp-fold.c moves them.  The unit tests drive it as it
 * is.
 */
#ifndef CPPERF_PMPI_CP_FOLD_MSG_H
#define CPPERF_PMPI_CP_FOLD_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/profile.h"
#include "cp-prefix.h"

struct cp_links;

/* What a rank tells the root besides its links. */
struct fold_state {
	uint64_t path;		/* 1: the rank has a path (0: calls of several
				 * threads overlapped, or links were lost) */
	uint64_t events;	/* its events so far: links lead to 1 .. events - 1 */
	uint64_t length;	/* its path's length at the entry of event events - 1 */
	uint64_t low;		/* its first segment after the last fold point, or
				 * after the records it dropped past its budget */
	uint64_t dropped;	/* 1: the latter */
	uint64_t budget;	/* --cp-budget */
};

/* A rank's message: st and its links (NULL: none) in a new buffer *out
 * of *len bytes, which the caller frees.  Returns 0, or -1 when memory
 * is short. */
int foldmsg_pack(const struct fold_state *st, const struct cp_links *links, unsigned char **out,
		 size_t *len);

/* The root's answers: rank r's counts[r] words start at words + displs[r]. */
struct fold_plan {
	uint64_t *words;
	int *counts, *displs;
	bool ok;		/* false: the walk failed, every answer says so */
	char why[256];		/* then why */
};

/* Where the walk of a fold point starts: segment k of rank w, where the
 * path's length is length; or, with w -1, the path's end (the rank with
 * the longest length at its last event, the lowest on ties, as the
 * report's walk starts). */
struct fold_start {
	int64_t w;
	uint64_t k, length;
};

/*
 * The root: the messages of ranks 0 .. nranks - 1 (lens[r] bytes at msg +
 * displs[r]; a rank without a path, or whose message does not read, is
 * left out of the walk): walk back from start to the last fold point and
 * answer every rank.  The links are walked as arrays, or packed when the
 * messages hold more than array_bytes (FOLDMSG_ARRAY_BYTES).  A walk that
 * fails (it needs a rank left out, a cycle, a link past a rank's events)
 * makes every answer a failure, and says why in plan->why.  Returns 0, or
 * -1 when memory is short (plan is then empty).
 */
#define FOLDMSG_ARRAY_BYTES (8u << 20)	/* arrays of up to 64 MB */
int foldmsg_plan(const unsigned char *msg, const int *lens, const int *displs, int nranks,
		 struct fold_start start, uint64_t array_bytes, struct fold_plan *plan);
void foldmsg_plan_free(struct fold_plan *plan);

/* A rank's answer. */
struct fold_answer {
	bool ok;		/* false: no fold (the walk failed) */
	uint64_t length;	/* the path's length where the walk started */
	int64_t gap_rank;	/* gap_event not 0: the walk stopped where rank */
	uint64_t gap_event;	/* gap_rank dropped records before this event */
	struct cp_range *ranges;	/* the rank's segments on the path, by from */
	uint32_t nranges;
};

/* The ranges an answer of n words holds at most. */
uint32_t foldmsg_answer_ranges(int n);
/* Read the n words of an answer into a, its ranges into ranges (room for
 * foldmsg_answer_ranges(n)).  Returns 0, or -1 when they do not read as
 * one (a is then not ok). */
int foldmsg_answer(const uint64_t *words, int n, struct cp_range *ranges, struct fold_answer *a);

#endif
