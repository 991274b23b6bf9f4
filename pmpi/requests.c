/*
 * requests.c - requests whose message is counted later than the call that
 * made them: receives (counted when Wait/Test completes them, with the size
 * their status gives) and persistent sends (counted at each Start).
 *
 * The piggyback (piggyback.h) rides on the same entries: a completed
 * receive takes its piggyback from the shadow of its communicator, a
 * persistent send sends one at each Start, and a non-blocking collective's
 * companion completes with the user's request.
 *
 * A fixed open-addressing table keyed by handle (linear probing, deletion
 * by backward shift) under one mutex; a request enters when created and
 * leaves when completed (non-persistent) or freed.  Completion calls first
 * check an atomic count, so programs with no receive in flight pay nothing.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"
#include "piggyback.h"

#define SLOTS 4096		/* power of 2: requests in flight we can follow */
#define MASK (SLOTS - 1)

enum kind { RECV, PSEND, COLL };

struct tracked {
	bool used;
	bool persistent;
	enum kind kind;
	MPI_Request req;
	int site;
	uint64_t bytes;		/* PSEND: per message */
	int64_t peer;		/* PSEND: world rank */
	MPI_Comm comm;		/* RECV, PSEND: the communicator (piggyback) */
	int count, dest, tag;	/* PSEND: the send, for its piggyback */
	MPI_Datatype type;
	struct pmpi_pb_coll *coll;	/* COLL: the companion */
};

/* Guards table; taken before pmpi_stats_lock when both are needed. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct tracked table[SLOTS];
static atomic_int ntracked;

static unsigned home(MPI_Request r)
{
	return (unsigned)((PMPI_HKEY(r) * 0x9e3779b97f4a7c15ull) >> 40) & MASK;
}

/* Slot of r, or -1.  Caller holds lock. */
static int lookup(MPI_Request r)
{
	for (unsigned i = home(r), n = 0; n < SLOTS && table[i].used; i = (i + 1) & MASK, n++)
		if (table[i].req == r)
			return (int)i;
	return -1;
}

/* Add an entry (replacing a stale one for the same handle); dropped when
 * the table is full.  Caller holds lock. */
static void insert(const struct tracked *t)
{
	int at = lookup(t->req);
	unsigned i = home(t->req), n = 0;

	if (at >= 0) {
		table[at] = *t;
		return;
	}
	while (table[i].used && n++ < SLOTS)
		i = (i + 1) & MASK;
	if (table[i].used)
		return;
	table[i] = *t;
	table[i].used = true;
	atomic_fetch_add(&ntracked, 1);
}

/* Remove slot i, moving later entries of its probe run back.  Caller holds lock. */
static void remove_slot(unsigned i)
{
	for (unsigned j = (i + 1) & MASK; table[j].used; j = (j + 1) & MASK) {
		unsigned k = home(table[j].req);

		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;	/* j's home lies after the hole: it stays */
		table[i] = table[j];
		i = j;
	}
	table[i].used = false;
	atomic_fetch_sub(&ntracked, 1);
}

void pmpi_req_track_recv(struct pmpi_call *c, MPI_Request req, int persistent, MPI_Comm comm)
{
	struct tracked t = { .persistent = persistent, .kind = RECV, .req = req, .site = pmpi_site(c),
			     .comm = comm };

	pthread_mutex_lock(&lock);
	insert(&t);
	pthread_mutex_unlock(&lock);
}

void pmpi_req_track_send(struct pmpi_call *c, MPI_Request req, int count, MPI_Datatype type,
			 int dest, int tag, MPI_Comm comm)
{
	struct tracked t = { .persistent = true, .kind = PSEND, .req = req, .site = pmpi_site(c),
			     .comm = comm, .count = count, .dest = dest, .tag = tag, .type = type };

	if (dest == MPI_PROC_NULL)
		return;
	t.bytes = pmpi_bytes(count, type);
	t.peer = pmpi_world_rank(comm, dest);
	pthread_mutex_lock(&lock);
	insert(&t);
	pthread_mutex_unlock(&lock);
}

void pmpi_req_track_coll(struct pmpi_call *c, MPI_Request req, struct pmpi_pb_coll *x)
{
	struct tracked t = { .kind = COLL, .req = req, .site = pmpi_site(c), .coll = x };

	bool kept;

	pthread_mutex_lock(&lock);
	insert(&t);
	kept = lookup(req) >= 0;
	pthread_mutex_unlock(&lock);
	if (!kept)	/* the table is full: complete the companion now */
		pmpi_pb_coll_finish(x, c);
}

/* After MPI_Start: count a persistent send's message and send its
 * piggyback (from the Send_init's site). */
