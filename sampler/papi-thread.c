/*
 * papi-thread.c - the PAPI side of one thread: an event set with overflow
 * on every event, started and stopped by the thread itself, and the
 * overflow handler that turns each overflow into a PERF_RECORD_SAMPLE in
 * the thread's user-space ring (papi-record.c).  The drain thread reads
 * that ring like a perf ring; it has no file descriptor to poll, so it is
 * drained on the drain thread's timeout and woken through the eventfd when
 * it passes half full.
 *
 * Lifetime: PAPI's state belongs to the thread (PAPI calls are made only
 * there).  The handler finds its thread's block through a thread-local
 * pointer and touches nothing else; a thread stopped from elsewhere (at
 * process exit) only has the handler silenced, and keeps that small block.
 */
#include "papi.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt.h"

#if HAVE_PAPI
#include <errno.h>
#include <sched.h>

#include "lazy-libs.h"

#define RING_SAMPLES 64		/* samples a ring should hold */
#define RING_MAX_BYTES (4u << 20)

struct papi_thread {
	int set;		/* PAPI event set, PAPI_NULL once released */
	int nevents;
	pid_t pid, tid;		/* owner */
	atomic_bool on;		/* the handler may write */
	atomic_bool busy;	/* the handler is running */
	bool released;		/* the owner released PAPI's state */
	enum opt_call_graph cg;
	uint32_t stack_size;
	uint64_t stack_lo, stack_hi;
	uint64_t ids[EV_MAX];
	uint64_t lost;		/* dropped, not yet reported in the ring */
	struct rt_state *rt;	/* to wake its drain thread */
	struct ring ring;
	uint8_t *scratch;	/* PAPI_RECORD_MAX bytes, the handler's */
};

/* The calling thread's block while it samples; only the thread itself
 * sets or clears it.  Initial-exec so that the handler's access neither
 * allocates nor locks. */
static __thread struct papi_thread *papi_self __attribute__((tls_model("initial-exec")));

/* One sample of event index e into the ring.  Signal-handler code. */
static void take_sample(struct papi_thread *p, int e, void *address, void *context)
{
	struct papi_sample_src s = {
		.id = p->ids[e], .ip = (uint64_t)(uintptr_t)address,
		.pid = (uint32_t)p->pid, .tid = (uint32_t)p->tid, .uc = context,
		.stack_lo = p->stack_lo, .stack_hi = p->stack_hi,
	};
	size_t len = papi_record_build(&s, p->cg, p->stack_size, p->scratch, PAPI_RECORD_MAX);
	uint64_t half = p->ring.size / 2, before = papi_ring_used(&p->ring);

	if (len && papi_ring_put(&p->ring, p->scratch, len, &p->lost) &&
	    before < half && papi_ring_used(&p->ring) >= half)
		rt_drain_wake(p->rt);
}

/* PAPI's overflow handler, called in PAPI's signal handler on the sampled
 * thread: async-signal-safe code only. */
static void papi_on_overflow(int set, void *address, long long vector, void *context)
{
	struct papi_thread *p = papi_self;
	int idx[EV_MAX], n = EV_MAX, saved = errno;

	if (!p)
		return;
	atomic_store(&p->busy, true);
	if (atomic_load(&p->on) && context &&
	    sym_PAPI_get_overflow_event_index(set, vector, idx, &n) == PAPI_OK)
		for (int k = 0; k < n; k++)
			if (idx[k] >= 0 && idx[k] < p->nevents)
				take_sample(p, idx[k], address, context);
	atomic_store(&p->busy, false);
	errno = saved;
}

static size_t ring_bytes(const struct rt_options *o)
{
	size_t want = RING_SAMPLES * (o->call_graph == CG_DWARF ? o->stack_size + 512u : 256u);
	size_t bytes;

	/* a power of two that holds two records of the largest size */
	for (bytes = 1; bytes < 2 * PAPI_RECORD_MAX || bytes < want; bytes *= 2)
		;
	return bytes < RING_MAX_BYTES ? bytes : RING_MAX_BYTES;
}

/* The event set: every event with overflow into papi_on_overflow.
 * Returns 0, or -1 with a message. */
static int make_set(const struct rt_state *rt, struct papi_thread *p, char *err, size_t errlen)
{
	int r = sym_PAPI_create_eventset(&p->set);

	for (int i = 0; r == PAPI_OK && i < rt->events.n; i++) {
		const char *name = rt->events.ev[i].name;
		int code, threshold;

		if (papi_threshold(&rt->opt, name, &threshold, err, errlen))
			return -1;
		r = sym_PAPI_event_name_to_code(name, &code);
		if (r == PAPI_OK)
			r = sym_PAPI_add_event(p->set, code);
		if (r == PAPI_OK)
			r = sym_PAPI_overflow(p->set, code, threshold, 0, papi_on_overflow);
		if (r != PAPI_OK)
			snprintf(err, errlen, "%s: %s", name, sym_PAPI_strerror(r));
	}
	if (r != PAPI_OK && !err[0])
		snprintf(err, errlen, "PAPI_create_eventset: %s", sym_PAPI_strerror(r));
	return r == PAPI_OK ? 0 : -1;
}

