/*
 * cmd-list.c - `cpperf list`: print the events usable on this host, like
 * `perf list`.  A thin command over sampler/events.c: it parses its options
 * from one table and calls ev_print_list or ev_print_all.
 */
#include "commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../sampler/events.h"

enum list_opt { LIST_HELP, LIST_ALL };

static const struct list_option {
	const char *shrt, *lng;
	enum list_opt id;
	const char *help;
} list_options[] = {
	{ "-a", "--all", LIST_ALL, "also list every libpfm4 event of the PMUs present" },
	{ "-h", "--help", LIST_HELP, "show this help" },
};

#define LIST_NOPTS (sizeof(list_options) / sizeof(list_options[0]))

static void list_usage(FILE *out)
{
	fprintf(out, "usage: cpperf list [options]\n\n"
		"Print the events this host offers for 'cpperf-record -e'.\n\n");
	for (size_t i = 0; i < LIST_NOPTS; i++)
		fprintf(out, "  %s, %-8s %s\n", list_options[i].shrt,
			list_options[i].lng, list_options[i].help);
}

static const struct list_option *list_find(const char *arg)
{
	for (size_t i = 0; i < LIST_NOPTS; i++)
		if (!strcmp(arg, list_options[i].shrt) || !strcmp(arg, list_options[i].lng))
			return &list_options[i];
	return NULL;
}

/*
 * `cpperf list [-a|--all] [-h|--help]`; argv[0] is "list".  Prints to
 * stdout; returns 0, or 2 with a message on stderr for a bad argument.
 */
int cmd_list(int argc, char **argv)
{
	bool all = false;

	for (int i = 1; i < argc; i++) {
		const struct list_option *o = list_find(argv[i]);
		if (!o) {
			fprintf(stderr, "cpperf: list: %s '%s'; see 'cpperf list --help'\n",
				argv[i][0] == '-' ? "unknown option" : "unexpected argument",
				argv[i]);
			return 2;
		}
		if (o->id == LIST_HELP) {
			list_usage(stdout);
			return 0;
		}
		all = true;
	}
	if (all)
		ev_print_all(stdout);
	else
		ev_print_list(stdout);
	return fflush(stdout) ? 1 : 0;
}
