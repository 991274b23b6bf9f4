/*
 * cmd-report.c - `cpperf report [DIR] [options]`.
 *
 * A thin command in the git manner: it parses its options from one table,
 * then calls the report library (report/): find the experiment, load and
 * merge it, render it, write it (atomically with -o).  Errors come back from
 * the library as messages and are printed here once, prefixed "cpperf: ".
 * Exit status: 0 done, 1 the experiment or the output is wrong (missing,
 * empty, corrupted, unwritable), 2 the command line is wrong.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "../report/compensation.h"
#include "../report/data.h"
#include "../report/experiment.h"
#include "../report/merge.h"
#include "../report/outfile.h"
#include "../report/render.h"

struct report_cli {
	struct rep_opts opts;
	enum rep_comp comp;	/* --compensate */
	const char *output;
	const char *dir;
	const char *run;	/* --run */
	bool help;
	bool reference;		/* --reference: view becomes REP_CP_REFERENCE */
};

struct report_option {
	const char *name;
	char short_name;	/* 0 when none */
	const char *arg;	/* NULL for a flag */
	const char *help;
	int (*set)(struct report_cli *c, const char *value, char *err, size_t errlen);
};

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

static int set_format(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "text", "json", "folded", "html", NULL };
	static const enum rep_format fmt[] = { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML };
	int i = pick("format", v, names, err, errlen);

	if (i >= 0)
		c->opts.format = fmt[i];
	return i < 0 ? -1 : 0;
}

static int set_view(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "flat", "callpath", "mpi", "cp",
		"compensation", NULL };
	static const enum rep_view view[] = { REP_FLAT, REP_CALLPATH, REP_MPI, REP_CP,
		REP_COMPENSATION };
	int i = pick("view", v, names, err, errlen);

	if (i >= 0)
		c->opts.view = view[i];
	return i < 0 ? -1 : 0;
}

static int set_compensate(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "none", "local", "parallel", NULL };
	static const enum rep_comp comp[] = { REP_COMP_NONE, REP_COMP_LOCAL,
		REP_COMP_PARALLEL };
	int i = pick("compensate", v, names, err, errlen);

	if (i >= 0)
		c->comp = comp[i];
	return i < 0 ? -1 : 0;
}

static int set_event(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "--event: empty event name; give one of the "
			 "recorded events (see the report's header)");
		return -1;
	}
	c->opts.event = v;
	return 0;
}

static int set_min_pct(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	char *end;
	double p = strtod(v, &end);

	if (!*v || *end || !isfinite(p) || p < 0 || p > 100) {
		snprintf(err, errlen, "--min-pct: '%s' is not a percentage; allowed: a "
			 "number from 0 to 100 (0 shows everything)", v);
		return -1;
	}
	c->opts.min_pct = p;
	return 0;
}

static int set_output(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "-o: empty file name; give a file, or - for stdout");
		return -1;
	}
	c->output = v;
	return 0;
}

static int set_run(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "--run: empty run; the report's header names the runs "
			 "of the directory");
		return -1;
	}
	c->run = v;
	return 0;
}

static int set_reference(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	(void)v, (void)err, (void)errlen;
	c->reference = true;
	return 0;
}

static int set_help(struct report_cli *c, const char *v, char *err, size_t errlen)
{
	(void)v, (void)err, (void)errlen;
	c->help = true;
	return 0;
}

static const struct report_option report_options[] = {
	{ "format", 0, "FMT", "text (default), json (all views; docs/json.md), "
	  "folded (FlameGraph, speedscope) or html (one offline page of all views; "
	  "docs/html.md)", set_format },
	{ "view", 0, "VIEW", "flat (default: self and total per function), callpath "
	  "(the tree), mpi (ranks, call sites, matrix), cp (the critical path) or "
	  "compensation (overhead per rank and source); text only, and folded "
	  "with cp", set_view },
	{ "compensate", 0, "MODE", "parallel (default: walls minus the final delay, "
	  "compensated waits), local (walls minus the rank's own overhead) or none "
	  "(as measured); local and parallel also drop the samples in cpperf's "
	  "runtime", set_compensate },
	{ "reference", 0, NULL, "critical path recomputed from the --cp-trace records "
	  "(with --view=cp or --format=json)", set_reference },
	{ "event", 0, "NAME", "the event text and folded show (default: the first "
	  "recorded)", set_event },
	{ "min-pct", 0, "P", "hide functions and call paths below P% (default 0.5 "
	  "for text, 0.01 for html, 0 for json; folded is never pruned)", set_min_pct },
	{ "run", 0, "ID", "report this run of the directory (default: the newest; "
	  "the header lists the others)", set_run },
	{ "output", 'o', "FILE", "write to FILE (replaced atomically), not stdout",
	  set_output },
	{ "help", 'h', NULL, "show this help", set_help },
};

