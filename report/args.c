/*
 * args.c - `cpperf report`'s options (args.h): one table gives the names,
 * the help and the function that checks and stores each value (or the
 * flag an option without one sets), so that
 * parsing and help cannot disagree.  An unknown value is answered with the
 * values allowed.
 */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

struct rep_option {
	const char *name;
	char short_name;	/* 0 when none */
	const char *arg;	/* NULL for a flag */
	const char *help;
	int (*set)(struct rep_args *a, const char *value, char *err, size_t errlen);
	size_t flag;		/* without set: the bool of struct rep_args it sets */
};

#define SET(fn) fn, 0
#define FLAG(field) NULL, offsetof(struct rep_args, field)

/* Find value in names[] (NULL-terminated); returns its index, or -1 with an
 * error naming the option and the allowed values. */
static int pick(const char *opt, const char *value, const char *const *names,
		char *err, size_t errlen)
{
	size_t at;

	for (int i = 0; names[i]; i++)
		if (!strcmp(value, names[i]))
			return i;
	at = (size_t)snprintf(err, errlen, "--%s: unknown value '%s'; allowed:", opt, value);
	for (int i = 0; names[i] && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s %s", i ? "," : "", names[i]);
	return -1;
}

static int set_format(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "text", "json", "folded", "html", "graphml",
		"speedscope", "hatchet", "pprof", NULL };
	static const enum rep_format fmt[] = { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML,
		REP_GRAPHML, REP_SPEEDSCOPE, REP_HATCHET, REP_PPROF };
	int i = pick("format", v, names, err, errlen);

	if (i >= 0)
		a->opts.format = fmt[i];
	return i < 0 ? -1 : 0;
}

static int set_view(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "flat", "callpath", "mpi", "cp",
		"compensation", "waits", "graph", "threads", NULL };
	static const enum rep_view view[] = { REP_FLAT, REP_CALLPATH, REP_MPI, REP_CP,
		REP_COMPENSATION, REP_WAITS, REP_GRAPH, REP_THREADS };
	int i = pick("view", v, names, err, errlen);

	if (i >= 0)
		a->opts.view = view[i];
	return i < 0 ? -1 : 0;
}

static int set_compensate(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "none", "local", "parallel", NULL };
	static const enum rep_comp comp[] = { REP_COMP_NONE, REP_COMP_LOCAL,
		REP_COMP_PARALLEL };
	int i = pick("compensate", v, names, err, errlen);

	if (i >= 0)
		a->comp = comp[i];
	return i < 0 ? -1 : 0;
}

static int set_event(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "--event: empty event name; give one of the "
			 "recorded events (see the report's header)");
		return -1;
	}
	a->opts.event = v;
	return 0;
}

/* A percentage from 0 to 100 into *p, or -1 with an error naming opt and
 * what 0 means. */
static int percent(const char *opt, const char *v, const char *zero, double *p, char *err,
		   size_t errlen)
{
	char *end;
	double x = strtod(v, &end);

	if (!*v || *end || !isfinite(x) || x < 0 || x > 100) {
		snprintf(err, errlen, "--%s: '%s' is not a percentage; allowed: a "
			 "number from 0 to 100 (0 %s)", opt, v, zero);
		return -1;
	}
	*p = x;
	return 0;
}

static int set_min_pct(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	return percent("min-pct", v, "shows everything", &a->opts.min_pct, err, errlen);
}

static int set_cluster_tol(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	return percent("cluster-tol", v, "puts only equal times in one class", &a->cluster_tol,
		       err, errlen);
}

static int set_output(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "-o: empty file name; give a file, or - for stdout");
		return -1;
	}
	a->output = v;
	return 0;
}

static int set_run(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "--run: empty run; the report's header names the runs "
			 "of the directory");
		return -1;
	}
	a->run = v;
	return 0;
}

static int set_metrics(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "concurrency", NULL };

	if (pick("metrics", v, names, err, errlen) < 0)
		return -1;
	a->opts.concurrency = true;
	return 0;
}

static int set_metric(struct rep_args *a, const char *v, char *err, size_t errlen)
{
	if (a->opts.nmetrics == REP_METRICS) {
		snprintf(err, errlen, "--metric: at most %d metrics", REP_METRICS);
		return -1;
	}
	a->opts.metrics[a->opts.nmetrics++] = v;
	return 0;
}

