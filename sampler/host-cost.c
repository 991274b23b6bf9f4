/*
 * host-cost.c - costs of profiling measured once per host and run: what a
 * context switch (switch-cost.c) and a sample (sample-cost.c) cost a
 * profiled thread.  Ranks that share a host would disturb each other's
 * measurement (their threads run on the same CPUs), so the first rank of a
 * host to lock <experiment>/.NAME.<run>.<host> measures, alone, while the
 * others sleep on the lock, and writes the result there for them.
 *
 * The measurements take some 20 ms of a run's start, so they are also
 * kept across runs (--cost-cache): a file per cost, host, boot and what
 * the cost depends on (the events, the call-graph mode, the stack copy).
 * The first CACHE_RUNS runs of a day measure and add theirs; later runs
 * take the median of those, never one measurement alone: on a busy
 * virtual machine one of them can be several times the others (59 us a
 * sample where the runs before had measured 16-20), and kept alone it
 * would have been charged for a day.  A sample's cost is measured by
 * every run all the same (fresh), and the kept ones stand in only when
 * the host is too busy to measure it: a cost measured elsewhere, under
 * another load, was 10-30 us a sample off the run's own.  A new boot measures again: the
 * kernel, or the hypervisor under a virtual machine, may have changed.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/hash.h"
#include "../common/order.h"
#include "rt.h"

#define CACHE_MAX_AGE (24 * 3600)	/* seconds kept costs are used */
#define CACHE_RUNS 5			/* measurements kept, whose median is used */
/* how the costs are measured: a new way keeps its costs apart from the
 * old way's (2: the sample's batches run one instance of their work) */
#define COST_METHOD 3

bool rt_pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

/* The cost another rank wrote in the file at fd into *cost; false when
 * there is none yet.  A measured 0 counts: a host where a cost is nothing
 * measurable must not be measured again by every rank, one after another. */
static bool read_cost(int fd, uint64_t *cost)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;

	if (n <= 1 || buf[n - 1] != '\n')
		return false;
	buf[n] = '\0';
	*cost = strtoull(buf, &end, 10);
	return *end == '\n';
}

/* The directory of kept costs into dir; false when there is none. */
static bool cache_dir(const struct rt_options *o, char *dir, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (!strcmp(o->cost_cache, "none"))
		return false;
	if (*o->cost_cache)
		n = snprintf(dir, size, "%s", o->cost_cache);
	else if (xdg && *xdg == '/')
		n = snprintf(dir, size, "%s/cpperf", xdg);
	else if (home && *home == '/')
		n = snprintf(dir, size, "%s/.cache/cpperf", home);
	else
		return false;
	return n > 0 && (size_t)n < size;
}

/* This boot's id; false when the kernel does not say. */
static bool boot_id(char *id, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	bool ok = f && fgets(id, (int)size, f) && id[0] && id[0] != '\n';

	if (f)
		fclose(f);
	if (ok)
		id[strcspn(id, "\n")] = '\0';
	return ok;
}

/* What a cost depends on besides the host: how cpperf measures it, the
 * events, how samples are taken and how much stack they copy (FNV-1a). */
static uint64_t cost_key(const struct rt_state *rt)
{
	uint64_t v[4], method = COST_METHOD, h = hash_bytes(HASH_SEED, &method, sizeof(method));

	for (int i = -1; i < rt->events.n; i++) {
		const struct perf_event_attr *a = i < 0 ? NULL : &rt->events.ev[i].attr;

		v[0] = a ? a->type : (uint64_t)rt->opt.backend;
		v[1] = a ? a->config : (uint64_t)rt->opt.call_graph;
		v[2] = a ? a->config1 : rt->opt.stack_size;
		v[3] = a ? (uint64_t)rt->events.ev[i].leader : (uint64_t)rt->events.n;
		h = hash_bytes(h, v, sizeof(v));
	}
	return h;
}

/* The file that keeps cost name on this host into path; false when
 * there is none. */
static bool cache_path(const struct rt_state *rt, const char *name, const char *host,
		       char *path, size_t size)
{
	char dir[PATH_MAX], boot[64];
	int n;

	if (!cache_dir(&rt->opt, dir, sizeof(dir)) || !boot_id(boot, sizeof(boot)))
		return false;
	n = snprintf(path, size, "%s/%s.%.128s.%s.%016" PRIx64, dir, name, host, boot,
		     cost_key(rt));
	return n > 0 && (size_t)n < size;
}

