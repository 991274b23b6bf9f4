/*
 * test-switch.c - unit tests for sampler/switch-cost.c and the bare event
 * opening it uses (perf-thread.c): the run's events open for the calling
 * thread without a ring and close without leaking a descriptor; an event
 * the host refuses gives -errno with nothing left open; the switch cost
 * is measured with a software clock (which every Linux host has), is
 * bounded, and is 0 for the PAPI backend; so is the cost of a sample
 * (sampler/sample-cost.c) and of its record written into a ring, 0 also
 * for an event other than a clock; the ranks of a host share
 * one measurement through a file, a measured 0 included; costs kept across
 * runs (host-cost.c) stand in for a measurement once five are kept, and
 * for a fresh one only when it cannot be made; the drain thread's pairs
 * along the run replace the start's cost once five are kept, and stop
 * when the program takes their descriptors.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../sampler/rt.h"
#include "files.h"
#include "no-runtime.h"
#include "tap.h"


/* rt with the events of spec; false (with the reason printed) when the
 * list does not parse or this host cannot open it for this thread. */
static bool setup(struct rt_state *rt, const char *spec, char *why, size_t len)
{
	memset(rt, 0, sizeof(*rt));
	opt_defaults(&rt->opt);
	return ev_parse(spec, &rt->events, why, len) == 0 && ev_probe(&rt->events, why, len) == 0;
}

static void test_bare_open(void)
{
	static struct rt_state rt;
	char why[1024];
	int fds[EV_MAX], before;

	if (!setup(&rt, "{task-clock,page-faults}", why, sizeof(why))) {
		tap_skip("bare events: task-clock with a counting member", why);
		return;
	}
	before = open_fds();
	ok(rt_events_open_bare(&rt, fds, 0) == 0 && open_fds() == before + 2,
	   "task-clock and its member open for this thread: two descriptors");
	rt_events_close_bare(&rt, fds, rt.events.n);
	ok(open_fds() == before, "closed: no descriptor left");
}

static void test_bare_refused(void)
{
	static struct rt_state rt;
	char why[1024];
	int fds[EV_MAX], before = open_fds();

	if (ev_host_has_pmu()) {
		tap_skip("bare events: a refused event", "this host has a PMU: cycles opens");
		return;
	}
	memset(&rt, 0, sizeof(rt));
	opt_defaults(&rt.opt);
	if (!ok(ev_parse("task-clock,cycles", &rt.events, why, sizeof(why)) == 0, "parse task-clock,cycles"))
		return;
	ok(rt_events_open_bare(&rt, fds, 0) < 0, "cycles without a PMU: -errno");
	ok(open_fds() == before, "task-clock, opened first, was closed again");
}

static void test_cost(void)
{
	static struct rt_state rt;
	char why[1024];
	uint64_t c = 0;

	if (!setup(&rt, "task-clock", why, sizeof(why))) {
		tap_skip("switch cost of task-clock", why);
		return;
	}
	/* on bare metal a switch's timer costs well under a microsecond,
	 * which one measurement on a busy host can miss */
	for (int i = 0; i < 5 && !c; i++)
		c = rt_switch_cost_ns(&rt);
	printf("# task-clock at %llu Hz, dwarf: %llu ns per switch\n", (unsigned long long)rt.opt.freq, (unsigned long long)c);
	ok(c > 0, "a sampling software clock makes a switch longer");
	ok(c < 1000000, "by less than a millisecond");
	rt.opt.backend = BACKEND_PAPI;
	ok(rt_switch_cost_ns(&rt) == 0, "PAPI backend: not measured (0)");
	rt.opt.backend = BACKEND_PERF;
	rt.events.n = 0;
	ok(rt_switch_cost_ns(&rt) == 0, "no events: 0");
}

