/*
 * experiment.c - find and load an experiment directory.
 *
 * cpperf-record writes one profile per process into a directory named
 * cpperf-<prog>-<time>-<id>; `cpperf report` without DIR takes the newest
 * such directory in the current directory (by modification time).  Loading
 * reads the profiles one at a time and merges each into a struct rep_data
 * as soon as it is read (merge.c), so memory holds one profile plus the
 * merged result.  Files are read in name order, so the result does not
 * depend on readdir's order.  Names starting with '.' are the writer's
 * temporaries and are skipped; anything wrong with a profile stops the load
 * with the file's name and the reader's message.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report.h"

#define EXP_PREFIX "cpperf-"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static bool newer(const struct stat *a, const char *aname,
		  const struct stat *b, const char *bname)
{
	if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
		return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
	if (a->st_mtim.tv_nsec != b->st_mtim.tv_nsec)
		return a->st_mtim.tv_nsec > b->st_mtim.tv_nsec;
	return strcmp(aname, bname) > 0;
}

int exp_find_newest(const char *parent, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	DIR *dir = opendir(parent);
	struct dirent *e;
	struct stat best = { 0 }, st;
	bool found = false;
	char path[4096];

	if (!dir) {
		snprintf(err, errlen, "%s: cannot open directory: %s", parent,
			 strerror(errno));
		return -1;
	}
	while ((e = readdir(dir))) {
		if (strncmp(e->d_name, EXP_PREFIX, strlen(EXP_PREFIX)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (found && !newer(&st, path, &best, out))
			continue;
		if ((size_t)snprintf(out, outlen, "%s", path) >= outlen)
			continue;
		best = st;
		found = true;
	}
	closedir(dir);
	if (!found) {
		snprintf(err, errlen, "no experiment directory (" EXP_PREFIX "*) in %s; "
			 "record one with cpperf-record or name it: cpperf report DIR",
			 parent);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* List the profile file names of dir, sorted.  Returns their number (>= 1),
 * or -1 with a message. */
static long list_profiles(const char *dir, char ***out, char *err, size_t errlen)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0;

	if (!dp) {
		struct stat st;

		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
			snprintf(err, errlen, "%s: not a directory; give an experiment "
				 "directory written by cpperf-record", dir);
		else
			snprintf(err, errlen, "%s: cannot open experiment directory: %s",
				 dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.' || !has_suffix(e->d_name, PROFILE_SUFFIX))
			continue;
		if (n == alloc) {
			char **m = realloc(names, (alloc = alloc * 2 + 16) * sizeof(*m));

			if (!m)
				goto oom;
			names = m;
		}
		if (!(names[n] = strdup(e->d_name)))
			goto oom;
		n++;
	}
	closedir(dp);
	if (n == 0) {
		free(names);
		snprintf(err, errlen, "%s: no profiles (*" PROFILE_SUFFIX ") in this "
			 "directory; did the profiled program run under cpperf-record?", dir);
		return -1;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	return (long)n;
oom:
	closedir(dp);
	free_names(names, n);
	snprintf(err, errlen, "%s: out of memory listing profiles", dir);
	return -1;
}

/* Read dir/name and merge it into d. */
static int load_one(struct rep_data *d, const char *dir, const char *name,
		    char *err, size_t errlen)
{
	struct profile p;
	char path[4096], msg[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	profile_init(&p);
	if (profile_read(&p, path, msg, sizeof(msg)) < 0) {
		/* The reader may or may not name the file itself. */
		if (strstr(msg, path))
			snprintf(err, errlen, "%s", msg);
		else
			snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	rc = merge_add(d, &p, path, err, errlen);
	profile_release(&p);
	return rc;
}

int exp_load(struct rep_data *d, const char *dir, char *err, size_t errlen)
{
	char **names = NULL;
	long n;
	int rc = 0;

	if (merge_init(d) < 0 || !(d->dir = strdup(dir))) {
		merge_release(d);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = list_profiles(dir, &names, err, errlen);
	if (n < 0)
		rc = -1;
	for (long i = 0; rc == 0 && i < n; i++)
		rc = load_one(d, dir, names[i], err, errlen);
	if (n > 0)
		free_names(names, (size_t)n);
	if (rc == 0)
		rc = merge_finish(d, err, errlen);
	if (rc < 0)
		merge_release(d);
	return rc;
}
