/*
 * args.h - `cpperf report`'s command line: one table of options, parsed
 * into what the report library needs (rep_opts, the compensation mode, the
 * experiment directory, the run, the output file) and described by the
 * same table in the help.
 */
#ifndef CPPERF_REPORT_ARGS_H
#define CPPERF_REPORT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compensation.h"
#include "render.h"

struct rep_args {
	struct rep_opts opts;
	enum rep_comp comp;	/* --compensate */
	double cluster_tol;	/* --cluster-tol, percent */
	const char *output;	/* -o; NULL: stdout */
	const char *dir;	/* NULL: the newest cpperf-* directory here */
	const char *run;	/* --run; NULL: the newest */
	bool rank_files;	/* --rank-files: not the merged profile */
	bool raw_addresses;	/* --raw-addresses */
	bool debuginfod;	/* --debuginfod */
	bool help;
	bool reference;		/* --reference: view becomes REP_CP_REFERENCE */
};

/*
 * Parse argv (argv[0] is the command's name) into a, from the defaults
 * (text, flat, compensated in parallel).  The strings a points to are
 * argv's.  Returns 0, or -1 with a message in err.
 */
int rep_args_parse(struct rep_args *a, int argc, char **argv, char *err, size_t errlen);

/* Write one line per option, its syntax and its help, to out. */
void rep_args_describe(FILE *out);

#endif