static void test_sample_cost(void)
{
	static struct rt_state rt;
	char why[1024];
	uint64_t c = 0, with_copy, ring = 0;

	if (!setup(&rt, "task-clock", why, sizeof(why))) {
		tap_skip("sample cost of task-clock", why);
		return;
	}
	rt.opt.call_graph = CG_NONE;
	/* a busy host can hide a cost of a couple of us (bare metal) in one
	 * measurement of 5 pairs */
	for (int i = 0; i < 5 && !c; i++)
		c = rt_sample_cost_ns(&rt);
	printf("# task-clock, no stack: %llu ns per sample\n", (unsigned long long)c);
	ok(c > 0, "a sample of a software clock costs the thread something");
	ok(c < 1000000, "less than a millisecond");
	rt.opt.call_graph = CG_DWARF;
	with_copy = rt_sample_cost_ns(&rt);
	printf("# task-clock, dwarf, %u-byte stack: %llu ns per sample\n", rt.opt.stack_size,
	       (unsigned long long)with_copy);
	ok(with_copy == 0 || with_copy >= (uint64_t)rt.opt.stack_size * 1500 / 16384,
	   "dwarf mode adds the stack copy");
	for (int i = 0; i < 5 && !ring; i++)
		ring = rt_ring_cost_ns(&rt);
	printf("# task-clock, dwarf, %u-byte stack: %llu ns per record written into a ring\n",
	       rt.opt.stack_size, (unsigned long long)ring);
	ok(ring > 0 && ring < 1000000, "a sample's record into a ring costs something, under a ms");
	rt.ring_cost_ns = ring;
	ok(rt_ring_write_ns(&rt) == ring, "measured, it replaces the estimate");
	rt.ring_cost_ns = 0;
	rt.events.ev[0].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	ok(rt_sample_cost_ns(&rt) == 0, "page-faults, not a clock: not measured (0)");
	rt.events.ev[0].attr.config = PERF_COUNT_SW_TASK_CLOCK;
	rt.opt.backend = BACKEND_PAPI;
	ok(rt_sample_cost_ns(&rt) == 0 && rt_ring_cost_ns(&rt) == 0, "PAPI backend: 0");
	rt.opt.backend = BACKEND_PERF;
	rt.events.n = 0;
	ok(rt_sample_cost_ns(&rt) == 0, "no events: 0");
}

/* The file rt_cost_shared keeps the host's cost in, for run "t". */
static void cost_file(const struct rt_state *rt, char *path, size_t len)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	snprintf(path, len, "%s/.switch-cost.t.%s", rt->opt.output, host);
}

static void test_shared(void)
{
	static struct rt_state rt;
	char why[1024], path[PATH_MAX + 300], line[64] = "";
	uint64_t c;
	FILE *f;

	if (!setup(&rt, "task-clock", why, sizeof(why))) {
		tap_skip("switch cost shared by the ranks of a host", why);
		return;
	}
	snprintf(rt.opt.output, sizeof(rt.opt.output), "/tmp/cpperf-test-switch.XXXXXX");
	if (!ok(mkdtemp(rt.opt.output) != NULL, "a directory for the shared cost"))
		return;
	rt.prof.run = "t";
	cost_file(&rt, path, sizeof(path));
	c = rt_cost_shared(&rt, "switch-cost", rt_switch_cost_ns, false);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	printf("# measured %llu ns, file '%.20s'\n", (unsigned long long)c, line);
	ok(strtoull(line, NULL, 10) == c && strchr(line, '\n'),
	   "the first rank measures and writes what it measured");
	save(path, "1234\n");
	ok(rt_cost_shared(&rt, "switch-cost", rt_switch_cost_ns, false) == 1234, "a later rank reads the cost written");
	save(path, "0\n");
	ok(rt_cost_shared(&rt, "switch-cost", rt_switch_cost_ns, false) == 0, "a measured 0 is read too, not measured again");
	save(path, "12");
	c = rt_cost_shared(&rt, "switch-cost", rt_switch_cost_ns, false);
	printf("# measured again: %llu ns\n", (unsigned long long)c);
	ok(c != 12, "a cost without its newline (a writer that died) is measured again");
	unlink(path);
	rmdir(rt.opt.output);
}

static uint64_t next_cost, measured;

static uint64_t fake_measure(const struct rt_state *rt)
{
	(void)rt;
	measured++;
	return next_cost;
}

/* One run's cost name "kept", measured (when asked) as cost. */
static uint64_t run_cost(struct rt_state *rt, uint64_t cost, bool fresh)
{
	static char run[32];
	static int n;

	snprintf(run, sizeof(run), "r%d", n++);
	rt->prof.run = run;
	next_cost = cost;
	return rt_cost_shared(rt, "kept", fake_measure, fresh);
}

