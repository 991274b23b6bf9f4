/*
 * cpath.h - the critical path (cpath.c, cpath-ref.c): the walk over the
 * links, the --reference recomputation, the path's tree and functions.
 */
#ifndef CPPERF_REPORT_CPATH_H
#define CPPERF_REPORT_CPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/cp-walk.h"
#include "data.h"
#include "flat.h"
#include "tree.h"

/* One function's share of the path (event 0 of the experiment). */
struct cpath_fn {
	const char *name;	/* belongs to rep_data */
	uint32_t module;
	uint64_t samples;	/* self samples taken on the path */
	double cp_time;		/* seconds: length x samples / all path samples */
	double cp_pct, cpu_pct;	/* of the path's samples; of all samples */
};

/* Zeroing of one selected function: the path if f took no time. */
struct cpath_zero {
	const char *name;	/* the selection's name; belongs to rep_data */
	uint64_t net_ns;	/* max over ranks of N_f (L for a rank that never started) */
	uint64_t saving_ns;	/* length - net_ns (0 if net_ns were larger) */
	double saving_pct;	/* 100 x saving / length */
	uint64_t share_ns;	/* S_f of the rank where the path ends */
	double cp_time;		/* seconds: the walk's CP time (self) of functions so named */
};

struct cpath_result {
	bool reference;		/* computed from the --cp-trace records */
	/* The walk reached segment cut_event of rank cut_rank, before which
	 * that rank dropped its records past its budget: the runs and the
	 * profile are the path's latest part (docs/critical-path.md
	 * "Budget").  cut is false for a whole path. */
	bool cut;
	int64_t cut_rank;
	uint64_t cut_event, cut_budget;
	/* Online, with fold points (docs/critical-path.md "Fold points"): the
	 * path up to the last of folds of them, at length fold_ns, comes from
	 * the ranks' cp_prefix records, and the runs are the part after it.
	 * With cut as well, a fold's walk met dropped records (cut_rank and
	 * cut_event say where) and the prefix starts there.  Both 0 without
	 * fold points, and when the walk itself stopped at dropped records
	 * (the prefix then lies before the part shown). */
	uint64_t folds, fold_ns;
	int64_t end_rank;	/* the rank where the path ends */
	uint64_t length_ns;
	uint64_t wall_ns;	/* max over ranks of cp_wall_ns */
	struct cp_run *runs;	/* earliest first */
	uint32_t nruns;
	struct cct tree;	/* path samples; node ids are d->tree's */
	struct tree_view cp;	/* over tree, children by total of event 0 */
	struct cpath_fn *fns;	/* by samples desc, then name */
	uint32_t nfns;
	uint64_t all;		/* path samples of event 0 */
	struct cpath_zero *zero;	/* selection order; NULL when nothing selected */
	uint32_t nzero;
};

#define CPATH_NEED_TRACE "--reference needs a recording made with cpperf-record --cp-trace"

/* Index of rank in c (sorted by rank: after cpath_merge_finish), or -1:
 * a binary search. */
long cpath_rank_index(const struct rep_cpath *c, int64_t rank);

/* Whether any rank of c computed a critical path. */
static inline bool cpath_present(const struct rep_cpath *c)
{
	return c->nranks > 0;
}

/*
 * The online path: start at the rank with the largest cp_length_ns (lowest
 * rank on ties) and follow its links back to MPI_Init, to the last fold
 * point (r->folds), or to where a rank dropped its records past its budget
 * (r->cut).  The ranks must agree on their fold points.  Fills length_ns,
 * wall_ns, end_rank and runs of r (which this initialises), and the online
 * zeroing (net, saving and share per selected function; cp_time is left 0
 * for cpath_build).  A step follows one link, whatever the events'
 * numbers; steps are bounded by the links of all ranks, so a cycle ends
 * with an error; a link to a missing rank or past a rank's events too.  Returns 0 or -1 with a
 * message naming the rank and event (r is then released).
 */
int cpath_walk(const struct rep_cpath *c, struct cpath_result *r,
	       char *err, size_t errlen);

/*
 * The reference path: recompute every rank's lengths from the --cp-trace
 * records (no recursion; ranks advance while their dependencies are known)
 * and walk back the winning dependencies; with a selection, N_f and S_f are
 * recomputed over the same graph by the rules of docs/critical-path.md
 * "Zeroing".  fn_mask[node] (nmask nodes of the merged tree, from
 * cpath_fn_masks) has bit i set when the node's call path holds a frame of
 * selected function i; NULL counts no function time anywhere.  Fails with
 * CPATH_NEED_TRACE when a rank has no trace, or with a message naming a
 * rank and event on a cycle, a missing rank, an event past a rank's events,
 * or a rank recorded as started by a merge at an event no started sender
 * reaches.  Fills r as cpath_walk does, with reference set.  Returns 0 or -1.
 */
int cpath_reference(const struct rep_cpath *c, const uint8_t *fn_mask, uint32_t nmask,
		    struct cpath_result *r, char *err, size_t errlen);

/*
 * The node masks of the selection of d->cpath: *mask gets d->tree.nnodes
 * bytes, bit i set when the node or one of its ancestors is a frame whose
 * function name (as recorded, or demangled) equals fn_names[i].  *mask is
 * NULL when nothing is selected.  Returns 0 or -1 (memory).
 */
int cpath_fn_masks(const struct rep_data *d, uint8_t **mask, char *err, size_t errlen);

/*
 * Walk (online or reference, as asked) and build the path's profile: the
 * segment samples of every run summed into a tree shaped like d->tree, its
 * totals, and the per-function table (f is d's flat profile, for cpu_pct).
 * Returns 0 or -1 with a message; r is released on failure.
 */
int cpath_build(struct cpath_result *r, const struct rep_data *d, const struct flat *f,
		bool reference, char *err, size_t errlen);
void cpath_release(struct cpath_result *r);

#endif