void pmpi_req_start(struct pmpi_call *c, int n, const MPI_Request *reqs)
{
	if (!atomic_load_explicit(&ntracked, memory_order_relaxed))
		return;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < n; i++) {
		int at = lookup(reqs[i]);
		struct tracked *t = at >= 0 ? &table[at] : NULL;

		if (!t || t->kind != PSEND)
			continue;
		pmpi_site_send(t->site, t->bytes, t->peer);
		pmpi_pb_send_at(c, t->site, t->count, t->type, t->dest, t->tag, t->comm);
	}
	pthread_mutex_unlock(&lock);
}

void pmpi_req_forget(MPI_Request req)
{
	int at;

	if (!atomic_load_explicit(&ntracked, memory_order_relaxed))
		return;
	pthread_mutex_lock(&lock);
	at = lookup(req);
	if (at >= 0)
		remove_slot((unsigned)at);
	pthread_mutex_unlock(&lock);
}

/* Is any of reqs[0..n) tracked? */
static bool any_tracked(int n, const MPI_Request *reqs)
{
	bool any = false;

	if (n <= 0 || !atomic_load_explicit(&ntracked, memory_order_relaxed))
		return false;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < n && !any; i++)
		any = lookup(reqs[i]) >= 0;
	pthread_mutex_unlock(&lock);
	return any;
}

/* Memory for n items: the snapshot's small array or the heap (NULL when
 * short, and then the call is not counted). */
static void *room(void *small, size_t n, size_t size)
{
	return n <= PMPI_SNAP_SMALL ? small : malloc(n * size);
}

void pmpi_reqs_before(struct pmpi_snap *s, int n, const MPI_Request *reqs,
		      MPI_Status **statuses, int many)
{
	s->n = 0;
	s->many = many;
	s->reqs = s->small_reqs;
	s->st = s->small_st;
	s->fst = NULL;
	if (!any_tracked(n, reqs) || !(s->reqs = room(s->small_reqs, (size_t)n, sizeof(MPI_Request))))
		return;
	memcpy(s->reqs, reqs, (size_t)n * sizeof(MPI_Request));
	s->n = n;
	if (*statuses == (many ? MPI_STATUSES_IGNORE : MPI_STATUS_IGNORE)) {
		s->st = room(s->small_st, many ? (size_t)n : 1, sizeof(MPI_Status));
		if (!s->st)
			s->n = 0;
		else
			*statuses = s->st;
	}
}

/* A request completed with status st in call c: count a tracked receive's
 * message and take its piggyback, or complete a collective's companion;
 * drop the entry unless persistent.  The piggyback is received outside the
 * lock (it may wait for the sender's Isend to arrive). */
static void finish(struct pmpi_call *c, MPI_Request req, const MPI_Status *st)
{
	struct tracked t = { .kind = PSEND };
	int at;

	pthread_mutex_lock(&lock);
	at = lookup(req);
	if (at >= 0 && table[at].kind != PSEND) {
		t = table[at];
		if (!t.persistent)
			remove_slot((unsigned)at);
	}
	pthread_mutex_unlock(&lock);
	if (t.kind == RECV) {
		bool msg;
		uint64_t b = pmpi_status_bytes(st, &msg);

		if (msg)
			pmpi_site_recv(t.site, b);
		pmpi_pb_recv(c, t.comm, st);
	} else if (t.kind == COLL) {
		pmpi_pb_coll_finish(t.coll, c);
	}
}

void pmpi_reqs_complete(struct pmpi_call *c, struct pmpi_snap *s, int rc, const MPI_Status *statuses,
			const int *index, const int *flag, const int *outcount,
			const int *indices, int base)
{
	int done = 0;

	if (rc == MPI_SUCCESS) {
		if (outcount) {		/* Waitsome, Testsome */
			done = *outcount == MPI_UNDEFINED ? 0 : *outcount;
			for (int k = 0; k < done && s->n; k++)
				finish(c, s->reqs[indices[k] - base], &statuses[k]);
		} else if (index) {	/* Waitany, Testany */
			done = (flag && !*flag) || *index == MPI_UNDEFINED ? 0 : 1;
			if (done && s->n)
				finish(c, s->reqs[*index - base], statuses);
		} else if (!flag || *flag) {	/* Wait, Waitall; Test, Testall that completed */
			done = 1;
			for (int i = 0; i < s->n; i++)
				finish(c, s->reqs[i], s->many ? &statuses[i] : statuses);
		}
	}
	c->completed = done > 0;
	if (s->reqs != s->small_reqs)
		free(s->reqs);
	if (s->st != s->small_st)
		free(s->st);
}

void pmpi_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, int rc, const MPI_Status *statuses,
		     const int *index, const int *flag, const int *outcount, const int *indices)
{
	pmpi_reqs_complete(c, s, rc, statuses, index, flag, outcount, indices, 0);
}
