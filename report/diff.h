/*
 * diff.h - two experiments side by side, as `cpperf diff A B` prints them
 * (diff.c): per function and per call path the change in self and total
 * samples of every event both recorded, per function the change in
 * critical-path time, per MPI call site the change in time; each sorted
 * by the size of its change.
 */
#ifndef CPPERF_REPORT_DIFF_H
#define CPPERF_REPORT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model.h"

enum rep_diff_format { REP_DIFF_TEXT, REP_DIFF_JSON, REP_DIFF_HTML };

/* Write the differences from a to b (models of JSON reports, so that
 * they hold the critical path) as text, JSON or one page; text shows at
 * most limit rows of each table.  event: the name of the event whose self
 * samples sort the tables (NULL: the first of a that b recorded too).
 * Returns 0, or -1 with a message (no event in common, an unknown event,
 * memory, a write error). */
int rep_diff(FILE *out, const struct rep_model *a, const struct rep_model *b,
	     enum rep_diff_format format, const char *event, size_t limit, char *err,
	     size_t errlen);

#endif
