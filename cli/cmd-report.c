/*
 * cmd-report.c - `cpperf report [DIR] [options]`.
 *
 * A thin command in the git manner: it parses its options with the report
 * library's table (report/args.h), then calls the library (report/): find
 * the experiment, load and merge it, render it, write it (atomically with
 * -o).  Errors come back from the library as messages and are printed here
 * once, prefixed "cpperf: ".
 * Exit status: 0 done, 1 the experiment or the output is wrong (missing,
 * empty, corrupted, unwritable), 2 the command line is wrong.
 */
#include <stdio.h>
#include "commands.h"
#include "../report/args.h"
#include "../report/data.h"
#include "../report/experiment.h"
#include "../report/frame-names.h"
#include "../report/merge.h"
#include "../report/outfile.h"
#include "../report/render.h"

static void report_usage(FILE *out)
{
	fputs("usage: cpperf report [DIR] [options]\n\n"
	      "Read every profile of the experiment DIR (default: the newest cpperf-*\n"
	      "directory here), merge them and print the profile.\n\n", out);
	rep_args_describe(out);
}

/* Load the experiment, render it into out.  Returns the exit status. */
static int report_run(const struct rep_args *c, struct outfile *out)
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
	if (exp_load(&d, dir, c->run, c->rank_files ? EXP_RANK_FILES : 0, err, sizeof(err)) < 0)
		goto fail;
	if ((c->raw_addresses && rep_keep_addresses(&d, err, sizeof(err)) < 0) ||
	    (c->debuginfod && rep_fetch_names(&d, err, sizeof(err)) < 0)) {
		merge_release(&d);
		goto fail;
	}
	rc = rep_render_comp(&d, &c->opts, c->comp, c->cluster_tol, out->f, err, sizeof(err));
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
	struct rep_args c;
	struct outfile out;
	char err[1024];
	int rc;

	if (rep_args_parse(&c, argc, argv, err, sizeof(err)) < 0) {
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
