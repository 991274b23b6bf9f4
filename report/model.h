/*
 * model.h - what `cpperf report` builds once from a loaded experiment
 * (model.c), and what every renderer reads and only writes out: the
 * call-path totals and the flat profile, compensated as asked, the
 * critical path, the classes of the ranks' activity graphs, the thread
 * activity's columns and, for the page, the call-path trees of a few ranks
 * of their own.  No renderer reads a profile or builds an analysis.
 */
#ifndef CPPERF_REPORT_MODEL_H
#define CPPERF_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cluster.h"
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "metric.h"
#include "thread-view.h"
#include "tree.h"

enum rep_format { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML, REP_GRAPHML, REP_SPEEDSCOPE,
		  REP_HATCHET, REP_PPROF };
/* REP_CP_REFERENCE: --view=cp --reference, or JSON with --reference. */
enum rep_view { REP_FLAT, REP_CALLPATH, REP_MPI, REP_CP, REP_CP_REFERENCE,
		REP_COMPENSATION, REP_WAITS, REP_GRAPH, REP_THREADS };

#define REP_TEXT_MIN_PCT 0.5	/* text's default pruning threshold */
#define REP_HTML_MIN_PCT 0.01	/* the page's: its size stays bounded */
#define REP_CLUSTER_TOL 2.0	/* --cluster-tol's default, percent */

struct rep_opts {
	enum rep_format format;
	enum rep_view view;
	const char *event;	/* NULL: the first event */
	double min_pct;		/* < 0: the format's default */
	bool all_ranks;		/* list every rank of a large job (rank-list.h) */
	bool concurrency;	/* text flat and call path: the thread activity's
				 * columns (--metrics=concurrency) */
	const char *metrics[REP_METRICS];	/* --metric NAME=EXPR, as given */
	uint32_t nmetrics;
};

/* One rank's call-path tree read alone, compensated as the report's. */
struct rep_rank_tree {
	int64_t rank;
	struct rep_data one;
	struct comp_tree ct;
	struct tree_view cp;
	bool filtered;		/* --compensate took samples out of it */
};

struct rep_model {
	const struct rep_data *d;
	const struct rep_opts *o;
	enum rep_comp comp;
	uint32_t event;		/* the event shown (--event): it sorts text and folded */
	double min_pct;		/* the pruning threshold, the format's default resolved */
	const uint64_t *removed;	/* samples --compensate took out, per event; NULL none */
	const struct tree_view *cp;	/* call-path totals */
	const struct flat *flat;
	const struct cpath_result *cpr;	/* the critical path; NULL when not built */
	const char *cp_why;		/* why cpr is NULL, when known */
	const struct cl_result *cl;	/* the ranks' classes; NULL when not wanted */
	const struct thr_view *thr;	/* the thread activity's columns; NULL when not wanted */
	/* the derived metrics: --metric's, then the built-in ones whose
	 * events were recorded */
	struct rep_metric metrics[REP_METRICS];
	uint32_t nmetrics;
	/* the trees of ranks of their own that the page and speedscope show */
	struct rep_rank_tree *rank_trees;
	uint32_t nrank_trees;

	/* storage of the above */
	struct comp_tree ct_;
	struct tree_view cp_;
	struct flat flat_;
	struct cpath_result cpr_;
	struct cl_result cl_;
	struct thr_view thr_;
	char gap_[1024], why_[1024];
};

/* Build m from d for the report o asks, compensated as comp says, ranks
 * whose activity graphs are alike in one class when their times differ
 * by at most cluster_tol percent.  m must stay where it is until released.
 * Returns 0, 2 when o->event is unknown (err lists the events), or -1
 * with a message (memory, a view the experiment has no data for). */
int rep_model_build(struct rep_model *m, const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, double cluster_tol, char *err, size_t errlen);
void rep_model_release(struct rep_model *m);

#endif
