/*
 * stats.c - per-call-site MPI statistics: what each wrapper call adds (time,
 * blocked time, bytes, message sizes, the peer of a send, collectives by
 * communicator size), kept until the end of the run.
 *
 * A call site is keyed by (MPI function, the caller's return address, the
 * depth of the call on its thread's stack) and told apart further by its
 * call path, which callpath.c captures at the site's first call.  The
 * table of sites is shared; a wrapper finds its site without a lock and
 * takes pmpi_stats_lock only to add one.  What the calls add goes to the
 * calling thread's own counters, written with plain stores: a wrapper
 * executes no locked instruction, which would wait for the stores the MPI
 * call just made to lines its peer process is polling (a shared-memory
 * transport), and threads do not contend.  The profile sums the threads'
 * counters (pmpi_stats_total), reading them as they are.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "call.h"
#include "facts.h"
#include "datatypes.h"
#include "comms.h"
#include "graph.h"
#include "here.h"
#include "stats.h"
#include "status.h"

#define CHUNK 64		/* sites per block of a thread's counters */
#define SITE_CACHE 64		/* keys a thread remembers (power of 2) */

/* A key whose site a thread found lately and the thread's counters of
 * that site: a call of the key finds them with a few loads and its path
 * check, without the shared tables' probes.  A thread's stack top does
 * not move, so the depth of its calls is told by the address of their
 * struct pmpi_call alone.  The slot serves once the site's path is known;
 * until then that address is 0, which no call has.  Most paths need one
 * check at most: the first is kept here, and a path without any has one
 * that every call of the key passes (its own return address). */
struct site_slot {
	uint64_t key;		/* slot_key: the return address and function */
	uint64_t call;		/* the address of the calls' struct pmpi_call */
	struct pmpi_counts *counts;
	int site;
	uint32_t nmore;		/* checks after the first, */
	const struct pmpi_check *more;	/* in the site's table (fixed once known) */
	struct pmpi_check first;
	uint64_t pad;		/* to 64 bytes: a slot's offset is a shift */
};

_Static_assert(sizeof(struct site_slot) == 64, "a site slot's offset is a shift");

/* What a thread sent to one world rank. */
struct peer_counts {
	uint64_t count, bytes;
};

/* A thread's sends by world rank, made with the thread's counters (after
 * MPI_Init: no call is counted before) and sized once: the world's size
 * may change under a reader only from unknown to known. */
struct peer_table {
	int n;
	struct peer_counts to[];
};

/* One thread's counters, reached from the list of all threads' (never
 * freed: the counts of threads that have exited stay in the profile).
 * Only the owner writes them; blocks of sites are allocated at the first
 * call of a site in the block. */
struct thread_counts {
	struct thread_counts *next;
	bool main;		/* the process's main thread */
	struct pmpi_counts *sites[PMPI_SITES / CHUNK];
	struct pmpi_coll_counts colls[PMPI_COLLS];
	struct peer_table *peers;	/* NULL without memory */
	struct site_slot cache[SITE_CACHE];
};

pthread_mutex_t pmpi_stats_lock = PTHREAD_MUTEX_INITIALIZER;
struct pmpi_site pmpi_sites[PMPI_SITES];
uint16_t pmpi_sites_taken[PMPI_SITES];
unsigned pmpi_nsites_taken;
_Static_assert(PMPI_SITES <= UINT16_MAX + 1, "a slot's index fits pmpi_sites_taken");
struct pmpi_coll pmpi_colls[PMPI_COLLS];
int pmpi_world_size;

static struct thread_counts *all_threads;	/* pushed with release */
/* The counters of a call whose site or the thread's counters could not
 * be kept (the table full, memory short): written, never read, so that
 * what a call adds needs no test. */
static __thread struct pmpi_counts nowhere __attribute__((tls_model("initial-exec")));

void pmpi_activate(int world_size)
{
	__atomic_store_n(&pmpi_world_size, world_size, __ATOMIC_RELAXED);
}

static inline uint64_t peek(const uint64_t *x)
{
	return __atomic_load_n(x, __ATOMIC_RELAXED);
}

/* A table of sends by world rank; NULL without memory (no matrix, the
 * statistics otherwise whole). */
static struct peer_table *new_peers(void)
{
	int n = __atomic_load_n(&pmpi_world_size, __ATOMIC_RELAXED);
	struct peer_table *p;

