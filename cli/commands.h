/*
 * commands.h - the `cpperf` subcommands that cli/main.c dispatches to.
 * Each takes the arguments after `cpperf` (argv[0] is the command's own
 * name), writes its output to stdout and its errors, prefixed "cpperf: ",
 * to stderr, and returns the process exit status (0 ok, 1 failure, 2 usage).
 */
#ifndef CPPERF_COMMANDS_H
#define CPPERF_COMMANDS_H

/* `cpperf list [--all]`: the perf events this host offers (cli/cmd-list.c). */
int cmd_list(int argc, char **argv);

/* `cpperf report [DIR] [options]`: read, merge and render an experiment
 * (cli/cmd-report.c). */
int cmd_report(int argc, char **argv);

/* `cpperf merge [DIR] [--run=ID]`: a run's ranks' files into one merged
 * profile (cli/cmd-merge.c). */
int cmd_merge(int argc, char **argv);

/* `cpperf diff A B [options]`: two experiments side by side
 * (cli/cmd-diff.c). */
int cmd_diff(int argc, char **argv);

#endif
