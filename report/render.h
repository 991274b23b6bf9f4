/*
 * render.h - `cpperf report`'s driver (render.c): a loaded experiment
 * rendered as the options (model.h) ask.
 */
#ifndef CPPERF_REPORT_RENDER_H
#define CPPERF_REPORT_RENDER_H

#include <stdio.h>
#include "compensation.h"
#include "data.h"
#include "model.h"

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

#endif