	if (n <= 0 || !(p = calloc(1, sizeof(*p) + (size_t)n * sizeof(p->to[0]))))
		return NULL;
	p->n = n;
	return p;
}

/* The calling thread's counters, made at its first call; NULL when memory
 * is short (its statistics are then lost). */
static struct thread_counts *my_counts(void)
{
	struct thread_counts *t = pmpi_here.counts;

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->main = gettid() == getpid();
	t->peers = new_peers();
	t->next = __atomic_load_n(&all_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&all_threads, &t->next, t, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	return pmpi_here.counts = t;
}

/* Thread t's counters of a site. */
static struct pmpi_counts *thread_site_counts(struct thread_counts *t, int site)
{
	struct pmpi_counts **b;

	if (!t || site < 0)
		return NULL;
	b = &t->sites[site / CHUNK];
	if (!*b) {
		struct pmpi_counts *n = calloc(CHUNK, sizeof(*n));

		if (!n)
			return NULL;
		__atomic_store_n(b, n, __ATOMIC_RELEASE);
	}
	return &(*b)[site % CHUNK];
}

/* This thread's counters of a site. */
static struct pmpi_counts *site_counts(int site)
{
	return thread_site_counts(my_counts(), site);
}

static uint64_t site_hash(const struct pmpi_call *c, uint64_t depth)
{
	return ((uint64_t)(uintptr_t)c->ra ^ ((uint64_t)c->fn << 48) ^ (depth << 20)) *
	       0x9e3779b97f4a7c15ull;
}

static bool site_is(const struct pmpi_site *s, const struct pmpi_call *c, uint64_t depth)
{
	return s->fn == c->fn && s->ra == c->ra && s->depth == depth && pmpi_path_matches(s, c);
}

/*
 * The site of call c: searched without the lock up to the first free
 * slot, then again under it, where a new site takes that slot (*fresh:
 * its path is to be captured); -1 when the table is full.  Sites of one
 * key with different call paths sit side by side in the probe sequence.
 */
static int find_site(const struct pmpi_call *c, uint64_t sd, bool *fresh)
{
	unsigned k0 = (unsigned)(site_hash(c, sd) >> 52) & (PMPI_SITES - 1), k = k0, i;
	int found = -1;

	*fresh = false;
	for (i = 0; i < PMPI_SITES; i++, k = (k + 1) & (PMPI_SITES - 1)) {
		if (!__atomic_load_n(&pmpi_sites[k].used, __ATOMIC_ACQUIRE))
			break;
		if (site_is(&pmpi_sites[k], c, sd))
			return (int)k;
	}
	if (i == PMPI_SITES)
		return -1;
	rt_lock(&pmpi_stats_lock);
	for (; i < PMPI_SITES; i++, k = (k + 1) & (PMPI_SITES - 1)) {
		struct pmpi_site *s = &pmpi_sites[k];

		if (!s->used) {
			*s = (struct pmpi_site){ .fn = c->fn, .ra = c->ra, .depth = sd };
			__atomic_store_n(&s->used, true, __ATOMIC_RELEASE);
			pmpi_sites_taken[pmpi_nsites_taken++] = (uint16_t)k;
			*fresh = true;
			found = (int)k;
			break;
		}
		if (site_is(s, c, sd)) {	/* added by another thread meanwhile */
			found = (int)k;
			break;
		}
	}
	rt_unlock(&pmpi_stats_lock);
	return found;
}

/* A call's return address and function as one word, compared at once:
 * code lies below 2^47 (the kernel maps above it only where mmap is
 * asked to, which the dynamic loader does not), the function's number
 * takes the 16 bits above 2^48. */
static uint64_t slot_key(const struct pmpi_call *c)
{
	return (uint64_t)(uintptr_t)c->ra ^ ((uint64_t)c->fn << 48);
}

/* A multiplicative hash: a loop's call sites lie a few bytes apart, which
 * the low bits of their addresses would map onto each other. */
static unsigned slot_of(uint64_t key)
{
	return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 58) & (SITE_CACHE - 1);
}

/* Keep call c's site and counters in slot k of its key, serving once
 * the site's path is known. */
