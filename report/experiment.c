/*
 * experiment.c - find and load an experiment directory.
 *
 * cpperf-record writes one profile per process into a directory named
 * cpperf-<prog>-<time>-<id>; `cpperf report` without DIR takes the newest
 * such directory in the current directory (by modification time).  Loading
 * first reads every file's header (who wrote it, in which run, whether it
 * is whole) to choose the files of one run, then reads those on several
 * threads and merges each into a struct rep_data in name order as soon as
 * it is read (read-ahead.c, merge.c), so memory holds a few profiles plus
 * the merged result.  Files are read in
 * name order, so the result does not depend on readdir's order.  Names
 * starting with '.' are the writer's temporaries and locks and are
 * skipped; anything wrong with a profile stops the load with the file's
 * name and the reader's message, a name that is not a regular file (a
 * FIFO would block the report) too.  What the run lacks is listed: profiles
 * that end early (with, for a checkpoint, whether its writer still runs:
 * the flock on its .live file) and ranks without a profile.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "data.h"
#include "experiment.h"
#include "merge.h"
#include "read-ahead.h"
#include "../common/regular-file.h"

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

/* One file of the directory: its name and header. */
struct exp_file {
	char *name;
	struct profile head;	/* header records only (profile_read_head) */
	bool chosen;		/* of the run reported, and not superseded */
};

static void free_files(struct exp_file *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++) {
		free(f[i].name);
		profile_release(&f[i].head);
	}
	free(f);
}

/* The headers of names[0..n) (taking the names over).  Returns 0, or -1
 * with a message. */
