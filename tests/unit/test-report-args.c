/*
 * test-report-args.c - unit tests for report/args.c, `cpperf report`'s
 * command line: the defaults, every option's values and refusals (each
 * refusal's message, with the allowed values where there is a list), the
 * --reference rule, the directory operand and the help lines.
 */
#include <stdlib.h>

#include "../../report/args.h"
#include <string.h>
#include "tap.h"

static struct rep_args A;
static char err[1024];

/* Parse the arguments after "report" into A. */
static int parse(int n, const char **args)
{
	char *argv[64] = { "report" };

	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	err[0] = '\0';
	return rep_args_parse(&A, n + 1, argv, err, sizeof(err));
}

static void test_defaults(void)
{
	is_int(parse(0, NULL), 0, "no arguments parse");
	is_int(A.opts.format, REP_TEXT, "text by default");
	is_int(A.opts.view, REP_FLAT, "flat by default");
	is_int(A.comp, REP_COMP_PARALLEL, "compensated in parallel by default");
	ok(A.opts.event == NULL && A.output == NULL && A.dir == NULL && A.run == NULL,
	   "no event, output, directory or run by default");
	ok(A.opts.min_pct < 0, "the format's --min-pct by default");
	ok(A.cluster_tol == REP_CLUSTER_TOL && REP_CLUSTER_TOL == 2.0,
	   "--cluster-tol 2 by default");
	ok(!A.help && !A.reference, "no --help, no --reference by default");
}

static void test_values(void)
{
	static const char *const formats[] = { "text", "json", "folded", "html", "graphml",
		"speedscope", "hatchet", "pprof" };
	static const enum rep_format format_of[] = { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML,
		REP_GRAPHML, REP_SPEEDSCOPE, REP_HATCHET, REP_PPROF };
	static const char *const views[] = { "flat", "callpath", "mpi", "cp", "compensation",
		"waits", "graph" };
	static const enum rep_view view_of[] = { REP_FLAT, REP_CALLPATH, REP_MPI, REP_CP,
		REP_COMPENSATION, REP_WAITS, REP_GRAPH };
	static const char *const comps[] = { "none", "local", "parallel" };
	static const enum rep_comp comp_of[] = { REP_COMP_NONE, REP_COMP_LOCAL, REP_COMP_PARALLEL };
	char opt[64];

	for (int i = 0; i < 5; i++) {
		snprintf(opt, sizeof(opt), "--format=%s", formats[i]);
		ok(parse(1, (const char *[]){ opt }) == 0 && A.opts.format == format_of[i], opt);
	}
	for (int i = 0; i < 7; i++) {
		snprintf(opt, sizeof(opt), "--view=%s", views[i]);
		ok(parse(1, (const char *[]){ opt }) == 0 && A.opts.view == view_of[i], opt);
	}
	for (int i = 0; i < 3; i++) {
		ok(parse(2, (const char *[]){ "--compensate", comps[i] }) == 0 && A.comp == comp_of[i],
		   comps[i]);
	}
	is_int(parse(5, (const char *[]){ "--event=page-faults", "--run", "r1", "-o", "out.txt" }), 0,
	       "--event, --run and -o parse");
	is_str(A.opts.event, "page-faults", "--event kept");
	is_str(A.run, "r1", "--run kept");
	is_str(A.output, "out.txt", "-o kept");
	is_int(parse(1, (const char *[]){ "--output=-" }), 0, "--output=- (stdout)");
	is_str(A.output, "-", "--output=- kept");
	ok(parse(3, (const char *[]){ "--metric", "ipc=instructions/cycles", "--metric=x=a+b" }) == 0 &&
	   A.opts.nmetrics == 2 && !strcmp(A.opts.metrics[0], "ipc=instructions/cycles") &&
	   !strcmp(A.opts.metrics[1], "x=a+b"), "--metric repeats, in order, beside --metrics");
	{
		const char *many[2 * REP_METRICS + 2];

		for (int i = 0; i < 2 * REP_METRICS + 2; i++)
			many[i] = i % 2 ? "m=cycles" : "--metric";
		ok(parse(2 * REP_METRICS + 2, many) == -1 && strstr(err, "at most 16"),
		   "--metric more than 16 times: refused, saying the limit");
	}
	is_int(parse(1, (const char *[]){ "-h" }), 0, "-h parses");
	ok(A.help, "-h asks for help");
	is_int(parse(2, (const char *[]){ "--help", "--bogus-after" }), -1, "--help does not stop the parsing: a later error is still one");
}