static void fill_slot(struct site_slot *k, const struct pmpi_call *c)
{
	const struct pmpi_site *s = &pmpi_sites[c->site];

	*k = (struct site_slot){ .key = slot_key(c), .site = c->site, .counts = c->counts,
				 .first = { offsetof(struct pmpi_call, ra),
					    (uint64_t)(uintptr_t)c->ra } };
	if (__atomic_load_n(&s->path, __ATOMIC_ACQUIRE) == PMPI_PATH_DONE) {	/* checks after */
		if (s->depth && s->ncheck) {
			k->first = s->check[0];
			k->more = s->check + 1;
			k->nmore = s->ncheck - 1;
		}
		k->call = (uint64_t)(uintptr_t)c;
	}
}

/* Call c's site and this thread's counters of it (c->counts; nowhere
 * when the site or memory is missing), found in the shared table and
 * kept in the thread's cache; PMPI_CALL_FRESH in c->flags when the site
 * is new. */
__attribute__((noinline))
static void look_up_site_miss(struct pmpi_call *c)
{
	struct thread_counts *t = my_counts();
	bool fresh;

	c->site = find_site(c, pmpi_call_depth(c), &fresh);
	if (fresh)
		c->flags |= PMPI_CALL_FRESH;
	c->counts = thread_site_counts(t, c->site);
	if (!c->counts)
		c->counts = &nowhere;
	else
		fill_slot(&t->cache[slot_of(slot_key(c))], c);
}

/* The same from the thread's cache when its key and path are there: a few
 * loads and the path's check on every call. */
static inline void look_up_site(struct pmpi_call *c)
{
	struct thread_counts *t = pmpi_here.counts;
	uint64_t key = slot_key(c);

	if (t) {
		const struct site_slot *k = &t->cache[slot_of(key)];

		if (k->key == key && k->call == (uint64_t)(uintptr_t)c &&
		    pmpi_checks_hold(&k->first, 1, c) &&
		    (!k->nmore || pmpi_checks_hold(k->more, k->nmore, c))) {
			c->site = k->site;
			c->counts = k->counts;
			return;
		}
	}
	look_up_site_miss(c);
}

void pmpi_look_up_site(struct pmpi_call *c)
{
	look_up_site(c);
}

int pmpi_site(struct pmpi_call *c)
{
	if (c->flags & PMPI_CALL_FRESH) {
		c->flags &= ~PMPI_CALL_FRESH;
		pmpi_path_capture(c, c->site);
	}
	return c->site;
}

/* Histogram bucket of a message size (profile.h); a small one's from a
 * table, a load where the bit count took a few steps on every message. */
static const unsigned char small_bucket[256] = {
	[1] = 1, [2 ... 3] = 2, [4 ... 7] = 3, [8 ... 15] = 4,
	[16 ... 31] = 5, [32 ... 63] = 6, [64 ... 127] = 7, [128 ... 255] = 8,
};

static unsigned bucket(uint64_t size)
{
	unsigned k;

	if (size < sizeof(small_bucket))
		return small_bucket[size];
	k = 64u - (unsigned)__builtin_clzll(size);
	return k < PROF_MPI_HIST ? k : PROF_MPI_HIST - 1;
}

/* Count a point-to-point message to a world rank. */
static inline void add_peer(int64_t peer, uint64_t bytes)
{
	struct thread_counts *t = my_counts();
	struct peer_table *p;

	if (t && (p = t->peers) && (uint64_t)peer < (uint64_t)p->n) {
		pmpi_bump(&p->to[peer].count, 1);
		pmpi_bump(&p->to[peer].bytes, bytes);
	}
}

/* The (fn, comm size) pair's index, added when new (under the lock);
 * -1 when the table is full. */
static int find_coll(unsigned fn, int64_t size)
{
	uint64_t h = ((uint64_t)fn * 0x9e3779b97f4a7c15ull) ^ (uint64_t)size;
	unsigned k = (unsigned)(h % PMPI_COLLS), i;
	int found = -1;

	for (i = 0; i < PMPI_COLLS; i++, k = (k + 1) % PMPI_COLLS) {
		const struct pmpi_coll *x = &pmpi_colls[k];

		if (!__atomic_load_n(&x->used, __ATOMIC_ACQUIRE))
			break;
		if (x->fn == fn && x->comm_size == size)
			return (int)k;
	}
	rt_lock(&pmpi_stats_lock);
	for (; i < PMPI_COLLS; i++, k = (k + 1) % PMPI_COLLS) {
		struct pmpi_coll *x = &pmpi_colls[k];

		if (!x->used) {
			x->fn = fn;
			x->comm_size = size;
			__atomic_store_n(&x->used, true, __ATOMIC_RELEASE);
		}
		if (x->fn == fn && x->comm_size == size) {
			found = (int)k;
			break;
		}
	}
	rt_unlock(&pmpi_stats_lock);
	return found;
}