static int read_heads(const char *dir, char **names, size_t n, struct exp_file **out,
		      char *err, size_t errlen)
{
	struct exp_file *f = calloc(n, sizeof(*f));
	char path[4096];

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		f[i].name = names[i];
		names[i] = NULL;
		profile_init(&f[i].head);
	}
	*out = f;
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, f[i].name);
		if (profile_read_head(&f[i].head, path, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The runs of the directory, newest (latest start) first. */
static int cmp_runs(const void *a, const void *b)
{
	const struct rep_run *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns > y->start_ns ? -1 : 1;
	return strcmp(x->id, y->id);
}

static int list_runs(const struct exp_file *f, size_t n, struct rep_run **out, uint32_t *nout)
{
	struct rep_run *r = calloc(n, sizeof(*r));
	uint32_t k = 0;

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint32_t j = 0;

		while (j < k && strcmp(r[j].id, f[i].head.run))
			j++;
		if (j == k && !(r[k++].id = strdup(f[i].head.run)))
			return -1;
		r[j].nprofiles++;
		if (f[i].head.start_ns > r[j].start_ns)
			r[j].start_ns = f[i].head.start_ns;
	}
	qsort(r, k, sizeof(*r), cmp_runs);
	*out = r;
	*nout = k;
	return 0;
}

/* Choose the run (want, or the newest) and keep the others in d.  Returns
 * 0, or -1 with a message listing the runs when want is not one. */
static int choose_run(struct rep_data *d, const struct exp_file *f, size_t n,
		      const char *want, char *err, size_t errlen)
{
	struct rep_run *r = NULL;
	uint32_t k = 0, pick = 0;

	if (list_runs(f, n, &r, &k) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (want && pick < k && strcmp(r[pick].id, want))
		pick++;
	if (pick == k) {
		size_t at = (size_t)snprintf(err, errlen, "%s: no profile of run '%s'; its runs:",
					     d->dir, want);

		for (uint32_t i = 0; i < k && at < errlen; i++)
			at += (size_t)snprintf(err + at, errlen - at, "%s '%s' (%u profiles)",
					       i ? "," : "", r[i].id, r[i].nprofiles);
		for (uint32_t i = 0; i < k; i++)
			free(r[i].id);
		free(r);
		return -1;
	}
	d->run = r[pick].id;
	memmove(r + pick, r + pick + 1, (k - pick - 1) * sizeof(*r));
	d->other_runs = r;
	d->nother_runs = k - 1;
	return 0;
}

/* Files of one process next to each other. */
static int cmp_process(const void *a, const void *b)
{
	const struct profile *x = &(*(struct exp_file *const *)a)->head;
	const struct profile *y = &(*(struct exp_file *const *)b)->head;
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The run's merged profile that covers most ranks (the latest of those),
 * or NULL. */
static struct exp_file *merged_file(const struct rep_data *d, struct exp_file *f, size_t n)
{
	struct exp_file *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (f[i].head.merged && !strcmp(f[i].head.run, d->run) &&
		    (!best || f[i].head.merged > best->head.merged ||
		     (f[i].head.merged == best->head.merged && f[i].head.end_ns > best->head.end_ns)))
			best = &f[i];
	return best;
}

/* Mark the files of run d->run: its merged profile alone when there is
 * one and flags allow, else the ranks' files, leaving out the earlier
 * file of a process that wrote two (a checkpoint before MPI_Init gave it
 * a rank, whose removal a reader may see late).  Returns 0, or -1
 * (memory). */
static int choose_files(const struct rep_data *d, struct exp_file *f, size_t n, unsigned flags)
{
	struct exp_file **by, *merged = flags & EXP_RANK_FILES ? NULL : merged_file(d, f, n);
	size_t k = 0;

	for (size_t i = 0; merged && i < n; i++)
		f[i].chosen = &f[i] == merged;
	if (merged)
		return 0;
	if (!(by = malloc(n * sizeof(*by))))
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((f[i].chosen = !strcmp(f[i].head.run, d->run) && !f[i].head.merged))
			by[k++] = &f[i];
	qsort(by, k, sizeof(*by), cmp_process);
	for (size_t i = 1; i < k; i++)
		if (!cmp_process(&by[i - 1], &by[i])) {
			bool later = by[i]->head.end_ns > by[i - 1]->head.end_ns;

			(later ? by[i - 1] : by[i])->chosen = false;
			if (!later)
				by[i] = by[i - 1];	/* the kept one meets the next */
		}
	free(by);
	return 0;
}

/* Whether the writer of a checkpoint still runs: its .live file's lock;
 * unknown when there is none, or it is not a regular file. */
static enum rep_live live_state(const char *dir, const struct profile *h)
{
	char path[4096], why[64];
	enum rep_live live;
	int fd;

	if (strcmp(h->partial, "checkpoint"))
		return REP_LIVE_NONE;
	snprintf(path, sizeof(path), "%s/.%s.%lld.%llx.live", dir, h->host, (long long)h->pid,
		 (unsigned long long)h->start_ns);
	fd = regfile_open(path, why, sizeof(why));	/* a FIFO would block */
	if (fd < 0)
		return REP_LIVE_UNKNOWN;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		live = REP_LIVE_DEAD;
	} else {
		live = errno == EWOULDBLOCK ? REP_LIVE_RUNNING : REP_LIVE_UNKNOWN;
	}
	close(fd);
	return live;
}

static int cmp_partial(const void *a, const void *b)
{
	const struct rep_partial *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* List the chosen files that end early.  Returns 0, or -1 (memory). */
static int note_partial(struct rep_data *d, const struct exp_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct profile *h = &f[i].head;
		struct rep_partial *p;

		if (!f[i].chosen || !*h->partial)
			continue;
		if (!(d->npartial % 16)) {
			struct rep_partial *m = realloc(d->partial, (d->npartial + 16) * sizeof(*m));

			if (!m)
				return -1;
			d->partial = m;
		}
		p = &d->partial[d->npartial];
		*p = (struct rep_partial){ h->rank, h->pid, strdup(h->host), strdup(h->partial),
			h->end_ns > h->start_ns ? h->end_ns - h->start_ns : 0, live_state(d->dir, h) };
		if (!p->host || !p->reason) {
			free(p->host);
			free(p->reason);
			return -1;
		}
		d->npartial++;
	}
	if (d->npartial)
		qsort(d->partial, d->npartial, sizeof(*d->partial), cmp_partial);
	return 0;
}

/* The ranks of the job that no chosen file holds.  Returns 0, or -1. */
static int note_missing(struct rep_data *d)
{
	const struct rep_mpi *m = &d->mpi;

	for (int64_t r = 0; m->seen && r < m->size; r++)
		if (!(m->seen[r / 8] & (1u << (r % 8))) && rank_runs_add(&d->missing, r) < 0)
			return -1;
	return 0;
}

bool exp_live(const struct rep_data *d)
{
	for (uint32_t i = 0; i < d->npartial; i++)
		if (d->partial[i].live == REP_LIVE_RUNNING)
			return true;
	return false;
}

/* Read path and merge it into d. */
/* Read path and merge it into d: the whole profile, or (kept >= 0) the
 * kept tree of that index of a merged profile, as that rank's own. */
static int load_path(struct rep_data *d, const char *path, int64_t kept, char *err,
		     size_t errlen)
{
	struct profile p, one;
	char msg[512];
	int rc;

	profile_init(&p);
	if (profile_read(&p, path, msg, sizeof(msg)) < 0) {
		/* The reader may or may not name the file itself. */
		if (strstr(msg, path))
			snprintf(err, errlen, "%s", msg);
		else
			snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	if (kept >= 0) {
		rc = profile_kept_rank(&p, (uint32_t)kept, &one);
		profile_release(&p);
		if (rc < 0) {
			snprintf(err, errlen, "%s: no kept tree %lld, or out of memory", path,
				 (long long)kept);
			return -1;
		}
		p = one;
	}
	rc = merge_add(d, &p, NULL, path, err, errlen);
	profile_release(&p);
	return rc;
}

static int prepare_one(struct profile *p, void **extra, char *err, size_t errlen)
{
	struct cpath_prep *prep;
	int rc = merge_prepare(p, &prep, err, errlen);

	*extra = prep;
	return rc;
}

static int merge_one(void *d, struct profile *p, void *extra, const char *path,
		     char *err, size_t errlen)
{
	return merge_add(d, p, extra, path, err, errlen);
}

static void drop_one(void *extra)
{
	merge_prepared_free(extra);
}

static const struct read_ahead_ops merge_ops = {
	.prep = prepare_one, .use = merge_one, .drop = drop_one,
};

/* The paths of the chosen files of f, in name order, into *out (k of
 * them).  Returns 0, or -1 with a message. */
static int chosen_paths(const char *dir, const struct exp_file *f, size_t n, char ***out,
			size_t *k, char *err, size_t errlen)
{
	char **paths = calloc(n ? n : 1, sizeof(*paths));

	*k = 0;
	for (size_t i = 0; paths && i < n; i++)
		if (f[i].chosen && asprintf(&paths[(*k)++], "%s/%s", dir, f[i].name) < 0) {
			paths[--*k] = NULL;
			free_names(paths, *k);
			paths = NULL;
		}
	if (!paths) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*out = paths;
	return 0;
}

/* Read the chosen files of f and merge them into d, in name order. */
static int load_chosen(struct rep_data *d, const struct exp_file *f, size_t n,
		       char *err, size_t errlen)
{
	char **paths;
	size_t k;
	int rc;

	if (chosen_paths(d->dir, f, n, &paths, &k, err, errlen) < 0)
		return -1;
	rc = read_ahead((const char *const *)paths, k, &merge_ops, d, err, errlen);
	free_names(paths, k);
	return rc;
}

static int load_one(struct rep_data *d, const char *path, int64_t kept, char *err,
		    size_t errlen)
{
	if (merge_init(d) < 0 || !(d->dir = strdup(path))) {
		merge_release(d);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (load_path(d, path, kept, err, errlen) < 0 || merge_finish(d, err, errlen) < 0) {
		merge_release(d);
		return -1;
	}
	return 0;
}

int exp_load_file(struct rep_data *d, const char *path, char *err, size_t errlen)
{
	return load_one(d, path, -1, err, errlen);
}

int exp_load_kept(struct rep_data *d, const char *path, uint32_t k, char *err, size_t errlen)
{
	return load_one(d, path, k, err, errlen);
}

/* Choose, read and merge the files of one run. */
static int load_run(struct rep_data *d, struct exp_file *f, size_t n, const char *run,
		    unsigned flags, char *err, size_t errlen)
{
	if (choose_run(d, f, n, run, err, errlen) < 0)
		return -1;
	if (choose_files(d, f, n, flags) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (load_chosen(d, f, n, err, errlen) < 0 || merge_finish(d, err, errlen) < 0)
		return -1;
	if (note_partial(d, f, n) < 0 || note_missing(d) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* See experiment.h. */
int exp_run_paths(const char *dir, const char *run, char ***paths, size_t *npaths,
		  char *err, size_t errlen)
{
	struct exp_file *files = NULL;
	struct rep_data d;
	char **names = NULL;
	long n;
	int rc = -1;

	if (merge_init(&d) < 0 || !(d.dir = strdup(dir))) {
		merge_release(&d);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = list_profiles(dir, &names, err, errlen);
	if (n > 0 && read_heads(dir, names, (size_t)n, &files, err, errlen) == 0 &&
	    choose_run(&d, files, (size_t)n, run, err, errlen) == 0) {
		if (choose_files(&d, files, (size_t)n, EXP_RANK_FILES) < 0)
			snprintf(err, errlen, "out of memory");
		else
			rc = chosen_paths(dir, files, (size_t)n, paths, npaths, err, errlen);
	}
	if (n > 0) {
		free_files(files, files ? (size_t)n : 0);
		free_names(names, (size_t)n);
	}
	merge_release(&d);
	return rc;
}

int exp_load(struct rep_data *d, const char *dir, const char *run, unsigned flags,
	     char *err, size_t errlen)
{
	struct exp_file *files = NULL;
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
	else
		rc = read_heads(dir, names, (size_t)n, &files, err, errlen);
	if (rc == 0)
		rc = load_run(d, files, (size_t)n, run, flags, err, errlen);
	if (n > 0) {
		free_files(files, files ? (size_t)n : 0);
		free_names(names, (size_t)n);
	}
	if (rc < 0)
		merge_release(d);
	return rc;
}
