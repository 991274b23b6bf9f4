/*
 * render.h - `cpperf report`'s views and formats, and what every renderer
 * shares (render.c).
 */
#ifndef CPPERF_REPORT_RENDER_H
#define CPPERF_REPORT_RENDER_H

#include <stdio.h>
#include "compensation.h"
#include "data.h"

enum rep_format { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML, REP_GRAPHML };
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
};

/* Render d as o asks onto out, compensated as comp says (--compensate),
 * ranks whose activity graphs are alike in one class when their times
 * differ by at most cluster_tol percent (--cluster-tol; cluster.h).
 * Returns 0, 2 when o->event is unknown (err lists the events), or -1 with
 * a message (memory, write error, a view the experiment has no data for). */
int rep_render_comp(const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, double cluster_tol, FILE *out, char *err, size_t errlen);
/* rep_render_comp with the defaults, REP_COMP_PARALLEL and REP_CLUSTER_TOL. */
int rep_render(const struct rep_data *d, const struct rep_opts *o, FILE *out,
	       char *err, size_t errlen);

/* Percentage part/whole*100, 0 when whole is 0. */
double rep_pct(uint64_t part, uint64_t whole);
/* ns in seconds. */
double rep_secs(uint64_t ns);
/* The samples d unwound, completely or not (saturating at 2^64 - 1). */
uint64_t rep_unwinds(const struct rep_data *d);
/* The last path component of a module path ("" for no module). */
const char *rep_module_name(const struct rep_data *d, uint32_t module);
const char *rep_module_path(const struct rep_data *d, uint32_t module);
/* The function of node n of d's tree, "-" for the root or no node. */
const char *rep_node_function(const struct rep_data *d, uint32_t n);

#endif