void pmpi_stats_coll(const struct pmpi_call *c, uint64_t dt)
{
	struct thread_counts *t = my_counts();
	int k = find_coll(c->fn, c->comm_size);

	if (t && k >= 0) {
		struct pmpi_coll_counts *x = &t->colls[k];

		pmpi_bump(&x->calls, 1);
		pmpi_bump(&x->bytes, c->coll_bytes);
		pmpi_bump(&x->time_ns, dt);
	}
}

void pmpi_stats_add(struct pmpi_call *c, uint64_t dt)
{
	struct pmpi_counts *s = c->counts;

	pmpi_bump(&s->calls, 1);
	pmpi_bump(&s->time_ns, dt);
	pmpi_bump(&s->blocked_ns, c->flags & PMPI_CALL_BLOCK ? dt : 0);
}

void pmpi_count_sent(struct pmpi_call *c, uint64_t bytes, int64_t peer)
{
	struct pmpi_counts *s = c->counts;

	pmpi_bump(&s->sent, bytes);
	pmpi_bump(&s->hist[bucket(bytes)], 1);
	add_peer(peer, bytes);
}

void pmpi_count_received(struct pmpi_call *c, uint64_t bytes)
{
	struct pmpi_counts *s = c->counts;

	pmpi_bump(&s->recv, bytes);
	pmpi_bump(&s->hist[bucket(bytes)], 1);
}

void pmpi_site_recv(int site, uint64_t bytes)
{
	struct pmpi_counts *s = site_counts(site);

	if (s) {
		pmpi_bump(&s->recv, bytes);
		pmpi_bump(&s->hist[bucket(bytes)], 1);
	}
}

void pmpi_site_send(int site, uint64_t bytes, int64_t peer)
{
	struct pmpi_counts *s = site_counts(site);

	if (s) {
		pmpi_bump(&s->sent, bytes);
		pmpi_bump(&s->hist[bucket(bytes)], 1);
	}
	if (site >= 0)
		add_peer(peer, bytes);
}

void pmpi_site_wait(int site, unsigned kind, uint64_t ns, uint64_t comp_ns)
{
	struct pmpi_counts *s = site_counts(site);

	if (s && kind < PROF_WAITS) {
		pmpi_bump(&s->wait[kind], ns);
		pmpi_bump(&s->wait_comp[kind], comp_ns);
	}
}

/* Add counters a of a thread (main: the process's main thread) into sum. */
static void sum_counts(struct pmpi_counts *sum, const struct pmpi_counts *a, bool main)
{
	uint64_t calls = peek(&a->calls);

	sum->threads += calls > 0;
	sum->main_calls += main ? calls : 0;
	sum->calls += calls;
	sum->sent += peek(&a->sent);
	sum->recv += peek(&a->recv);
	sum->time_ns += peek(&a->time_ns);
	sum->blocked_ns += peek(&a->blocked_ns);
	for (int i = 0; i < PROF_MPI_HIST; i++)
		sum->hist[i] += peek(&a->hist[i]);
	for (int i = 0; i < PROF_WAITS; i++) {
		sum->wait[i] += peek(&a->wait[i]);
		sum->wait_comp[i] += peek(&a->wait_comp[i]);
	}
}

/* fn(site, s, arg) for thread t's counters s of each site in use: the
 * others have none, and their sums stay untouched, fresh pages (a page
 * fault each on a VM). */
static void each_site(const struct thread_counts *t,
		      void (*fn)(int site, const struct pmpi_counts *s, void *arg), void *arg)
{
	for (int b = 0; b < PMPI_SITES / CHUNK; b++) {
		const struct pmpi_counts *block = __atomic_load_n(&t->sites[b], __ATOMIC_ACQUIRE);

		for (int i = 0; block && i < CHUNK; i++)
			if (__atomic_load_n(&pmpi_sites[b * CHUNK + i].used, __ATOMIC_ACQUIRE))
				fn(b * CHUNK + i, &block[i], arg);
	}
}