/* Release PAPI's state of the calling (owning) thread. */
static void release_papi(struct papi_thread *p)
{
	long long values[EV_MAX];

	atomic_store(&p->on, false);
	papi_self = NULL;
	if (p->set != PAPI_NULL) {
		sym_PAPI_stop(p->set, values);
		sym_PAPI_cleanup_eventset(p->set);
		sym_PAPI_destroy_eventset(&p->set);
		p->set = PAPI_NULL;
	}
	sym_PAPI_unregister_thread();
	p->released = true;
}

static void free_block(struct papi_thread *p)
{
	ring_unmap(&p->ring);
	free(p->scratch);
	free(p);
}

struct rt_thread *papi_thread_open(struct rt_state *rt, pid_t tid)
{
	struct rt_thread *t;
	struct papi_thread *p;
	char err[512] = "";

	if (tid) {
		rt_notice(rt, "thread %d is not profiled: it existed before cpperf started, "
			  "and PAPI samples only threads it sees start", (int)tid);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	p = calloc(1, sizeof(*p));
	if (!t || !p || !(p->scratch = malloc(PAPI_RECORD_MAX))) {
		free(t);
		free(p);
		return NULL;
	}
	*p = (struct papi_thread){ .set = PAPI_NULL, .nevents = rt->events.n, .pid = getpid(),
		.tid = (pid_t)syscall(SYS_gettid), .cg = rt->opt.call_graph,
		.stack_size = rt->opt.stack_size, .rt = rt, .scratch = p->scratch };
	for (int i = 0; i < EV_MAX; i++) {
		t->fds[i] = -1;
		t->ids[i] = p->ids[i] = (uint64_t)i + 1;	/* synthetic ids */
	}
	t->tid = p->tid;
	if (sym_PAPI_register_thread() != PAPI_OK || make_set(rt, p, err, sizeof(err)) ||
	    papi_ring_create(&p->ring, ring_bytes(&rt->opt))) {
		rt_notice(rt, "thread %d is not profiled: %s", (int)t->tid,
			  err[0] ? err : "no memory for its PAPI ring");
		release_papi(p);
		free_block(p);
		free(t);
		return NULL;
	}
	t->slots[0] = p->ring;
	rt_thread_set_ring(t, &t->slots[0]);
	t->papi = p;
	return t;
}

/* Silence the handler of a thread running elsewhere: after this no
 * handler touches anything but the block itself. */
static void silence(struct papi_thread *p)
{
	atomic_store(&p->on, false);
	while (atomic_load(&p->busy) && p->pid == getpid())
		sched_yield();
}

void papi_thread_enable(struct rt_thread *t, bool on)
{
	struct papi_thread *p = t->papi;
	bool owner = p->pid == getpid() && p->tid == (pid_t)syscall(SYS_gettid);

	if (!owner) {
		silence(p);
		return;
	}
	if (p->released)
		return;		/* stopping is final */
	if (!on) {
		release_papi(p);
		return;
	}
	p->stack_lo = t->stack_lo;
	p->stack_hi = t->stack_hi;
	papi_self = p;
	atomic_store(&p->on, true);
	if (sym_PAPI_start(p->set) != PAPI_OK)
		atomic_store(&p->on, false);
}

void papi_thread_close(struct rt_thread *t)
{
	struct papi_thread *p = t->papi;

	if (!p)
		return;
	rt_thread_set_ring(t, NULL);
	memset(&t->slots[0], 0, sizeof(t->slots[0]));	/* the block owns the mapping */
	t->papi = NULL;
	if (p->released) {
		free_block(p);
		return;
	}
	/* Still sampling in a live thread (exit, exec) or a forked child's copy:
	 * free what the silenced handler no longer reads, keep the block. */
	silence(p);
	if (p->pid == getpid()) {
		ring_unmap(&p->ring);
		free(p->scratch);
		p->scratch = NULL;
	}
}

#else /* !HAVE_PAPI: papi_start refuses first, so these are never reached */

struct rt_thread *papi_thread_open(struct rt_state *rt, pid_t tid)
{
	(void)rt, (void)tid;
	return NULL;
}

void papi_thread_enable(struct rt_thread *t, bool on)
{
	(void)t, (void)on;
}

void papi_thread_close(struct rt_thread *t)
{
	(void)t;
}

#endif
