/*
 * metric.c - derived metrics: an expression over event names compiled
 * once to postfix steps by recursive descent, then evaluated on each
 * function's or call path's counts with a small stack.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metric.h"

/* PAPI presets and the perf events they count, so that an expression
 * written for one backend finds the events the other recorded. */
static const char *const aliases[][2] = {
	{ "PAPI_TOT_CYC", "cycles" },
	{ "PAPI_TOT_INS", "instructions" },
	{ "PAPI_REF_CYC", "ref-cycles" },
	{ "PAPI_BR_INS", "branches" },
	{ "PAPI_BR_MSP", "branch-misses" },
	{ "PAPI_L1_DCM", "L1-dcache-load-misses" },
	{ "PAPI_L1_ICM", "L1-icache-load-misses" },
	{ "PAPI_L3_TCA", "cache-references" },
	{ "PAPI_L3_TCM", "cache-misses" },
	{ "PAPI_TLB_DM", "dTLB-load-misses" },
	{ "PAPI_TLB_IM", "iTLB-load-misses" },
};

/* The metrics a report shows by itself when their events were recorded. */
static const char *const builtins[] = {
	"ipc=instructions/cycles",
	"cache-miss-rate=cache-misses/cache-references",
	"branch-miss-rate=branch-misses/branches",
	"L1-miss-rate=L1-dcache-load-misses/L1-dcache-loads",
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

struct parser {
	struct rep_metric *m;
	const struct rep_data *d;
	const char *at;
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const char *what)
{
	snprintf(p->err, p->errlen, "--metric %s=%s: %s", p->m->name, p->m->expr, what);
	return -1;
}

static int emit(struct parser *p, struct rep_metric_step s)
{
	if (p->m->nsteps == REP_METRIC_STEPS)
		return fail(p, "too long an expression");
	p->m->step[p->m->nsteps++] = s;
	return 0;
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)*p->at))
		p->at++;
}

static int event_named(const struct rep_data *d, const char *name)
{
	for (uint32_t e = 0; e < d->nevents; e++)
		if (!strcmp(d->events[e].name, name))
			return (int)e;
	return -1;
}

/* The event name stands for: itself, or its alias. */
static int find_event(const struct rep_data *d, const char *name)
{
	int e = event_named(d, name);

	for (size_t i = 0; e < 0 && i < NELEMS(aliases); i++)
		for (int side = 0; e < 0 && side < 2; side++)
			if (!strcmp(aliases[i][side], name))
				e = event_named(d, aliases[i][!side]);
	return e;
}

static int unknown_event(struct parser *p, const char *name)
{
	char what[400];
	size_t at = (size_t)snprintf(what, sizeof(what), "no event '%s' in this experiment "
				     "(write spaces around a '-' that subtracts); recorded:", name);

	for (uint32_t e = 0; e < p->d->nevents && at < sizeof(what); e++)
		at += (size_t)snprintf(what + at, sizeof(what) - at, "%s %s", e ? "," : "",
				       p->d->events[e].name);
	return fail(p, what);
}

/* What one count of an event in a profile stands for: a sample of an
 * event sampled by a period is that many events; a group member's count
 * and a sample taken at a frequency are one. */
static double event_scale(const struct rep_event *e)
{
	return e->period ? (double)e->period : 1.0;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '-';
}

static int expr(struct parser *p);

