/*
 * stats.c - per-call-site MPI statistics: what each wrapper call adds (time,
 * blocked time, bytes, message sizes, the peer of a send, collectives by
 * communicator size), kept in fixed tables until the end of the run.
 *
 * A call site is keyed by (MPI function, the caller's return address, the
 * depth of the call on its thread's stack) and told apart further by its
 * call path, which callpath.c captures at the site's first call.  All
 * tables are
 * static or allocated once at MPI_Init, so a wrapper call allocates
 * nothing; one mutex guards them (wrappers of several threads may run at
 * once under MPI_THREAD_MULTIPLE).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmpi.h"
#include "stats.h"

pthread_mutex_t pmpi_stats_lock = PTHREAD_MUTEX_INITIALIZER;
struct pmpi_site pmpi_sites[PMPI_SITES];
struct pmpi_coll pmpi_colls[PMPI_COLLS];
uint64_t *pmpi_peer_count, *pmpi_peer_bytes;
int pmpi_world_size;

void pmpi_activate(int world_size)
{
	pmpi_peer_count = calloc((size_t)world_size, sizeof(uint64_t));
	pmpi_peer_bytes = calloc((size_t)world_size, sizeof(uint64_t));
	if (!pmpi_peer_count || !pmpi_peer_bytes) {
		free(pmpi_peer_count);
		free(pmpi_peer_bytes);
		pmpi_peer_count = pmpi_peer_bytes = NULL;
		world_size = 0;	/* no matrix, statistics otherwise whole */
	}
	pmpi_world_size = world_size;
}

/*
 * The site of call c, created when new (*fresh: its path is to be
 * captured); -1 when the table is full.  Sites of one key with different
 * call paths sit side by side in the probe sequence.  Caller holds
 * pmpi_stats_lock.
 */
static int find_site(const struct pmpi_call *c, bool *fresh)
{
	uint64_t sd = pmpi_call_depth(c);	/* stack depth */
	uint64_t h = ((uint64_t)(uintptr_t)c->ra ^ ((uint64_t)c->fn << 48) ^ (sd << 20)) *
		     0x9e3779b97f4a7c15ull;

	*fresh = false;
	for (unsigned i = 0, k = (unsigned)(h >> 52) & (PMPI_SITES - 1); i < PMPI_SITES;
	     i++, k = (k + 1) & (PMPI_SITES - 1)) {
		struct pmpi_site *s = &pmpi_sites[k];

		if (!s->used) {
			*s = (struct pmpi_site){ .used = true, .fn = c->fn, .ra = c->ra, .depth = sd };
			*fresh = true;
			return (int)k;
		}
		if (s->fn == c->fn && s->ra == c->ra && s->depth == sd && pmpi_path_matches(s, c))
			return (int)k;
	}
	return -1;
}

int pmpi_site(struct pmpi_call *c)
{
	bool fresh = false;

	if (c->site < 0) {
		rt_lock(&pmpi_stats_lock);
		c->site = find_site(c, &fresh);
		rt_unlock(&pmpi_stats_lock);
		if (fresh)
			pmpi_path_capture(c, c->site);
	}
	return c->site;
}

/* Histogram bucket of a message size (profile.h). */
static unsigned bucket(uint64_t size)
{
	unsigned k = size ? 64u - (unsigned)__builtin_clzll(size) : 0;

	return k < PROF_MPI_HIST ? k : PROF_MPI_HIST - 1;
}

/* Count a point-to-point message to a world rank.  Caller holds the lock. */
static void add_peer(int64_t peer, uint64_t bytes)
{
	if (peer >= 0 && peer < pmpi_world_size) {
		pmpi_peer_count[peer]++;
		pmpi_peer_bytes[peer] += bytes;
	}
}

/* Collective (fn, comm size) entry; NULL when the table is full.  Caller
 * holds the lock. */
static struct pmpi_coll *find_coll(unsigned fn, int64_t size)
{
	uint64_t h = ((uint64_t)fn * 0x9e3779b97f4a7c15ull) ^ (uint64_t)size;