/* The measurements kept in path less than a day ago into v (at most
 * CACHE_RUNS); returns their number. */
static int cache_read(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	unsigned long long x;
	int n = 0;

	if (!f)
		return 0;
	if (!fstat(fileno(f), &st) && time(NULL) - st.st_mtime < CACHE_MAX_AGE)
		while (n < CACHE_RUNS && fscanf(f, "%llu", &x) == 1)
			if (x)
				v[n++] = x;
	fclose(f);
	return n;
}

/* Make the directories above path that are missing, with permissions
 * mode whatever the umask (those that exist keep theirs). */
static void make_parents(const char *path, mode_t mode)
{
	char dir[PATH_MAX + 512];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(dir, mode) == 0)
			(void)chmod(dir, mode);
		*s = '/';
	}
}

/* Open path for writing, emptied, with permissions mode whatever the
 * umask.  Returns the fd or -1. */
static int open_mode(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_CREAT | O_CLOEXEC, mode);

	if (fd >= 0)
		(void)fchmod(fd, mode);
	return fd;
}

/* Keep the n measurements of v in path: written aside and renamed, so
 * that a run on another host sharing the directory never reads half of
 * them.  The file and the directories made for it get o's permissions.
 * Best effort: what is not kept is measured again. */
static void cache_write(const struct rt_options *o, const char *path, const uint64_t *v, int n)
{
	char tmp[PATH_MAX + 600];
	FILE *f;
	int fd;

	make_parents(path, opt_dir_mode(o));
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	if ((fd = open_mode(tmp, O_WRONLY | O_TRUNC, opt_file_mode(o))) < 0)
		return;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return;
	}
	for (int i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 "\n", v[i]);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

static uint64_t median_u64(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
	return v[n / 2];
}

/* Cost name: the median of the measurements of this host kept by earlier
 * runs once there are CACHE_RUNS, else measured here, and kept when it
 * could be measured (not 0).  Fresh: measured here all the same, the
 * kept ones only standing in when it cannot be (a host too busy to say);
 * the latest CACHE_RUNS are kept. */
static uint64_t kept_or_measured(const struct rt_state *rt, const char *name, const char *host,
				 uint64_t (*measure)(const struct rt_state *), bool fresh)
{
	char path[PATH_MAX + 512];
	uint64_t v[CACHE_RUNS], cost;
	bool kept = cache_path(rt, name, host, path, sizeof(path));
	int n = kept ? cache_read(path, v) : 0;

	if (n == CACHE_RUNS && !fresh)
		return median_u64(v, n);
	cost = measure(rt);
	if (!cost)
		return fresh && n ? median_u64(v, n) : 0;
	if (kept) {
		if (n == CACHE_RUNS)
			memmove(v, v + 1, --n * sizeof(v[0]));
		v[n++] = cost;
		cache_write(&rt->opt, path, v, n);
	}
	return cost;
}

uint64_t rt_cost_shared(const struct rt_state *rt, const char *name,
			uint64_t (*measure)(const struct rt_state *), bool fresh)
{
	char host[256] = "", path[PATH_MAX + 300], line[32];
	uint64_t cost;
	int fd, n;

	gethostname(host, sizeof(host) - 1);
	/* per run too: two runs sharing a directory never share a cost */
	snprintf(path, sizeof(path), "%s/.%s.%.128s.%s", rt->opt.output, name,
		 rt->prof.run ? rt->prof.run : "", host);
	for (char *s = path + strlen(rt->opt.output) + 1; *s; s++)
		*s = *s == '/' ? '_' : *s;
	fd = open_mode(path, O_RDWR, opt_file_mode(&rt->opt));
	if (fd < 0 || flock(fd, LOCK_EX)) {
		if (fd >= 0)
			close(fd);
		return kept_or_measured(rt, name, host, measure, fresh);	/* no sharing */
	}
	if (!read_cost(fd, &cost)) {
		cost = kept_or_measured(rt, name, host, measure, fresh);
		n = snprintf(line, sizeof(line), "%" PRIu64 "\n", cost);
		if (pwrite(fd, line, (size_t)n, 0) != n)
			(void)ftruncate(fd, 0);	/* the next rank measures again */
	}
	flock(fd, LOCK_UN);
	close(fd);
	return cost;
}