static int operand(struct parser *p)
{
	skip_space(p);
	if (*p->at == '(') {
		p->at++;
		if (expr(p) < 0)
			return -1;
		skip_space(p);
		if (*p->at != ')')
			return fail(p, "a '(' without its ')'");
		p->at++;
		return 0;
	}
	if (*p->at == '-') {
		p->at++;
		return operand(p) < 0 ? -1 : emit(p, (struct rep_metric_step){ .op = '~' });
	}
	if (isdigit((unsigned char)*p->at) || *p->at == '.') {
		char *end;
		double k = strtod(p->at, &end);

		p->at = end;
		return emit(p, (struct rep_metric_step){ .op = 'k', .k = k });
	}
	if (isalpha((unsigned char)*p->at) || *p->at == '_') {
		char name[128];
		size_t n = 0;
		int e;

		while (name_char(*p->at) && n + 1 < sizeof(name))
			name[n++] = *p->at++;
		name[n] = '\0';
		if ((e = find_event(p->d, name)) < 0)
			return unknown_event(p, name);
		return emit(p, (struct rep_metric_step){ .op = 'e', .event = (uint32_t)e,
							 .k = event_scale(&p->d->events[e]) });
	}
	return fail(p, *p->at ? "an event name, a number or '(' expected" :
		    "the expression ends too early");
}

/* Operands joined by the operators of one precedence, left to right. */
static int chain(struct parser *p, const char *ops, int (*next)(struct parser *))
{
	if (next(p) < 0)
		return -1;
	for (;;) {
		char op;

		skip_space(p);
		op = *p->at;
		if (!op || !strchr(ops, op))
			return 0;
		p->at++;
		if (next(p) < 0 || emit(p, (struct rep_metric_step){ .op = op }) < 0)
			return -1;
	}
}

static int term(struct parser *p)
{
	return chain(p, "*/", operand);
}

static int expr(struct parser *p)
{
	return chain(p, "+-", term);
}

int metric_compile(struct rep_metric *m, const char *def, const struct rep_data *d,
		   char *err, size_t errlen)
{
	const char *eq = strchr(def, '=');
	struct parser p = { m, d, NULL, err, errlen };

	memset(m, 0, sizeof(*m));
	if (!eq || eq == def || (size_t)(eq - def) >= sizeof(m->name) ||
	    strlen(eq + 1) >= sizeof(m->expr)) {
		snprintf(err, errlen, "--metric '%s': give NAME=EXPR, a name of up to %zu "
			 "characters and an expression of up to %zu, such as ipc=instructions/cycles",
			 def, sizeof(m->name) - 1, sizeof(m->expr) - 1);
		return -1;
	}
	memcpy(m->name, def, (size_t)(eq - def));
	strcpy(m->expr, eq + 1);
	p.at = m->expr;
	if (expr(&p) < 0)
		return -1;
	skip_space(&p);
	if (*p.at)
		return fail(&p, "an operator expected");
	return 0;
}

double metric_eval(const struct rep_metric *m, const uint64_t *v)
{
	double stack[REP_METRIC_STEPS];
	uint32_t n = 0;

	for (uint32_t i = 0; i < m->nsteps; i++) {
		const struct rep_metric_step *s = &m->step[i];
		double b;

		switch (s->op) {
		case 'e':
			stack[n++] = (double)v[s->event] * s->k;
			continue;
		case 'k':
			stack[n++] = s->k;
			continue;
		case '~':
			stack[n - 1] = -stack[n - 1];
			continue;
		}
		b = stack[--n];
		if (s->op == '+')
			stack[n - 1] += b;
		else if (s->op == '-')
			stack[n - 1] -= b;
		else if (s->op == '*')
			stack[n - 1] *= b;
		else if (b == 0)
			return NAN;
		else
			stack[n - 1] /= b;
	}
	return n ? stack[0] : NAN;
}

uint32_t metric_builtins(struct rep_metric *ms, uint32_t n, uint32_t max,
			 const struct rep_data *d)
{
	char err[512];

	for (size_t i = 0; i < NELEMS(builtins) && n < max; i++) {
		bool taken = false;

		if (metric_compile(&ms[n], builtins[i], d, err, sizeof(err)) < 0)
			continue;	/* its events were not recorded */
		for (uint32_t k = 0; k < n; k++)
			taken |= !strcmp(ms[k].name, ms[n].name);
		n += !taken;
	}
	return n;
}
