/*
 * record-launch.h - what cpperf-record does before it execs the program:
 * take the options, find the program, check the events, choose the
 * runtime, make the experiment directory and set the environment the
 * runtime reads.
 *
 * Nothing here prints or exits.  A step that fails returns -1 (or the
 * shell's exit status where that matters) with a message in err; a step
 * that chose something the user should know about (a fallback event, a
 * runtime without MPI statistics) says it in notice ("" when nothing), and
 * the command decides whether to show it (launch_notices_on).
 */
#ifndef CPPERF_RECORD_LAUNCH_H
#define CPPERF_RECORD_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "options.h"

/* launch_parse_args's results besides the program's index. */
#define LAUNCH_HELP 0		/* -h or --help: show the usage, exit 0 */
#define LAUNCH_USAGE_ERROR (-1)
#define LAUNCH_NO_PROGRAM (-2)	/* a usage error after which the usage is shown */

/*
 * Parse argv up to the program name: validate every option into o and
 * export it through its CPPERF_* twin.  Returns the index of PROG in argv,
 * LAUNCH_HELP, or LAUNCH_USAGE_ERROR / LAUNCH_NO_PROGRAM with err set.
 */
int launch_parse_args(int argc, char **argv, struct rt_options *o, char *err, size_t errlen);

/*
 * Find prog as execvp would, in the directories of path_env (a PATH value;
 * NULL: "/usr/bin:/bin") unless prog has a '/'.  Returns 0 with the file in
 * path, or the shell's status with err: 127 not found, 126 not executable
 * (prog-check.h's prog_access_error says why).  Whether the runtime can be
 * preloaded into it is prog_check's to say.
 */
int launch_resolve_program(const char *prog, const char *path_env, char *path, size_t len,
			   char *err, size_t errlen);

/*
 * The default experiment directory's name for prog (its last component is
 * used): cpperf-PROG-JOB when job is not NULL, else cpperf-PROG-TIME-PID
 * with when in local time as YYYYMMDD-HHMMSS.
 */
void launch_output_name(char *buf, size_t len, const char *prog, const char *job, time_t when,
			int pid);

/*
 * Make the experiment directory o->output (the default name for prog when
 * empty, with CPPERF_OUTPUT_AGREE when ranks must agree on it later) with
 * opt_dir_mode's permissions (a directory that exists keeps its own), check
 * that a file can be created in it and set CPPERF_OUTPUT to its absolute
 * path.  *created says whether this call made it.  Returns 0 or -1.
 */
int launch_make_output(struct rt_options *o, const char *prog, bool *created, char *err,
		       size_t errlen);

/* The directory of this process's executable into dir.  Returns 0 or -1. */
int launch_exe_dir(char *dir, size_t len);

/*
 * The runtime for prog, looked for beside exe_dir (EXE_DIR/../lib/ or
 * EXE_DIR/../lib/cpperf/; NULL when unknown): the one with the wrappers of
 * the MPI prog links (CPPERF_MPI=openmpi|mpich|none overrides), else the
 * plain one; CPPERF_RUNTIME names a file instead.  An MPI runtime that was
 * not built gives a notice and the plain one.  Returns 0 with the file in
 * path, or -1.
 */
int launch_find_runtime(const char *prog, const char *exe_dir, char *path, size_t len,
			char *notice, size_t noticelen, char *err, size_t errlen);

/*
 * Choose the default event when none was asked (exported as CPPERF_EVENT)
 * and check that every event of o opens here, with PAPI when o asks for
 * it.  Returns 0, or -1 with err.
 */
int launch_check_events(struct rt_options *o, char *notice, size_t noticelen, char *err,
			size_t errlen);

/* Set CPPERF_RUN, the run's identity, unless it is set already. */
void launch_set_run(void);

/* Put runtime first in LD_PRELOAD, keeping what is there. */
void launch_preload(const char *runtime);

/* Whether cpperf-record shows its notices: not with -q, and under an MPI
 * launcher only on rank 0, so that N ranks do not say it N times. */
bool launch_notices_on(const struct rt_options *o);

#endif
