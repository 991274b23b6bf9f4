/*
 * render-report.h - a report rendered into a string, for the unit tests
 * that check what the report says of data they built.
 */
#ifndef CPPERF_TEST_RENDER_REPORT_H
#define CPPERF_TEST_RENDER_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include "../../report/render.h"

/* d rendered as o asks, ranks in one class within cluster_tol percent,
 * into a static buffer (the error message when *rc is not 0); each call
 * overwrites the last. */
static inline const char *render_tol(const struct rep_data *d, struct rep_opts o,
				     double cluster_tol, int *rc)
{
	static char buf[65536];
	char err[1024];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	if (!f)
		abort();
	*rc = rep_render_comp(d, &o, REP_COMP_PARALLEL, cluster_tol, f, err, sizeof(err));
	fclose(f);
	if (*rc != 0)
		snprintf(buf, sizeof(buf), "%s", err);
	return buf;
}

/* render_tol at the default tolerance. */
static inline const char *render(const struct rep_data *d, struct rep_opts o, int *rc)
{
	return render_tol(d, o, REP_CLUSTER_TOL, rc);
}

#endif