	for (unsigned i = 0, k = (unsigned)(h % PMPI_COLLS); i < PMPI_COLLS; i++, k = (k + 1) % PMPI_COLLS) {
		struct pmpi_coll *x = &pmpi_colls[k];

		if (!x->used) {
			x->used = true;
			x->fn = fn;
			x->comm_size = size;
			return x;
		}
		if (x->fn == fn && x->comm_size == size)
			return x;
	}
	return NULL;
}

void pmpi_stats_add(struct pmpi_call *c, uint64_t dt, bool *fresh)
{
	bool blocked = (c->flags & PMPI_CALL_BLOCK) || ((c->flags & PMPI_CALL_TESTBLOCK) && c->completed);

	rt_lock(&pmpi_stats_lock);
	if (c->site < 0)
		c->site = find_site(c, fresh);
	if (c->site >= 0) {
		struct pmpi_site *s = &pmpi_sites[c->site];

		s->calls++;
		s->time_ns += dt;
		s->blocked_ns += blocked ? dt : 0;
		s->sent += c->sent;
		s->recv += c->recv;
		for (unsigned i = 0; i < c->nsizes; i++)
			s->hist[bucket(c->sizes[i])]++;
	}
	if (c->peer >= 0)
		add_peer(c->peer, c->peer_bytes);
	if (c->comm_size >= 0) {
		struct pmpi_coll *x = find_coll(c->fn, c->comm_size);

		if (x) {
			x->calls++;
			x->bytes += c->sent + c->recv;
			x->time_ns += dt;
		}
	}
	rt_unlock(&pmpi_stats_lock);
}

void pmpi_site_recv(int site, uint64_t bytes)
{
	if (site < 0)
		return;
	rt_lock(&pmpi_stats_lock);
	pmpi_sites[site].recv += bytes;
	pmpi_sites[site].hist[bucket(bytes)]++;
	rt_unlock(&pmpi_stats_lock);
}

void pmpi_site_send(int site, uint64_t bytes, int64_t peer)
{
	if (site < 0)
		return;
	rt_lock(&pmpi_stats_lock);
	pmpi_sites[site].sent += bytes;
	pmpi_sites[site].hist[bucket(bytes)]++;
	add_peer(peer, bytes);
	rt_unlock(&pmpi_stats_lock);
}

uint64_t pmpi_bytes(int count, MPI_Datatype type)
{
	int size;

	if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
	    size <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
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

/* A call sends at most one point-to-point message. */
void pmpi_sent(struct pmpi_call *c, int count, MPI_Datatype type, int dest, MPI_Comm comm)
{
	uint64_t b;

	if (dest == MPI_PROC_NULL)
		return;
	b = pmpi_bytes(count, type);
	c->sent += b;
	c->sizes[c->nsizes++] = b;
	c->peer = pmpi_world_rank(comm, dest);
	c->peer_bytes = b;
}

uint64_t pmpi_status_bytes(const MPI_Status *st, bool *msg)
{
	MPI_Count n = 0;
	int cancelled = 0;

	/* an inactive persistent request completes with an empty status */
	*msg = st->MPI_SOURCE != MPI_PROC_NULL && st->MPI_SOURCE != MPI_ANY_SOURCE &&
	       PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS &&
	       !cancelled;
	/* MPI_BYTE counts bytes whatever the receive's datatype (which the
	 * program may have freed since a non-blocking receive started) */
	if (!*msg || PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
		return 0;
	return (uint64_t)n;
}

void pmpi_received(struct pmpi_call *c, const MPI_Status *st)
{
	bool msg;
	uint64_t b = pmpi_status_bytes(st, &msg);

	if (!msg)
		return;
	c->recv += b;
	c->sizes[c->nsizes++] = b;
}

void pmpi_coll(struct pmpi_call *c, MPI_Comm comm, uint64_t sent, uint64_t recv)
{
	c->sent += sent;
	c->recv += recv;
	c->comm_size = pmpi_comm_size(comm);
}

void pmpi_rma(struct pmpi_call *c, uint64_t sent, uint64_t recv)
{
	c->sent += sent;
	c->recv += recv;
}