static const struct rep_option rep_options[] = {
	{ "format", 0, "FMT", "text (default), json (all views; docs/json.md), "
	  "folded (FlameGraph, speedscope), html (one offline page of all views; "
	  "docs/html.md), graphml (the activity graph by class of ranks; "
	  "docs/graph.md), speedscope (speedscope's file format: a profile per event "
	  "and per rank), hatchet (Hatchet's literal graph: every event and metric "
	  "per call path) or pprof (gzipped profile.proto for go tool pprof)", SET(set_format) },
	{ "view", 0, "VIEW", "flat (default: self and total per function), callpath "
	  "(the tree), mpi (ranks, call sites, matrix), cp (the critical path), "
	  "compensation (overhead per rank and source), waits (wait states per "
	  "call site, pairs of sites, culprits), graph (classes of ranks and "
	  "their activity graphs) or threads (work, spin and idle per thread, "
	  "sequential and concurrent time and idleness blamed per function); text "
	  "only, and folded with cp", SET(set_view) },
	{ "compensate", 0, "MODE", "parallel (default: walls minus the final delay, "
	  "compensated waits), local (walls minus the rank's own overhead) or none "
	  "(as measured); local and parallel also drop the samples in cpperf's "
	  "runtime", SET(set_compensate) },
	{ "reference", 0, NULL, "critical path recomputed from the --cp-trace records "
	  "(with --view=cp or --format=json)", FLAG(reference) },
	{ "all-ranks", 0, NULL, "list every rank of a job of more than 64 (text and json; "
	  "by default rank 0, the ranks with the most and least MPI time, and "
	  "distributions over all)", FLAG(opts.all_ranks) },
	{ "rank-files", 0, NULL, "read the ranks' own files even when the run left a merged "
	  "profile (--merge=mpi): the critical path's profile needs them", FLAG(rank_files) },
	{ "raw-addresses", 0, NULL, "name code without a symbol by its address ([0x1cc40]) "
	  "rather than by its module ([libgomp.so.1])", FLAG(raw_addresses) },
	{ "debuginfod", 0, NULL, "name code without a symbol from the debug files of the "
	  "debuginfod servers DEBUGINFOD_URLS lists (fetched once into their client's cache)",
	  FLAG(debuginfod) },
	{ "event", 0, "NAME", "the event text and folded sort, prune and show first "
	  "(default: the first recorded); text shows the others beside it", SET(set_event) },
	{ "metrics", 0, "SET", "concurrency: text flat and call-path views add each "
	  "function's sequential and concurrent shares and the idleness blamed on it "
	  "(docs/threads.md)", SET(set_metrics) },
	{ "metric", 0, "NAME=EXPR", "a derived metric, such as ipc=instructions/cycles: "
	  "arithmetic on recorded events' counts, shown per function and call path "
	  "beside the events (text, json); repeatable; ipc and miss rates come by "
	  "themselves when their events were recorded (docs/report.md)", SET(set_metric) },
	{ "min-pct", 0, "P", "hide functions and call paths below P% (default 0.5 "
	  "for text, 0.01 for html, 0 for json; folded is never pruned)", SET(set_min_pct) },
	{ "cluster-tol", 0, "P", "ranks whose activity graphs are alike join one class when "
	  "their times differ by at most P% (default 2; docs/graph.md)", SET(set_cluster_tol) },
	{ "run", 0, "ID", "report this run of the directory (default: the newest; "
	  "the header lists the others)", SET(set_run) },
	{ "output", 'o', "FILE", "write to FILE (replaced atomically), not stdout",
	  SET(set_output) },
	{ "help", 'h', NULL, "show this help", FLAG(help) },
};

#define REP_NOPTS (sizeof(rep_options) / sizeof(rep_options[0]))

void rep_args_describe(FILE *out)
{
	for (size_t i = 0; i < REP_NOPTS; i++) {
		const struct rep_option *o = &rep_options[i];
		char lhs[64];

		snprintf(lhs, sizeof(lhs), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
		fprintf(out, "  %-20s %s\n", lhs + !o->short_name, o->help);
	}
}

/* The options of the table for getopt_long: long ones return 256 + their
 * index, short ones their letter. */
static void getopt_tables(struct option *longopts, char *shorts)
{
	size_t ns = 0;

	shorts[ns++] = ':';	/* a missing value is ':', not '?' */
	for (size_t i = 0; i < REP_NOPTS; i++) {
		const struct rep_option *o = &rep_options[i];

		longopts[i] = (struct option){ o->name, o->arg ? required_argument :
					       no_argument, NULL, 256 + (int)i };
		if (o->short_name) {
			shorts[ns++] = o->short_name;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	memset(&longopts[REP_NOPTS], 0, sizeof(longopts[REP_NOPTS]));
	shorts[ns] = '\0';
}

/* The table's entry getopt_long returned ch for. */
static const struct rep_option *option_for(int ch)
{
	for (size_t i = 0; i < REP_NOPTS; i++)
		if (ch == 256 + (int)i || ch == rep_options[i].short_name)
			return &rep_options[i];
	return NULL;
}

/* The rules between options and the operands, once all are parsed. */
static int check_operands(struct rep_args *a, int argc, char **argv, char *err, size_t errlen)
{
	if (optind < argc)
		a->dir = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "one experiment directory at a time: '%s' and '%s'",
			 a->dir, argv[optind]);
		return -1;
	}
	if (a->reference && a->opts.view != REP_CP && a->opts.format != REP_JSON) {
		snprintf(err, errlen, "--reference goes with --view=cp or --format=json");
		return -1;
	}
	if (a->reference)
		a->opts.view = REP_CP_REFERENCE;
	return 0;
}

int rep_args_parse(struct rep_args *a, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[REP_NOPTS + 1];
	char shorts[2 * REP_NOPTS + 2];
	int ch, idx;

	*a = (struct rep_args){ .opts = { REP_TEXT, REP_FLAT, NULL, -1.0 },
				.comp = REP_COMP_PARALLEL, .cluster_tol = REP_CLUSTER_TOL };
	getopt_tables(longopts, shorts);
	optind = 0;	/* glibc: also resets its internal state */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
		if (ch == '?' || ch == ':') {
			snprintf(err, errlen, ch == '?' ? "unknown option '%s'" :
				 "option '%s' needs a value", argv[optind - 1]);
			return -1;
		}
		const struct rep_option *o = option_for(ch);

		if (!o->set)
			*(bool *)(void *)((char *)a + o->flag) = true;
		else if (o->set(a, optarg ? optarg : "", err, errlen) < 0)
			return -1;
	}
	return check_operands(a, argc, argv, err, errlen);
}
