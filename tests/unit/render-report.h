/*
 * render-report.h - a report rendered into a string, for the unit tests
 * that check what the report says of data they built.
 */
#ifndef CPPERF_TEST_RENDER_REPORT_H
#define CPPERF_TEST_RENDER_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include "../../report/render.h"

/* d rendered as o asks into a static buffer (the error message when *rc
 * is not 0); each call overwrites the last. */
static inline const char *render(const struct rep_data *d, struct rep_opts o, int *rc)
{
	static char buf[65536];
	char err[1024];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	if (!f)
		abort();
	*rc = rep_render(d, &o, f, err, sizeof(err));
	fclose(f);
	if (*rc != 0)
		snprintf(buf, sizeof(buf), "%s", err);
	return buf;
}

#endif