static void test_refused(void)
{
	is_int(parse(1, (const char *[]){ "--format=xml" }), -1, "unknown format refused");
	is_str(err, "--format: unknown value 'xml'; allowed: text, json, folded, html, graphml, "
	       "speedscope, hatchet, pprof",
	       "unknown format's message lists the formats");
	is_int(parse(1, (const char *[]){ "--view=tree" }), -1, "unknown view refused");
	is_str(err, "--view: unknown value 'tree'; allowed: flat, callpath, mpi, cp, compensation, "
	       "waits, graph, threads", "unknown view's message lists the views");
	is_int(parse(1, (const char *[]){ "--compensate=all" }), -1, "unknown compensation refused");
	is_str(err, "--compensate: unknown value 'all'; allowed: none, local, parallel",
	       "unknown compensation's message lists the modes");
	is_int(parse(1, (const char *[]){ "--compensate=" }), -1, "empty compensation refused");
	is_str(err, "--compensate: unknown value ''; allowed: none, local, parallel",
	       "empty compensation's message");

	is_int(parse(1, (const char *[]){ "--min-pct=0" }), 0, "--min-pct=0");
	ok(A.opts.min_pct == 0, "--min-pct=0 kept");
	is_int(parse(1, (const char *[]){ "--min-pct=100" }), 0, "--min-pct=100");
	ok(A.opts.min_pct == 100, "--min-pct=100 kept");
	is_int(parse(1, (const char *[]){ "--min-pct=2.5" }), 0, "--min-pct=2.5");
	ok(A.opts.min_pct == 2.5, "--min-pct=2.5 kept");
	is_int(parse(1, (const char *[]){ "--min-pct=100.5" }), -1, "--min-pct above 100 refused");
	is_str(err, "--min-pct: '100.5' is not a percentage; allowed: a number from 0 to 100 "
	       "(0 shows everything)", "--min-pct above 100's message");
	is_int(parse(1, (const char *[]){ "--min-pct=-1" }), -1, "--min-pct below 0 refused");
	is_int(parse(1, (const char *[]){ "--min-pct=5%" }), -1, "--min-pct with a % refused");
	is_int(parse(1, (const char *[]){ "--min-pct=nan" }), -1, "--min-pct=nan refused");
	is_int(parse(1, (const char *[]){ "--min-pct=" }), -1, "--min-pct empty refused");
	is_str(err, "--min-pct: '' is not a percentage; allowed: a number from 0 to 100 "
	       "(0 shows everything)", "--min-pct empty's message");

	is_int(parse(1, (const char *[]){ "--cluster-tol=0" }), 0, "--cluster-tol=0");
	ok(A.cluster_tol == 0, "--cluster-tol=0 kept");
	is_int(parse(2, (const char *[]){ "--cluster-tol", "7.5" }), 0, "--cluster-tol 7.5");
	ok(A.cluster_tol == 7.5, "--cluster-tol 7.5 kept");
	is_int(parse(1, (const char *[]){ "--cluster-tol=101" }), -1, "--cluster-tol above 100 refused");
	is_str(err, "--cluster-tol: '101' is not a percentage; allowed: a number from 0 to 100 "
	       "(0 puts only equal times in one class)", "--cluster-tol above 100's message");
	is_int(parse(1, (const char *[]){ "--cluster-tol=-0.5" }), -1, "--cluster-tol below 0 refused");
	is_int(parse(1, (const char *[]){ "--cluster-tol=2%" }), -1, "--cluster-tol with a % refused");
	is_int(parse(1, (const char *[]){ "--cluster-tol=" }), -1, "--cluster-tol empty refused");

	is_int(parse(2, (const char *[]){ "-o", "" }), -1, "-o empty refused");
	is_str(err, "-o: empty file name; give a file, or - for stdout", "-o empty's message");
	is_int(parse(1, (const char *[]){ "--event=" }), -1, "--event empty refused");
	is_str(err, "--event: empty event name; give one of the recorded events (see the report's "
	       "header)", "--event empty's message");
	is_int(parse(1, (const char *[]){ "--run=" }), -1, "--run empty refused");
	is_str(err, "--run: empty run; the report's header names the runs of the directory",
	       "--run empty's message");

	is_int(parse(1, (const char *[]){ "--bogus" }), -1, "unknown option refused");
	is_str(err, "unknown option '--bogus'", "unknown option's message");
	is_int(parse(1, (const char *[]){ "-x" }), -1, "unknown short option refused");
	is_str(err, "unknown option '-x'", "unknown short option's message");
	is_int(parse(1, (const char *[]){ "-o" }), -1, "-o without a value refused");
	is_str(err, "option '-o' needs a value", "missing value's message");
	is_int(parse(1, (const char *[]){ "--format" }), -1, "--format without a value refused");
	is_str(err, "option '--format' needs a value", "missing long value's message");
	is_int(parse(1, (const char *[]){ "--reference=1" }), -1, "a value on a flag refused");
}

