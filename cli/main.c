/*
 * main.c - the `cpperf` command: a git-style dispatcher.
 *
 * `cpperf COMMAND [ARGS]` runs the command's cmd_* function (commands.h)
 * with argv starting at COMMAND; `cpperf help [COMMAND]`, `cpperf --help`
 * and `cpperf --version` are answered here.  Unknown commands get an error
 * listing the commands and exit status 2, like every usage error.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "report", cmd_report, "read an experiment and print its profile (text, json, folded, html)" },
	{ "diff", cmd_diff, "compare two experiments, per function, call path, critical path and MPI site" },
	{ "merge", cmd_merge, "merge a run's ranks' profiles into one, as --merge=mpi does" },
	{ "list", cmd_list, "list the events this host can sample" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("usage: cpperf COMMAND [ARGS]\n"
	      "       cpperf --version | help [COMMAND]\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("\nRecord with: cpperf-record [options] PROG [ARGS]\n"
	      "'cpperf COMMAND --help' describes a command's options.\n", out);
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static int unknown(const char *name)
{
	fprintf(stderr, "cpperf: '%s' is not a cpperf command; commands:", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, "%s %s", i ? "," : "", commands[i].name);
	fputs(", help (see 'cpperf help')\n", stderr);
	return 2;
}

/* `cpperf help [COMMAND]`: the command's own --help, or the overview. */
static int help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	const struct command *c = find(argv[1]);
	char help_opt[] = "--help";
	char *args[] = { argv[1], help_opt, NULL };

	return c ? c->run(2, args) : unknown(argv[1]);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("cpperf %s\n", CPPERF_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(argc - 1, argv + 1);
	c = find(argv[1]);
	if (!c)
		return unknown(argv[1]);
	return c->run(argc - 1, argv + 1);
}
