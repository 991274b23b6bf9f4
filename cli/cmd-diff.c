/*
 * cmd-diff.c - `cpperf diff A B [options]`: two experiments side by side,
 * like `perf diff`: per function and call path the change in self and
 * total samples of every event both recorded, in critical-path time and
 * in MPI time, sorted by the size of the change (report/diff.h).
 * A thin command: each experiment is loaded and modelled as `cpperf
 * report --format=json` would (compensated in parallel), then the report
 * library compares them.
 * Exit status: 0 done, 1 an experiment or the output is wrong, 2 the
 * command line is wrong.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "../report/diff.h"
#include "../report/experiment.h"
#include "../report/merge.h"
#include "../report/model.h"
#include "../report/outfile.h"

#define DIFF_LIMIT 20	/* rows of each text table by default */

static const char usage[] =
	"usage: cpperf diff A B [--format=text|json|html] [--event=NAME] [--limit=N] [-o FILE]\n\n"
	"Compare the experiments A and B (directories, as cpperf report reads\n"
	"them): per function and call path the change from A to B in self and\n"
	"total samples of every event both recorded, per function in critical-path\n"
	"time, per MPI call site in time; each table sorted by the size of its\n"
	"change.\n\n"
	"  --format=FMT   text (default), json (every row of every table) or html\n"
	"                 (one offline page of the tables)\n"
	"  --event=NAME   the event whose self samples sort the tables (default: the\n"
	"                 first of A that B recorded too)\n"
	"  --limit=N      text: rows per table (default 20)\n"
	"  -o, --output=FILE  write to FILE (replaced atomically), not stdout\n"
	"  -h, --help     show this help\n";

struct diff_args {
	const char *dir[2], *event, *output;
	enum rep_diff_format format;
	bool help;
	size_t limit;
};

static int set_format(struct diff_args *a, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "text", "json", "html" };
	static const enum rep_diff_format fmt[] = { REP_DIFF_TEXT, REP_DIFF_JSON, REP_DIFF_HTML };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i])) {
			a->format = fmt[i];
			return 0;
		}
	snprintf(err, errlen, "--format: unknown value '%s'; allowed: text, json, html", v);
	return -1;
}

static int parse(struct diff_args *a, int argc, char **argv, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "event", required_argument, NULL, 'e' },
		{ "limit", required_argument, NULL, 'l' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int ch, ndirs = 0;
	char *end;

	*a = (struct diff_args){ .limit = DIFF_LIMIT };
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (set_format(a, optarg, err, errlen) < 0)
				return -1;
			break;
		case 'e':
			a->event = optarg;
			break;
		case 'l':
			a->limit = strtoul(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-') {
				snprintf(err, errlen, "--limit: '%s' is not a number of rows", optarg);
				return -1;
			}
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			a->help = true;
			return 0;
		default:
			snprintf(err, errlen, ch == ':' ? "option '%s' needs a value" : "unknown option '%s'",
				 argv[optind - 1]);
			return -1;
		}
	}
	for (; optind < argc; optind++)
		if (ndirs++ < 2)
			a->dir[ndirs - 1] = argv[optind];
	if (ndirs != 2) {
		snprintf(err, errlen, "give two experiment directories, A and B (%d given)", ndirs);
		return -1;
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct rep_opts o = { .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 };
	struct rep_data d[2];
	struct rep_model m[2];
	struct diff_args a;
	struct outfile out;
	char err[1024];
	int loaded = 0, modelled = 0, rc = 1;

	if (parse(&a, argc, argv, err, sizeof(err)) < 0) {
		fprintf(stderr, "cpperf: diff: %s\n(see 'cpperf diff --help')\n", err);
		return 2;
	}
	if (a.help) {
		fputs(usage, stdout);
		return 0;
	}
	for (; loaded < 2; loaded++)
		if (exp_load(&d[loaded], a.dir[loaded], NULL, 0, err, sizeof(err)) < 0)
			goto fail;
	for (; modelled < 2; modelled++)
		if (rep_model_build(&m[modelled], &d[modelled], &o, REP_COMP_PARALLEL, REP_CLUSTER_TOL,
				    err, sizeof(err)) != 0)
			goto fail;
	if (of_open(&out, a.output, err, sizeof(err)) < 0)
		goto fail;
	if (rep_diff(out.f, &m[0], &m[1], a.format, a.event, a.limit, err, sizeof(err)) < 0) {
		of_abort(&out);
		goto fail;
	}
	if (of_commit(&out, err, sizeof(err)) < 0)
		goto fail;
	rc = 0;
	goto done;
fail:
	fprintf(stderr, "cpperf: %s\n", err);
done:
	while (modelled-- > 0)
		rep_model_release(&m[modelled]);
	while (loaded-- > 0)
		merge_release(&d[loaded]);
	return rc;
}
