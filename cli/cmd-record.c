/*
 * cmd-record.c - cpperf-record: check the options, the program and the
 * events, make the experiment directory, then exec the program with the
 * runtime preloaded.
 *
 * Nothing is measured here, and the steps are the library's
 * (sampler/record-launch.h); this file prints their messages, prefixed
 * "cpperf-record: ", and their notices when notices are on.  The program
 * then replaces this process (same pid, same stdio, its exit status and
 * signals are the caller's to see).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sampler/options.h"
#include "../sampler/prog-check.h"
#include "../sampler/record-launch.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: cpperf-record [options] PROG [ARGS...]\n\n");
	for (const struct opt_desc *d = opt_table; d->long_name; d++) {
		char left[64];

		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name,
				 d->long_name, d->arg ? "=" : "", d->arg ? d->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->long_name,
				 d->arg ? "=" : "", d->arg ? d->arg : "");
		fprintf(out, "  %-28s %s [%s]\n", left, d->help, d->env);
	}
	fprintf(out, "\nSee docs/record.md.  Report with: cpperf report DIR\n");
}

/* Print err and return status, the exit status. */
static int fail(const char *err, int status)
{
	fprintf(stderr, "cpperf-record: %s\n", err);
	return status;
}

/* Print a step's notice, if any, when o lets notices through. */
static void tell(const struct rt_options *o, const char *notice)
{
	if (notice[0] && launch_notices_on(o))
		fprintf(stderr, "cpperf-record: %s\n", notice);
}

/* Choose the runtime for prog beside this executable; 0 or -1 (said). */
static int choose_runtime(const struct rt_options *o, const char *prog, char *runtime, size_t len)
{
	char exe_dir[PATH_MAX], notice[PATH_MAX + 256], err[PATH_MAX + 256];
	int rc;

	rc = launch_find_runtime(prog, launch_exe_dir(exe_dir, sizeof(exe_dir)) ? NULL : exe_dir,
				 runtime, len, notice, sizeof(notice), err, sizeof(err));
	tell(o, notice);
	return rc ? fail(err, -1) : 0;
}

int main(int argc, char **argv)
{
	struct rt_options o;
	char err[PATH_MAX + 256], notice[256], prog[PATH_MAX], runtime[PATH_MAX], pid[32];
	bool created;
	int first, status;

	opt_defaults(&o);
	if (opt_from_env(&o, err, sizeof(err)))
		return fail(err, 2);
	first = launch_parse_args(argc, argv, &o, err, sizeof(err));
	if (first == LAUNCH_HELP) {
		usage(stdout);
		return 0;
	}
	if (first < 0) {
		fail(err, 2);
		if (first == LAUNCH_NO_PROGRAM)
			usage(stderr);
		return 2;
	}
	status = launch_resolve_program(argv[first], getenv("PATH"), prog, sizeof(prog), err,
					sizeof(err));
	if (!status)
		status = prog_check(argv[first], prog, err, sizeof(err));
	if (status)
		return fail(err, status);
	status = launch_check_events(&o, notice, sizeof(notice), err, sizeof(err));
	tell(&o, notice);
	if (status)
		return fail(err, 2);
	if (choose_runtime(&o, prog, runtime, sizeof(runtime)))
		return 2;
	if (launch_make_output(&o, argv[first], &created, err, sizeof(err)))
		return fail(err, 2);
	launch_preload(runtime);
	launch_set_run();
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("CPPERF_ROOT_PID", pid, 1);
	execv(prog, argv + first);
	status = prog_access_error(argv[first], errno, err, sizeof(err));
	if (created)
		rmdir(o.output);
	return fail(err, status);
}