static const struct thread_counts *first_thread(void)
{
	return __atomic_load_n(&all_threads, __ATOMIC_ACQUIRE);
}

void pmpi_counts_each(void (*fn)(int site, const struct pmpi_counts *s, void *arg), void *arg)
{
	for (const struct thread_counts *t = first_thread(); t; t = t->next)
		each_site(t, fn, arg);
}

struct thread_sum {
	struct pmpi_totals *sum;
	bool main;
};

static void sum_site(int site, const struct pmpi_counts *s, void *arg)
{
	struct thread_sum *ts = arg;

	sum_counts(&ts->sum->sites[site], s, ts->main);
}

static void sum_thread(struct pmpi_totals *sum, const struct thread_counts *t)
{
	const struct peer_table *p = t->peers;

	each_site(t, sum_site, &(struct thread_sum){ sum, t->main });
	for (int k = 0; k < PMPI_COLLS; k++) {
		sum->colls[k].calls += peek(&t->colls[k].calls);
		sum->colls[k].bytes += peek(&t->colls[k].bytes);
		sum->colls[k].time_ns += peek(&t->colls[k].time_ns);
	}
	for (int r = 0; p && r < p->n && r < sum->npeers; r++) {
		sum->peer_count[r] += peek(&p->to[r].count);
		sum->peer_bytes[r] += peek(&p->to[r].bytes);
	}
}

bool pmpi_stats_total(struct pmpi_totals *sum)
{
	/* read once: MPI_Init may end on another thread meanwhile */
	int np = __atomic_load_n(&pmpi_world_size, __ATOMIC_RELAXED);

	sum->npeers = np > 0 ? np : 0;
	sum->sites = calloc(PMPI_SITES, sizeof(*sum->sites));
	sum->colls = calloc(PMPI_COLLS, sizeof(*sum->colls));
	/* + 1: calloc of nothing may return NULL */
	sum->peer_count = calloc((size_t)sum->npeers + 1, sizeof(uint64_t));
	sum->peer_bytes = calloc((size_t)sum->npeers + 1, sizeof(uint64_t));
	if (!sum->sites || !sum->colls || !sum->peer_count || !sum->peer_bytes) {
		pmpi_totals_free(sum);
		return false;
	}
	for (const struct thread_counts *t = first_thread(); t; t = t->next)
		sum_thread(sum, t);
	return true;
}

void pmpi_totals_free(struct pmpi_totals *t)
{
	free(t->sites);
	free(t->colls);
	free(t->peer_count);
	free(t->peer_bytes);
	memset(t, 0, sizeof(*t));
}

uint64_t pmpi_bytes_v(const int *counts, MPI_Datatype type, int n)
{
	uint64_t elems = 0;

	for (int i = 0; i < n; i++)
		elems += counts[i] > 0 ? (uint64_t)counts[i] : 0;
	return elems ? pmpi_bytes(1, type) * elems : 0;
}

uint64_t pmpi_bytes_w(const int *counts, const MPI_Datatype *types, int n)
{
	uint64_t b = 0;

	for (int i = 0; i < n; i++)
		b += pmpi_bytes(counts[i], types[i]);
	return b;
}

uint64_t pmpi_status_bytes(const MPI_Status *st, bool *msg)
{
	/* an inactive persistent request completes with an empty status */
	*msg = st->MPI_SOURCE != MPI_PROC_NULL && st->MPI_SOURCE != MPI_ANY_SOURCE &&
	       !pmpi_status_cancelled(st);
	/* bytes whatever the receive's datatype (which the program may have
	 * freed since a non-blocking receive started) */
	return *msg ? (uint64_t)pmpi_status_count(st, false) : 0;
}

void pmpi_rma(struct pmpi_call *c, uint64_t sent, uint64_t recv)
{
	struct pmpi_counts *s = c->counts;

	pmpi_bump(&s->sent, sent);
	pmpi_bump(&s->recv, recv);
}

void pmpi_coll(struct pmpi_call *c, const struct pmpi_comm_facts *cf, uint64_t sent, uint64_t recv)
{
	pmpi_rma(c, sent, recv);
	c->coll_bytes = sent + recv;
	c->comm_size = cf->size;
	c->flags |= PMPI_CALL_COLL;
}