#define REPORT_NOPTS (sizeof(report_options) / sizeof(report_options[0]))

static void report_usage(FILE *out)
{
	fputs("usage: cpperf report [DIR] [options]\n\n"
	      "Read every profile of the experiment DIR (default: the newest cpperf-*\n"
	      "directory here), merge them and print the profile.\n\n", out);
	for (size_t i = 0; i < REPORT_NOPTS; i++) {
		const struct report_option *o = &report_options[i];
		char lhs[64];

		snprintf(lhs, sizeof(lhs), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
		fprintf(out, "  %-20s %s\n", lhs + !o->short_name, o->help);
	}
}

/* Parse argv into c.  Returns 0, or -1 with a message. */
static int report_parse(struct report_cli *c, int argc, char **argv, char *err,
			size_t errlen)
{
	struct option longopts[REPORT_NOPTS + 1];
	char shorts[2 * REPORT_NOPTS + 2] = ":";
	size_t ns = 1;
	int ch, idx;

	memset(longopts, 0, sizeof(longopts));
	for (size_t i = 0; i < REPORT_NOPTS; i++) {
		const struct report_option *o = &report_options[i];

		longopts[i] = (struct option){ o->name, o->arg ? required_argument :
					       no_argument, NULL, 256 + (int)i };
		if (o->short_name) {
			shorts[ns++] = o->short_name;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	optind = 0;	/* glibc: also resets its internal state */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
		const struct report_option *o = NULL;

		if (ch == '?' || ch == ':') {
			const char *bad = argv[optind - 1];

			snprintf(err, errlen, ch == '?' ? "unknown option '%s'" :
				 "option '%s' needs a value", bad);
			return -1;
		}
		for (size_t i = 0; i < REPORT_NOPTS; i++)
			if (ch == 256 + (int)i || ch == report_options[i].short_name)
				o = &report_options[i];
		if (o->set(c, optarg ? optarg : "", err, errlen) < 0)
			return -1;
	}
	if (optind < argc)
		c->dir = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "one experiment directory at a time: '%s' and '%s'",
			 c->dir, argv[optind]);
		return -1;
	}
	if (c->reference && c->opts.view != REP_CP && c->opts.format != REP_JSON) {
		snprintf(err, errlen, "--reference goes with --view=cp or --format=json");
		return -1;
	}
	if (c->reference)
		c->opts.view = REP_CP_REFERENCE;
	return 0;
}

/* Load the experiment, render it into out.  Returns the exit status. */
static int report_run(const struct report_cli *c, struct outfile *out)
{
	char err[1024], newest[4096];
	const char *dir = c->dir;
	struct rep_data d;
	int rc;

	if (!dir) {
		if (exp_find_newest(".", newest, sizeof(newest), err, sizeof(err)) < 0)
			goto fail;
		dir = newest;
	}
	if (exp_load(&d, dir, c->run, err, sizeof(err)) < 0)
		goto fail;
	rc = rep_render_comp(&d, &c->opts, c->comp, out->f, err, sizeof(err));
	merge_release(&d);
	if (rc != 0) {
		fprintf(stderr, "cpperf: %s\n", err);
		return rc == 2 ? 2 : 1;
	}
	if (of_commit(out, err, sizeof(err)) < 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "cpperf: %s\n", err);
	return 1;
}

/*
 * `cpperf report [DIR] [options]`; argv[0] is "report".  Returns the exit
 * status (0, 1 or 2) after printing the report or one error.
 */
int cmd_report(int argc, char **argv)
{
	struct report_cli c = { .opts = { REP_TEXT, REP_FLAT, NULL, -1.0 },
				.comp = REP_COMP_PARALLEL };
	struct outfile out;
	char err[1024];
	int rc;

	if (report_parse(&c, argc, argv, err, sizeof(err)) < 0) {
		fprintf(stderr, "cpperf: report: %s\n(see 'cpperf report --help')\n", err);
		return 2;
	}
	if (c.help) {
		report_usage(stdout);
		return 0;
	}
	if (of_open(&out, c.output, err, sizeof(err)) < 0) {
		fprintf(stderr, "cpperf: %s\n", err);
		return 1;
	}
	rc = report_run(&c, &out);
	if (rc != 0)
		of_abort(&out);
	return rc;
}
