/*
 * test-papi.c - unit tests for the PAPI backend: the checks cpperf-record
 * makes (unknown names, groups, fp mode, -F rules, an event PAPI cannot
 * sample here), the record the overflow handler builds from a ucontext
 * (decoded back with sample_decode), the user-space ring (full ring, lost
 * count, every record drained whole), and real sampling through PAPI's
 * overflow signal on the first event that samples here (PAPI_TOT_CYC, else
 * perf::TASK-CLOCK), skipped with PAPI's reason when none does.
 * CPPERF_PAPI_DISABLE (--papi-disable's twin) applies as in the runtime,
 * so tests/integration/papi-off.t runs this as if PAPI had no component.
 * Name and option checks use PAPI presets, which PAPI knows by name on
 * every host, whether or not a component can count them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../sampler/papi.h"
#include "../../sampler/rt.h"
#include "../../sampler/sample.h"
#include "no-runtime.h"
#include "tap.h"

static char err[1024];


static int has(const char *s, const char *sub)
{
	if (!strstr(s, sub)) {
		printf("#   '%s' does not contain '%s'\n", s, sub);
		return 0;
	}
	return 1;
}

static int check(const char *events, enum opt_call_graph cg, uint64_t period)
{
	struct rt_options o;

	opt_defaults(&o);
	if (opt_from_env(&o, err, sizeof(err)))
		tap_bail(err);
	strcpy(o.events, events);
	o.call_graph = cg;
	if (period) {
		o.period = period;
		o.freq = 0;
	}
	err[0] = 0;
	return papi_check(&o, err, sizeof(err));
}

static void test_check_errors(void)
{
	ok(check("NO_SUCH_EVENT_X", CG_DWARF, 0) && has(err, "'NO_SUCH_EVENT_X' is not known to PAPI") &&
	   has(err, "papi_avail") && has(err, "papi_native_avail"), "unknown name: named, papi_avail suggested");
	ok(check("PAPI_TOT_CYC,NOPE_Y", CG_DWARF, 0) && has(err, "'NOPE_Y'"),
	   "unknown second name is the one named");
	ok(check("{PAPI_TOT_CYC,PAPI_TOT_INS}", CG_DWARF, 0) && has(err, "no {groups}"), "groups refused");
	ok(check("PAPI_TOT_CYC,,x", CG_DWARF, 0) && has(err, "empty event name"), "empty name refused");
	ok(check("PAPI_TOT_CYC", CG_FP, 0) && has(err, "--call-graph=fp") && has(err, "dwarf"),
	   "fp mode refused with the modes that work");
	ok(check("PAPI_L1_DCM", CG_NONE, 0) && has(err, "-c N"), "-F on a non-clock event asks for -c");
	ok(check("PAPI_TOT_CYC", CG_NONE, 1ull << 40) && has(err, "threshold"),
	   "a threshold PAPI cannot take is refused");
}

/* perf:: names come from PAPI's perf_event component: where it is
 * disabled, PAPI knows none and the refusal says why. */
static void test_perf_names(void)
{
	if (!check(PAPI_FALLBACK_EVENT, CG_NONE, 0) || !strstr(err, "is not known to PAPI")) {
		tap_skip("perf:: name refused with the component's reason",
			 "PAPI knows " PAPI_FALLBACK_EVENT " here (its perf_event component is enabled)");
		return;
	}
	printf("# %s\n", err);
	ok(has(err, "'" PAPI_FALLBACK_EVENT "' is not known to PAPI (PAPI's perf_event component") &&
	   has(err, "is disabled: "), "perf:: name refused with the component's reason");
}

