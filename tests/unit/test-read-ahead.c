/*
 * test-read-ahead.c - unit tests of the report's reading of many profiles
 * on several threads (report/read-ahead.c): every file used once and in
 * file order, with what prep made of it; no more profiles read ahead than
 * the documented bound; and on a use that fails, a file that cannot be
 * read or a prep that fails, a stop at that file, with its message, and
 * every prepared result either used or dropped.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "../../report/read-ahead.h"

#define NFILES 203		/* not a multiple of any thread count or ring */
#define PID0 1000
#define AHEAD_PER_THREAD 8

static char dir[] = "/tmp/cpperf-read-ahead-XXXXXX";
static const char *paths[NFILES];

static atomic_uint preps, drops;
static unsigned uses, most_ahead;
static int fail_use_at = -1, fail_prep_at = -1;

static void write_file(size_t i)
{
	struct profile p;
	char name[64], err[256], *path;

	profile_init(&p);
	p.host = strdup("node");
	p.run = strdup("run1");
	p.pid = PID0 + (int64_t)i;
	p.samples = i;
	p.nevents = 1;
	p.events = calloc(1, sizeof(*p.events));
	p.events[0].name = strdup("task-clock");
	cct_init(&p.tree, 1);
	snprintf(name, sizeof(name), "p%03zu" PROFILE_SUFFIX, i);
	if (profile_write(&p, dir, name, err, sizeof(err)))
		printf("# %s\n", err);
	profile_release(&p);
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		abort();
	paths[i] = path;
}

/* prep: the pid it read, in a block of its own. */
static int prep(struct profile *p, void **extra, char *err, size_t errlen)
{
	int64_t *pid;

	atomic_fetch_add(&preps, 1);
	if (p->pid == PID0 + fail_prep_at) {
		snprintf(err, errlen, "prep refused");
		return -1;
	}
	if (!(pid = malloc(sizeof(*pid))))
		abort();
	*pid = p->pid;
	*extra = pid;
	return 0;
}

static void drop(void *extra)
{
	atomic_fetch_add(&drops, 1);
	free(extra);
}

/* use: file number uses, in order, and its own prep's result. */
static int use(void *arg, struct profile *p, void *extra, const char *path, char *err,
	       size_t errlen)
{
	unsigned *in_order = arg, ahead = atomic_load(&preps) - uses;
	int64_t *pid = extra;

	if (ahead > most_ahead)
		most_ahead = ahead;
	*in_order += p->pid == PID0 + uses && pid && *pid == p->pid &&
		     !strcmp(path, paths[uses]);
	free(pid);
	if ((int)uses++ == fail_use_at) {
		snprintf(err, errlen, "use refused %s", path);
		return -1;
	}
	return 0;
}

static const struct read_ahead_ops ops = { .prep = prep, .use = use, .drop = drop };

/* Read the first n files; the number used in order into *in_order. */
static int run(size_t n, unsigned *in_order, char *err, size_t errlen)
{
	atomic_store(&preps, 0);
	atomic_store(&drops, 0);
	uses = most_ahead = 0;
	*in_order = 0;
	err[0] = '\0';
	return read_ahead(paths, n, &ops, in_order, err, errlen);
}

static void test_in_order(void)
{
	unsigned in_order;
	char err[512];

	is_int(run(NFILES, &in_order, err, sizeof(err)), 0, "all files read");
	is_int(in_order, NFILES, "each used once, in file order, with its own prep");
	is_int(atomic_load(&preps), NFILES, "each prepared once");
	is_int(atomic_load(&drops), 0, "nothing dropped");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;

	ok(most_ahead <= AHEAD_PER_THREAD * threads, "at most 8 profiles per thread read ahead");
	printf("# at most %u read ahead, %u threads\n", most_ahead, threads);

	is_int(run(1, &in_order, err, sizeof(err)), 0, "one file: read on this thread");
	is_int(in_order, 1, "and used");
}

static void test_use_fails(void)
{
	unsigned in_order;
	char err[512], want[512];

	fail_use_at = 10;
	snprintf(want, sizeof(want), "use refused %s", paths[10]);
	is_int(run(NFILES, &in_order, err, sizeof(err)), -1, "a use that fails stops the read");
	is_str(err, want, "with use's message");
	is_int(uses, 11, "no file used after it");
	is_int(atomic_load(&preps), uses + atomic_load(&drops),
	       "every prepared file used or dropped");
	fail_use_at = -1;
}

static void test_prep_fails(void)
{
	unsigned in_order;
	char err[512], want[512];

	fail_prep_at = 30;
	snprintf(want, sizeof(want), "%s: prep refused", paths[30]);
	is_int(run(NFILES, &in_order, err, sizeof(err)), -1, "a prep that fails stops the read");
	is_str(err, want, "its message names the file");
	is_int(in_order, 30, "the files before it used in order");
	fail_prep_at = -1;
}

static void test_damaged(void)
{
	unsigned in_order;
	char err[512];

	if (truncate(paths[20], 40) < 0)
		printf("# cannot truncate %s\n", paths[20]);
	is_int(run(NFILES, &in_order, err, sizeof(err)), -1, "a damaged file stops the read");
	ok(strstr(err, paths[20]) && strstr(err, "truncated"), "its message names the file");
	printf("# %s\n", err);
	is_int(in_order, 20, "the files before it used in order");
	is_int(atomic_load(&preps), uses + atomic_load(&drops),
	       "every prepared file used or dropped");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("1..0 # skip cannot make a directory under /tmp\n");
		return 0;
	}
	for (size_t i = 0; i < NFILES; i++)
		write_file(i);
	test_in_order();
	test_use_fails();
	test_prep_fails();
	test_damaged();
	for (size_t i = 0; i < NFILES; i++) {
		unlink(paths[i]);
		free((char *)paths[i]);
	}
	rmdir(dir);
	return tap_done();
}
