/*
 * metric.h - derived metrics (metric.c): arithmetic on the recorded
 * events' counts, such as `--metric ipc=instructions/cycles`, computed per
 * function and call path like an event, and the built-in ones a report
 * shows when their events were recorded.
 */
#ifndef CPPERF_REPORT_METRIC_H
#define CPPERF_REPORT_METRIC_H

#include <stddef.h>
#include <stdint.h>
#include "data.h"

#define REP_METRICS 16		/* metrics per report at most */
#define REP_METRIC_STEPS 64	/* steps of a compiled expression at most */

/* One step of an expression in postfix order. */
struct rep_metric_step {
	char op;		/* 'e' an event's count, 'k' a constant, '~' negate, or + - * / */
	uint32_t event;		/* 'e': its index in the experiment */
	double k;		/* 'k': the constant; 'e': the events one count stands for */
};

struct rep_metric {
	char name[48];
	char expr[200];		/* as given, for the header and the JSON */
	uint32_t nsteps;
	struct rep_metric_step step[REP_METRIC_STEPS];
};

/* Compile def, "NAME=EXPR", against d's events: names of recorded events
 * (a PAPI preset stands for its perf event and the other way round),
 * numbers, + - * / and parentheses; a name runs over letters, digits and
 * _ . : -, so subtraction needs spaces around its '-'.  Returns 0, or -1
 * with a message naming the option and what was wrong. */
int metric_compile(struct rep_metric *m, const char *def, const struct rep_data *d,
		   char *err, size_t errlen);
/* m's value for the counts v, indexed by event, each count of an event
 * sampled by a period counting as that many events (so that events
 * sampled with different periods compare); NaN when it divides by zero. */
double metric_eval(const struct rep_metric *m, const uint64_t *v);
/* Append to ms (n of max in use) the built-in metrics whose events d
 * recorded and whose names are not taken; returns the new count. */
uint32_t metric_builtins(struct rep_metric *ms, uint32_t n, uint32_t max,
			 const struct rep_data *d);

#endif