static void test_thresholds(void)
{
	struct rt_options o;
	int t = 0;

	opt_defaults(&o);
	o.freq = 1000;
	ok(!papi_threshold(&o, "perf::TASK-CLOCK", &t, err, sizeof(err)) && t == 1000000,
	   "-F 1000 on task-clock: 10^6 ns");
	ok(!papi_threshold(&o, "perf::task-clock:u=1", &t, err, sizeof(err)) && t == 1000000,
	   "clock names match without case and modifiers");
	if (!papi_threshold(&o, "PAPI_TOT_CYC", &t, err, sizeof(err)))
		ok(t > 0 && t % 1000 == 0, "-F on PAPI_TOT_CYC: CPU MHz * 10^6 / HZ");
	else
		ok(has(err, "CPU clock"), "-F on PAPI_TOT_CYC without a known clock asks for -c");
	o.period = 12345;
	o.freq = 0;
	ok(!papi_threshold(&o, "perf::PAGE-FAULTS", &t, err, sizeof(err)) && t == 12345, "-c as given");
}

/* PAPI_TOT_CYC fails here with a message that says why and what to use. */
static void test_cycles(void)
{
	if (check("PAPI_TOT_CYC", CG_DWARF, 0) == 0) {
		ok(1, "PAPI_TOT_CYC samples on this host");
		return;
	}
	printf("# %s\n", err);
	ok(has(err, "PAPI cannot sample PAPI_TOT_CYC on this host (") && has(err, "--backend=perf"),
	   "PAPI_TOT_CYC unusable: clear message");
	if (check(PAPI_FALLBACK_EVENT, CG_NONE, 0) == 0 || !strstr(err, "is not known to PAPI"))
		ok(check("PAPI_TOT_CYC", CG_DWARF, 0) && has(err, "-e " PAPI_FALLBACK_EVENT),
		   "the software clock PAPI knows is suggested");
	else
		ok(check("PAPI_TOT_CYC", CG_DWARF, 0) && !strstr(err, PAPI_FALLBACK_EVENT),
		   "no perf:: event suggested where PAPI knows none");
	if (strstr(err, "(component perf_event: "))
		ok(!strstr(err, "(component perf_event: )"), "disabled component's reason given");
}

/* A fake stack: sp points into buf, whose bytes count up. */
static void fake_context(ucontext_t *uc, uint8_t *buf, size_t len, size_t sp_off,
			 struct papi_sample_src *s)
{
	getcontext(uc);
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 7);
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)(uintptr_t)(buf + sp_off);
	*s = (struct papi_sample_src){ .id = 3, .ip = 0, .pid = 11, .tid = 22, .uc = uc,
		.stack_lo = (uint64_t)(uintptr_t)buf, .stack_hi = (uint64_t)(uintptr_t)(buf + len) };
}

