/*
 * test-metric.c - unit tests of derived metrics (report/metric.c): the
 * expressions' grammar and precedence, event names with '-' and PAPI
 * presets standing for perf events, a period's weight, division by zero,
 * the errors, and the built-in metrics offered by the events recorded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "../../report/metric.h"

static struct rep_event events[] = {
	{ "cycles", 0, 0 },		/* a group's leader and members, read */
	{ "instructions", 0, 0 },
	{ "cache-misses", 0, 0 },
	{ "cache-references", 0, 0 },
	{ "PAPI_BR_MSP", 0, 0 },	/* by PAPI */
	{ "branches", 0, 0 },
	{ "task-clock", 0, 1000 },	/* sampled at a frequency */
	{ "page-faults", 10, 0 },	/* sampled every 10 */
};
#define NEV (sizeof(events) / sizeof(events[0]))

/*                       cyc  ins  cmiss cref brmsp br task pf */
static uint64_t v[NEV] = { 200, 500, 3, 60, 7, 70, 4, 5 };

static struct rep_data data(void)
{
	struct rep_data d;

	memset(&d, 0, sizeof(d));
	d.events = events;
	d.nevents = NEV;
	return d;
}

/* The value of def on v; NAN when it does not compile (err says why). */
static double value(const char *def, char *err, size_t errlen)
{
	struct rep_data d = data();
	struct rep_metric m;

	err[0] = '\0';
	if (metric_compile(&m, def, &d, err, errlen) < 0)
		return NAN;
	return metric_eval(&m, v);
}

static void is_value(const char *def, double want, const char *name)
{
	char err[512];
	double got = value(def, err, sizeof(err));

	if (!ok(fabs(got - want) <= 1e-12 * fabs(want), name))
		printf("#   %s: got %.17g, want %.17g %s\n", def, got, want, err);
}

static void fails(const char *def, const char *says, const char *name)
{
	char err[512];
	double got = value(def, err, sizeof(err));

	if (!ok(isnan(got) && strstr(err, says), name))
		printf("#   %s: got %g, error '%s', want one saying '%s'\n", def, got, err, says);
}

int main(void)
{
	struct rep_data d = data();
	struct rep_metric ms[REP_METRICS];
	char err[512];
	uint32_t n;

	is_value("ipc=instructions/cycles", 2.5, "a ratio of two events");
	is_value("x=instructions - cycles * 2", 100, "* before -");
	is_value("x=(instructions - cycles) * 2", 600, "parentheses first");
	is_value("x=instructions / cycles / 5", 0.5, "/ from left to right");
	is_value("x=-cycles + 1000", 800, "unary minus");
	is_value("x = 1.5e2 + 0.5 * 2", 151, "numbers, spaces around the name");
	is_value("miss=cache-misses/cache-references", 0.05, "names with '-' in them");
	is_value("brm=branch-misses / 7", 1, "a perf name finds the PAPI preset recorded");
	is_value("c=PAPI_TOT_CYC", 200, "a PAPI preset finds the perf event recorded");
	is_value("pf=page-faults", 50, "a sample of an event sampled by period counts that many");
	is_value("t=task-clock", 4, "one sampled at a frequency counts one");
	ok(isnan(value("z=cycles / (instructions - 500)", err, sizeof(err))) && !err[0],
	   "division by zero: NaN, not an error");
	fails("x=cyles/2", "no event 'cyles'", "an unknown event names itself");
	fails("x=cyles/2", "recorded: cycles, instructions", "... and lists the events");
	fails("x=instructions-cycles", "no event 'instructions-cycles'", "a '-' inside a name");
	fails("x=instructions-cycles", "spaces around a '-'", "... says to write spaces to subtract");
	fails("x=(cycles", "without its ')'", "an unclosed parenthesis");
	fails("x=cycles instructions", "an operator expected", "two operands in a row");
	fails("x=cycles /", "ends too early", "an expression that ends early");
	fails("x=", "ends too early", "an empty expression");
	fails("=cycles", "give NAME=EXPR", "no name");
	fails("cycles", "give NAME=EXPR", "no '='");
	fails("x=1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1", "too long",
	      "an expression over the steps' limit");

	n = metric_builtins(ms, 0, REP_METRICS, &d);
	is_int(n, 3, "built-ins: ipc, the cache's and the branches' miss rates...");
	ok(n >= 3 && !strcmp(ms[0].name, "ipc") && !strcmp(ms[1].name, "cache-miss-rate") &&
	   !strcmp(ms[2].name, "branch-miss-rate"), "... in the table's order");
	d.nevents = 1;
	is_int(metric_builtins(ms, 0, REP_METRICS, &d), 0, "none without their events");
	d.nevents = NEV;
	metric_compile(&ms[0], "ipc=cycles/instructions", &d, err, sizeof(err));
	n = metric_builtins(ms, 1, REP_METRICS, &d);
	ok(n == 3 && !strcmp(ms[0].expr, "cycles/instructions") &&
	   !strcmp(ms[1].name, "cache-miss-rate"), "a metric of the user's keeps its name");
	is_int(metric_builtins(ms, REP_METRICS, REP_METRICS, &d), REP_METRICS, "none past the limit");
	return tap_done();
}