static void test_reference(void)
{
	is_int(parse(1, (const char *[]){ "--reference" }), -1, "--reference alone refused");
	is_str(err, "--reference goes with --view=cp or --format=json", "--reference's rule");
	is_int(parse(2, (const char *[]){ "--reference", "--view=flat" }), -1,
	       "--reference with another view refused");
	is_int(parse(2, (const char *[]){ "--reference", "--view=cp" }), 0, "--reference --view=cp");
	is_int(A.opts.view, REP_CP_REFERENCE, "--reference --view=cp: the reference view");
	is_int(parse(2, (const char *[]){ "--format=json", "--reference" }), 0,
	       "--format=json --reference");
	is_int(A.opts.view, REP_CP_REFERENCE, "--format=json --reference: the reference view");
	ok(A.reference, "--reference kept");
}

static void test_operands(void)
{
	is_int(parse(2, (const char *[]){ "exp1", "--format=json" }), 0, "a directory before options");
	is_str(A.dir, "exp1", "the directory kept");
	is_int(A.opts.format, REP_JSON, "options after the directory taken");
	is_int(parse(2, (const char *[]){ "--view=mpi", "exp2" }), 0, "a directory after options");
	is_str(A.dir, "exp2", "the directory after options kept");
	is_int(parse(3, (const char *[]){ "exp1", "--view=cp", "exp2" }), -1, "two directories refused");
	is_str(err, "one experiment directory at a time: 'exp1' and 'exp2'",
	       "two directories' message names both");
	is_int(parse(2, (const char *[]){ "--", "-exp" }), 0, "-- ends the options");
	is_str(A.dir, "-exp", "a directory after --");
}

static void test_describe(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		tap_bail("open_memstream failed");
	rep_args_describe(f);
	fclose(f);
	ok(!strncmp(text, "    --format=FMT       text (default), json", 42),
	   "a long option first: aligned under the short ones' long names, then its help");
	ok(strstr(text, "\n  -o, --output=FILE    write to FILE (replaced atomically), not stdout\n") != NULL,
	   "a short option: -o, --output=FILE");
	ok(strstr(text, "\n    --reference        critical path") != NULL, "a flag: no value");
	ok(strstr(text, "\n  -h, --help           show this help\n") != NULL, "--help described last");
	is_int(strlen(text) > 0 ? text[strlen(text) - 1] : 0, '\n', "ends with a newline");
	free(text);
}

int main(void)
{
	test_defaults();
	test_values();
	test_refused();
	test_reference();
	test_operands();
	test_describe();
	return tap_done();
}