static void test_record_dwarf(void)
{
	static uint64_t rec[PAPI_RECORD_MAX / 8];
	static uint8_t stack[4096];
	const greg_t *g;
	struct papi_sample_src s;
	struct rt_sample d;
	struct timespec now;
	ucontext_t uc;
	size_t n;

	fake_context(&uc, stack, sizeof(stack), 1024, &s);
	g = uc.uc_mcontext.gregs;
	n = papi_record_build(&s, CG_DWARF, 512, (uint8_t *)rec, sizeof(rec));
	ok(n > 512 && n % 8 == 0, "dwarf record built");
	ok(!sample_decode((const void *)rec, CG_DWARF, &d), "it decodes as a perf sample");
	is_int(d.id, 3, "identifier");
	is_int(d.ip, (uint64_t)g[REG_RIP], "ip from the context when no address is given");
	ok(d.pid == 11 && d.tid == 22 && d.nvalues == 0, "pid, tid, empty read");
	clock_gettime(CLOCK_MONOTONIC, &now);
	ok(d.time > 0 && d.time <= (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec &&
	   d.time + 1000000000ull > (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec,
	   "time: CLOCK_MONOTONIC of the sample, within the last second");
	ok(d.have_regs && d.regs[7] == (uint64_t)g[REG_RSP] && d.regs[16] == (uint64_t)g[REG_RIP] &&
	   d.regs[3] == (uint64_t)g[REG_RBX] && d.regs[6] == (uint64_t)g[REG_RBP] &&
	   d.regs[12] == (uint64_t)g[REG_R12] && d.regs[1] == (uint64_t)g[REG_RDX],
	   "registers round-trip in DWARF order");
	ok(d.stack_size == 512 && !memcmp(d.stack, stack + 1024, 512), "512 stack bytes from sp");

	fake_context(&uc, stack, sizeof(stack), sizeof(stack) - 100, &s);
	s.ip = 0x1234;
	papi_record_build(&s, CG_DWARF, 512, (uint8_t *)rec, sizeof(rec));
	ok(!sample_decode((const void *)rec, CG_DWARF, &d) && d.ip == 0x1234 && d.stack_size == 100 &&
	   !memcmp(d.stack, stack + sizeof(stack) - 100, 100), "copy stops at the stack's top");
	s.stack_lo = s.stack_hi = 0;
	papi_record_build(&s, CG_DWARF, 512, (uint8_t *)rec, sizeof(rec));
	ok(!sample_decode((const void *)rec, CG_DWARF, &d) && d.have_regs && d.stack_size == 0,
	   "sp outside the known stack: registers only");
	fake_context(&uc, stack, sizeof(stack), 0, &s);
	n = papi_record_build(&s, CG_DWARF, 4096, (uint8_t *)rec, 1024);
	ok(n <= 1024 && !sample_decode((const void *)rec, CG_DWARF, &d) && d.stack_size > 0 &&
	   d.stack_size <= 1024, "the stack copy fits the buffer");
	is_int(papi_record_build(&s, CG_DWARF, 512, (uint8_t *)rec, 100), 0, "too small a buffer: 0");
}

static void test_record_other_modes(void)
{
	uint64_t rec[16];
	uint8_t stack[64];
	struct papi_sample_src s;
	struct rt_sample d;
	ucontext_t uc;

	fake_context(&uc, stack, sizeof(stack), 0, &s);
	s.ip = 0xabc;
	is_int(papi_record_build(&s, CG_NONE, 512, (uint8_t *)rec, sizeof(rec)), 48, "none: 48 bytes");
	ok(!sample_decode((const void *)rec, CG_NONE, &d) && d.ip == 0xabc && !d.have_regs,
	   "none: ip only");
	is_int(papi_record_build(&s, CG_FP, 512, (uint8_t *)rec, sizeof(rec)), 0, "fp: not built");
}

/* The real stack of this thread, with bounds as sampler/threads.c records them. */
static void test_record_real_stack(void)
{
	static uint64_t rec[PAPI_RECORD_MAX / 8];
	pthread_attr_t attr;
	struct papi_sample_src s = { .id = 1 };
	struct rt_sample d;
	ucontext_t uc;
	void *lo;
	size_t size;

	pthread_getattr_np(pthread_self(), &attr);
	pthread_attr_getstack(&attr, &lo, &size);
	pthread_attr_destroy(&attr);
	getcontext(&uc);
	s.uc = &uc;
	s.stack_lo = (uint64_t)(uintptr_t)lo;
	s.stack_hi = s.stack_lo + size;
	papi_record_build(&s, CG_DWARF, 16384, (uint8_t *)rec, sizeof(rec));
	ok(!sample_decode((const void *)rec, CG_DWARF, &d) &&
	   d.stack_size == (s.stack_hi - d.regs[7] < 16384 ? s.stack_hi - d.regs[7] : 16384),
	   "real stack: min(stack size, stack top - sp) bytes");
}

struct drained {
	uint64_t records, next_seq, lost;
	int bad;
};

static void on_record(void *arg, const struct perf_event_header *h)
{
	struct drained *c = arg;
	const uint64_t *w = (const void *)(h + 1);

	if (h->type == PERF_RECORD_LOST) {
		c->lost += w[1];
		return;
	}
	c->records++;
	if (h->size != 1000 || w[0] != c->next_seq++ || w[123] != ~w[0])
		c->bad++;
}

static void put_seq(struct ring *r, uint64_t seq, uint64_t *lost, int *written)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 1000 };
	uint64_t rec[125] = { 0 };

	memcpy(rec, &h, sizeof(h));
	rec[1] = seq;
	rec[124] = ~seq;
	*written = papi_ring_put(r, rec, 1000, lost);
}

