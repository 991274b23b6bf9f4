/*
 * host-cost.c - costs of profiling measured once per host and run: what a
 * context switch (switch-cost.c) and a sample (sample-cost.c) cost a
 * profiled thread.  Ranks that share a host would disturb each other's
 * measurement (their threads run on the same CPUs), so the first rank of a
 * host to lock <experiment>/.NAME.<run>.<host> measures, alone, while the
 * others sleep on the lock, and writes the result there for them.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "rt.h"

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

uint64_t rt_cost_shared(const struct rt_state *rt, const char *name,
			uint64_t (*measure)(const struct rt_state *))
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
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		if (fd >= 0)
			close(fd);
		return measure(rt);	/* no sharing: measure here */
	}
	if (!read_cost(fd, &cost)) {
		cost = measure(rt);
		n = snprintf(line, sizeof(line), "%" PRIu64 "\n", cost);
		if (pwrite(fd, line, (size_t)n, 0) != n)
			(void)ftruncate(fd, 0);	/* the next rank measures again */
	}
	flock(fd, LOCK_UN);
	close(fd);
	return cost;
}