static void test_kept(void)
{
	static struct rt_state rt;
	char why[1024], dir[] = "/tmp/cpperf-test-kept.XXXXXX";
	uint64_t c;

	if (!setup(&rt, "task-clock", why, sizeof(why)) || !mkdtemp(dir)) {
		tap_skip("costs kept across runs", why);
		return;
	}
	snprintf(rt.opt.output, sizeof(rt.opt.output), "%s", dir);
	snprintf(rt.opt.cost_cache, sizeof(rt.opt.cost_cache), "%s/cache", dir);
	for (uint64_t i = 1; i <= 5; i++)
		run_cost(&rt, i * 10, false);
	measured = 0;
	c = run_cost(&rt, 99, false);
	ok(c == 30 && !measured, "five kept: their median, nothing measured");
	c = run_cost(&rt, 0, true);
	ok(c == 30 && measured == 1, "fresh, the host too busy to measure: the kept median");
	c = run_cost(&rt, 7, true);
	ok(c == 7 && measured == 2, "fresh: the run's own measurement, not the kept one");
	run_cost(&rt, 1, true);
	run_cost(&rt, 2, true);
	c = run_cost(&rt, 99, false);
	ok(c == 7, "the latest five are kept (40 50 7 1 2: median 7), the oldest dropped");
	snprintf(why, sizeof(why), "rm -rf '%s'", dir);
	ok(system(why) == 0, "scratch removed");
}

/* Pairs until n are kept (a busy host rejects some), at most 200. */
static void probe_until(struct rt_state *rt, uint64_t n)
{
	for (int i = 0; i < 200 && atomic_load(&rt->probe.accepted) < n; i++) {
		rt->probe.next = 0;
		rt_cost_probe_step(rt);
	}
}

static void test_probe(void)
{
	static struct rt_state rt;
	char why[1024];
	uint64_t c, lo, hi;
	int fd, before;

	if (!setup(&rt, "task-clock", why, sizeof(why))) {
		tap_skip("a sample's cost along the run", why);
		return;
	}
	before = open_fds();
	rt_cost_probe_start(&rt, 1234, false);
	rt_cost_probe_step(&rt);
	ok(rt_sample_cost_now(&rt) == 1234 && !rt.probe.open, "a cost given: charged, no pairs");
	rt_cost_probe_start(&rt, 1234, true);
	rt_cost_probe_step(&rt);
	ok(atomic_load(&rt.probe.accepted) + atomic_load(&rt.probe.busy) == 1, "the first pair at once");
	rt_cost_probe_step(&rt);
	ok(atomic_load(&rt.probe.accepted) + atomic_load(&rt.probe.busy) == 1, "the next one later");
	probe_until(&rt, 4);
	ok(rt_sample_cost_now(&rt) == 1234, "fewer than 5 kept: the start's cost");
	probe_until(&rt, 5);
	c = rt_sample_cost_now(&rt), lo = atomic_load(&rt.probe.lo), hi = atomic_load(&rt.probe.hi);
	printf("# %llu pairs kept, %llu rejected: %llu ns a sample (%llu-%llu)\n",
	       (unsigned long long)atomic_load(&rt.probe.accepted),
	       (unsigned long long)atomic_load(&rt.probe.busy), (unsigned long long)c,
	       (unsigned long long)lo, (unsigned long long)hi);
	ok(atomic_load(&rt.probe.accepted) >= 5 && c != 1234 && lo <= c && c <= hi && hi,
	   "5 kept: their median, between its quartiles, the stack copy added");
	/* the program closes the leader and opens a file at its number */
	fd = open("/dev/null", O_RDONLY);
	ok(fd >= 0 && dup2(fd, rt.probe.fds[0]) == rt.probe.fds[0],
	   "the program's file at the leader's number");
	close(fd);
	fd = rt.probe.fds[0];
	rt.probe.next = 0;
	rt_cost_probe_step(&rt);
	ok(!atomic_load(&rt.probe.on) && fcntl(fd, F_GETFD) >= 0,
	   "pairs stop, the program's file left open");
	close(fd);
	rt_cost_probe_end(&rt);
	ok(open_fds() == before, "nothing left open");
}

int main(void)
{
	test_bare_open();
	test_bare_refused();
	test_cost();
	test_sample_cost();
	test_shared();
	test_kept();
	test_probe();
	return tap_done();
}