static void test_ring(void)
{
	static uint8_t bounce[1 << 16];
	struct drained c = { 0 };
	struct ring r;
	uint64_t lost = 0, seq = 0;
	int written = 1, nwritten = 0;

	is_int(papi_ring_create(&r, 3 << 16), -EINVAL, "ring size must be a power of two");
	ok(!papi_ring_create(&r, 1 << 17), "ring of 128 KiB");
	while (written) {
		put_seq(&r, seq, &lost, &written);
		seq += written;
		nwritten += written;
	}
	is_int(nwritten, (1 << 17) / 1000, "filled to capacity");
	for (int i = 0; i < 5; i++)
		put_seq(&r, seq, &lost, &written);
	is_int(lost, 6, "every record that did not fit is counted lost");
	is_int(ring_drain(&r, on_record, &c, bounce), nwritten, "drain returns every record written");
	ok(c.records == (uint64_t)nwritten && !c.bad, "whole and in order");
	for (int i = 0; i < 300; i++) {		/* round and round, draining as we go */
		put_seq(&r, seq, &lost, &written);
		seq += written;
		if (i % 50 == 49)
			ring_drain(&r, on_record, &c, bounce);
	}
	ring_drain(&r, on_record, &c, bounce);
	ok(c.records == seq && !c.bad, "300 more, wrapping many times: all whole");
	is_int(c.lost, 6, "the lost count reaches the reader as PERF_RECORD_LOST");
	is_int(lost, 0, "and is cleared once reported");
	ring_unmap(&r);
}

static void on_record_ignore(void *arg, const struct perf_event_header *h)
{
	(void)arg;
	(void)h;
}

struct pending_seen {
	const struct ring *r;
	uint64_t left, wrong;	/* records after this one; pending counts off */
};

static void check_pending(void *arg, const struct perf_event_header *h)
{
	struct pending_seen *c = arg;

	if (h->type == PERF_RECORD_SAMPLE && ring_samples_pending(c->r) != --c->left)
		c->wrong++;
}

static void put_sized(struct ring *r, uint16_t type, uint16_t size)
{
	static uint8_t rec[4096];
	struct perf_event_header h = { type, 0, size };
	uint64_t lost = 0;

	memcpy(rec, &h, sizeof(h));
	papi_ring_put(r, rec, size, &lost);
}

/* What the overhead compensation reads from another thread: the samples
 * written and not yet handed out, never one that the consumer has begun. */
static void test_ring_pending(void)
{
	static uint8_t bounce[1 << 16];
	static const uint16_t sizes[] = { 8, 24, 1000, 1232, 4088 };
	struct ring r;
	int exact = 0, tried = 0;
	char what[96];

	ok(!papi_ring_create(&r, 1 << 17), "ring of 128 KiB");
	put_sized(&r, PERF_RECORD_SAMPLE, 1000);
	is_int(ring_samples_pending(&r), 0, "no size known before the first sample is read");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct pending_seen c = { &r, 1, 0 };

		ring_unmap(&r);
		papi_ring_create(&r, 1 << 17);
		put_sized(&r, PERF_RECORD_SAMPLE, sizes[i]);
		ring_drain(&r, check_pending, &c, bounce);
		for (uint64_t k = 1; k * sizes[i] <= (1 << 17) - 64; k++) {
			put_sized(&r, PERF_RECORD_SAMPLE, sizes[i]);
			tried++;
			exact += ring_samples_pending(&r) == k;
		}
		c.left = ring_samples_pending(&r);
		ring_drain(&r, check_pending, &c, bounce);
		snprintf(what, sizeof(what), "%u-byte samples: the one being handed out is no longer pending",
			 sizes[i]);
		ok(!c.wrong && !c.left && !ring_samples_pending(&r), what);
	}
	is_int(exact, tried, "pending samples counted exactly at every fill");
	ok(tried > 8000, "over 8 000 fills");
	put_sized(&r, PERF_RECORD_SAMPLE, 4088);
	put_sized(&r, PERF_RECORD_LOST, 24);
	put_sized(&r, PERF_RECORD_SAMPLE, 4088);
	is_int(ring_samples_pending(&r), 2, "a small record of another kind between them");
	put_sized(&r, PERF_RECORD_SAMPLE, 200);
	ring_drain(&r, on_record_ignore, NULL, bounce);
	put_sized(&r, PERF_RECORD_SAMPLE, 4088);
	is_int(ring_samples_pending(&r), 0, "samples of two sizes: unknown, so none counted");
	ring_unmap(&r);
}

