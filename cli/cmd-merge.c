/*
 * cmd-merge.c - `cpperf merge [DIR] [--run=ID]`: merge a run's ranks'
 * files into DIR/merged.cpprof after the run, the file `cpperf-record
 * --merge=mpi` writes at MPI_Finalize, so that later reports read one
 * file.  The ranks' files stay; a signal that ends it leaves no temporary.
 * The merged file is private (0600), or the group's to read (0640) when
 * every profile of DIR is.
 * Exit status: 0 done, 1 the experiment cannot be merged or written, 2
 * the command line is wrong.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "commands.h"
#include "../report/experiment.h"
#include "../report/merge-run.h"
#include "../report/tmp-guard.h"

#define MERGED_NAME "merged" PROFILE_SUFFIX

static const char usage[] =
	"usage: cpperf merge [DIR] [--run=ID]\n\n"
	"Merge the ranks' profiles of one run of the experiment DIR (default: the\n"
	"newest cpperf-* directory here; --run: that run, not the newest) into\n"
	"DIR/" MERGED_NAME ", which `cpperf report` then reads instead of them.\n";

/* The merged profile's permissions: as readable as the profiles it is
 * made from, so the group reads it only when it reads all of them. */
static mode_t merged_mode(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat sb;
	size_t suffix = strlen(PROFILE_SUFFIX);
	bool group = d != NULL;

	while (group && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.' || n <= suffix || strcmp(e->d_name + n - suffix, PROFILE_SUFFIX) ||
		    !strcmp(e->d_name, MERGED_NAME))
			continue;
		group = fstatat(dirfd(d), e->d_name, &sb, 0) == 0 && (sb.st_mode & S_IRGRP);
	}
	if (d)
		closedir(d);
	return group ? PROFILE_GROUP_MODE : PROFILE_MODE;
}

/* Write p as dir's merged profile; its temporary goes if a signal ends
 * the command meanwhile.  Returns 0, or -1 with a message. */
static int write_merged(const struct profile *p, const char *dir, char *err, size_t errlen)
{
	char *tmp = profile_tmp_path(dir, MERGED_NAME);
	int rc;

	if (!tmp) {
		snprintf(err, errlen, "cannot write the merged profile: out of memory");
		return -1;
	}
	tmp_guard_arm(tmp);
	rc = profile_write_mode(p, dir, MERGED_NAME, merged_mode(dir), err, errlen);
	tmp_guard_disarm();
	free(tmp);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	const char *dir = NULL, *run = NULL;
	char err[1024], newest[4096];
	struct profile p;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strncmp(argv[i], "--run=", 6) && argv[i][6]) {
			run = argv[i] + 6;
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "cpperf: merge: unexpected '%s'\n%s", argv[i], usage);
			return 2;
		}
	}
	if (!dir) {
		if (exp_find_newest(".", newest, sizeof(newest), err, sizeof(err)) < 0)
			goto fail;
		dir = newest;
	}
	if (merge_run(dir, run, &p, err, sizeof(err)) < 0)
		goto fail;
	if (write_merged(&p, dir, err, sizeof(err)) < 0) {
		profile_release(&p);
		goto fail;
	}
	printf("%s/%s: %" PRIu64 " ranks merged\n", dir, MERGED_NAME, p.merged);
	profile_release(&p);
	return 0;
fail:
	fprintf(stderr, "cpperf: %s\n", err);
	return 1;
}