static void spin_cpu(double seconds)
{
	struct timespec a, b;
	volatile unsigned long x = 1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9 < seconds);
}

struct sampled {
	uint64_t n, good;
	uint32_t tid;
};

static void on_sample(void *arg, const struct perf_event_header *h)
{
	struct sampled *c = arg;
	struct rt_sample s;

	c->n++;
	if (h->type == PERF_RECORD_SAMPLE && !sample_decode(h, CG_DWARF, &s) && s.id == 1 &&
	    s.tid == c->tid && s.have_regs && s.stack_size > 0 && s.regs[16] == s.ip)
		c->good++;
}

/* The first event that PAPI samples here, or NULL with the reason in why. */
static const char *sampling_event(char *why, size_t len)
{
	if (check(PAPI_DEFAULT_EVENT, CG_DWARF, 0) == 0)
		return PAPI_DEFAULT_EVENT;
	snprintf(why, len, "%s", err);
	return check(PAPI_FALLBACK_EVENT, CG_DWARF, 0) == 0 ? PAPI_FALLBACK_EVENT : NULL;
}

/* Real overflow signals into this thread's ring, drained and decoded. */
static void test_sampling(void)
{
	static struct rt_state rt;
	static uint8_t bounce[1 << 16];
	struct sampled c = { .tid = (uint32_t)syscall(SYS_gettid) };
	char why[1024];
	const char *ev = sampling_event(why, sizeof(why));
	struct rt_thread *t;
	pthread_attr_t attr;
	void *lo;
	size_t size;

	if (!ev) {
		tap_skip("papi sampling", why);
		return;
	}
	opt_defaults(&rt.opt);
	strcpy(rt.opt.events, ev);
	ok(!papi_start(&rt.opt, &rt.events, err, sizeof(err)) && rt.events.n == 1 &&
	   !strcmp(rt.events.ev[0].name, ev) && rt.events.ev[0].leader == 0, "papi_start: the event list");
	t = papi_thread_open(&rt, 0);
	if (!ok(t && t->papi && t->fds[0] == -1 && t->ids[0] == 1, "thread opened: no fd, synthetic id"))
		return;
	pthread_getattr_np(pthread_self(), &attr);
	pthread_attr_getstack(&attr, &lo, &size);
	pthread_attr_destroy(&attr);
	t->stack_lo = (uint64_t)(uintptr_t)lo;
	t->stack_hi = t->stack_lo + size;
	papi_thread_enable(t, true);
	spin_cpu(0.3);
	papi_thread_enable(t, false);
	ring_drain(rt_thread_ring(t), on_sample, &c, bounce);
	printf("# %s: %llu records, %llu good\n", ev, (unsigned long long)c.n, (unsigned long long)c.good);
	if (!strcmp(ev, PAPI_DEFAULT_EVENT))	/* a threshold at PAPI's highest clock */
		ok(c.n >= 75 && c.n <= 600, "a sample per ms of CPU at -F 1000 and that clock, "
		   "a quarter to twice as many at another");
	else
		ok(c.n >= 150 && c.n <= 450, "about one sample per ms of CPU at -F 1000");
	ok(c.good == c.n, "every record is a whole dwarf sample of this thread");
	papi_thread_close(t);
	ok(!t->papi && !rt_thread_ring(t), "closed");
	papi_thread_close(t);
	free(t);
}

int main(void)
{
	if (HAVE_PAPI) {
		test_check_errors();
		test_thresholds();
		test_perf_names();
		test_cycles();
		test_sampling();
	} else {
		ok(check("PAPI_TOT_CYC", CG_DWARF, 0) && has(err, "built without PAPI"),
		   "no PAPI: clear message");
	}
	test_record_dwarf();
	test_record_other_modes();
	test_record_real_stack();
	test_ring();
	test_ring_pending();
	return tap_done();
}
