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
 *
 * Handles are recycled: once MPI has completed a request inside a Wait or
 * Test call, another thread may be given the same handle for a new request
 * before that call's wrapper gets back to the table.  So a completion call
 * claims and copies its tracked entries before it calls MPI and acts on
 * the copies afterwards; a claimed entry is invisible to every other call
 * (a new request with its handle gets an entry of its own beside it), and
 * is removed or released by its serial number, not by handle.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"
#include "piggyback.h"

#define SLOTS 4096		/* power of 2: requests in flight we can follow */
#define MASK (SLOTS - 1)

enum kind { RECV, PSEND, COLL };

/* Guards table and serial; taken before pmpi_stats_lock when both are needed. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmpi_tracked table[SLOTS];
static uint64_t serial;
static atomic_int ntracked;

static unsigned home(MPI_Request r)
{
	return (unsigned)((PMPI_HKEY(r) * 0x9e3779b97f4a7c15ull) >> 40) & MASK;
}

/* Slot of r's entry that no completion call holds, or -1.  Caller holds lock. */
static int lookup(MPI_Request r)
{
	for (unsigned i = home(r), n = 0; n < SLOTS && table[i].used; i = (i + 1) & MASK, n++)
		if (table[i].req == r && !table[i].claimed)
			return (int)i;
	return -1;
}

/* Slot of the entry with serial k of handle r, or -1.  Caller holds lock. */
static int lookup_serial(MPI_Request r, uint64_t k)
{
	for (unsigned i = home(r), n = 0; n < SLOTS && table[i].used; i = (i + 1) & MASK, n++)
		if (table[i].req == r && table[i].serial == k)
			return (int)i;
	return -1;
}

/* Add an entry (replacing a stale unclaimed one for the same handle);
 * false when the table is full.  Caller holds lock. */
static bool insert(const struct pmpi_tracked *t)
{
	int at = lookup(t->req);
	unsigned i = home(t->req), n = 0;

	if (at < 0) {
		while (table[i].used && n++ < SLOTS)
			i = (i + 1) & MASK;
		if (table[i].used)
			return false;
		at = (int)i;
		atomic_fetch_add(&ntracked, 1);
	}
	table[at] = *t;
	table[at].used = true;
	table[at].claimed = false;
	table[at].serial = ++serial;
	return true;
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
	struct pmpi_tracked t = { .persistent = persistent, .kind = RECV, .req = req,
				  .site = pmpi_site(c), .comm = comm };

	pthread_mutex_lock(&lock);
	insert(&t);
	pthread_mutex_unlock(&lock);
}

void pmpi_req_track_send(struct pmpi_call *c, MPI_Request req, int count, MPI_Datatype type,
			 int dest, int tag, MPI_Comm comm)
{
	struct pmpi_tracked t = { .persistent = true, .kind = PSEND, .req = req, .site = pmpi_site(c),
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
	struct pmpi_tracked t = { .kind = COLL, .req = req, .site = pmpi_site(c), .coll = x };
	bool kept;

	pthread_mutex_lock(&lock);
	kept = insert(&t);
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
		struct pmpi_tracked *t = at >= 0 ? &table[at] : NULL;

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

/* Claim and copy the tracked entries of reqs[0..n) into ent (ent[i].used
 * false for the others); returns how many. */
static int claim(int n, const MPI_Request *reqs, struct pmpi_tracked *ent)
{
	int got = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < n; i++) {
		int at = reqs[i] == MPI_REQUEST_NULL ? -1 : lookup(reqs[i]);

		ent[i].used = false;
		if (at < 0)
			continue;
		table[at].claimed = true;
		ent[i] = table[at];
		got++;
	}
	pthread_mutex_unlock(&lock);
	return got;
}

/* Is any of reqs[0..n) tracked and free to claim?  A hint, taken
 * unlocked of the count and under the lock of the table. */
static bool any_tracked(int n, const MPI_Request *reqs)
{
	bool any = false;

	if (n <= 0 || !atomic_load_explicit(&ntracked, memory_order_relaxed))
		return false;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < n && !any; i++)
		any = reqs[i] != MPI_REQUEST_NULL && lookup(reqs[i]) >= 0;
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
	s->skip = false;
	s->ent = s->small_ent;
	s->st = s->small_st;
	s->fst = NULL;
	if (!any_tracked(n, reqs) || !(s->ent = room(s->small_ent, (size_t)n, sizeof(*s->ent))))
		return;
	if (!claim(n, reqs, s->ent))
		return;		/* another thread took them meanwhile */
	s->n = n;
	if (*statuses == (many ? MPI_STATUSES_IGNORE : MPI_STATUS_IGNORE)) {
		s->st = room(s->small_st, many ? (size_t)n : 1, sizeof(MPI_Status));
		if (!s->st) {
			s->st = s->small_st;
			s->skip = true;
		} else {
			*statuses = s->st;
		}
	}
}

/* Release the claim on t, removing its entry when completed and not
 * persistent; then, when counted, count a completed receive's message
 * (status st) and take its piggyback, or complete a collective's
 * companion.  The piggyback is received outside the lock (it may wait for
 * the sender's Isend to arrive). */
static void finish(struct pmpi_call *c, const struct pmpi_tracked *t, bool completed,
		   bool count, const MPI_Status *st)
{
	int at;

	pthread_mutex_lock(&lock);
	at = lookup_serial(t->req, t->serial);
	if (at >= 0 && completed && !t->persistent)
		remove_slot((unsigned)at);
	else if (at >= 0)
		table[at].claimed = false;
	pthread_mutex_unlock(&lock);
	if (!completed || !count)
		return;
	if (t->kind == RECV) {
		bool msg;
		uint64_t b = pmpi_status_bytes(st, &msg);

		if (msg)
			pmpi_site_recv(t->site, b);
		pmpi_pb_recv(c, t->comm, st);
	} else if (t->kind == COLL) {
		pmpi_pb_coll_finish(t->coll, c);
	}
}

/* How many requests the call completed, from its results. */
static int ncompleted(int rc, const int *index, const int *flag, const int *outcount)
{
	if (rc != MPI_SUCCESS)
		return 0;
	if (outcount)		/* Waitsome, Testsome */
		return *outcount == MPI_UNDEFINED ? 0 : *outcount;
	if (index)		/* Waitany, Testany */
		return (flag && !*flag) || *index == MPI_UNDEFINED ? 0 : 1;
	return !flag || *flag;	/* Wait, Waitall; Test, Testall */
}

/* For each of the snapshot's n requests, the index of its status among
 * the call's statuses, -1 when the call did not complete it (of done
 * completions). */
static void status_index(const struct pmpi_snap *s, int done, const int *index, const int *outcount,
			 const int *indices, int base, int *at)
{
	for (int i = 0; i < s->n; i++)
		at[i] = -1;
	if (!done)
		return;
	if (outcount) {
		for (int k = 0; k < done; k++)
			at[indices[k] - base] = k;
	} else if (index) {
		at[*index - base] = 0;
	} else {
		for (int i = 0; i < s->n; i++)
			at[i] = s->many ? i : 0;
	}
}

void pmpi_reqs_complete(struct pmpi_call *c, struct pmpi_snap *s, int rc, const MPI_Status *statuses,
			const int *index, const int *flag, const int *outcount,
			const int *indices, int base)
{
	int done = ncompleted(rc, index, flag, outcount), small[PMPI_SNAP_SMALL], *at = small;

	if (s->n > PMPI_SNAP_SMALL)
		at = malloc((size_t)s->n * sizeof(*at));
	if (at)
		status_index(s, done, index, outcount, indices, base, at);
	/* without the map nothing is known completed: the claims are only
	 * released (completed entries stay, stale, until their handle returns) */
	for (int i = 0; i < s->n; i++)
		if (s->ent[i].used)
			finish(c, &s->ent[i], at && at[i] >= 0, !s->skip,
			       at && at[i] >= 0 && !s->skip ? &statuses[at[i]] : NULL);
	c->completed = done > 0;
	if (at != small)
		free(at);
	if (s->ent != s->small_ent)
		free(s->ent);
	if (s->st != s->small_st)
		free(s->st);
}

void pmpi_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, int rc, const MPI_Status *statuses,
		     const int *index, const int *flag, const int *outcount, const int *indices)
{
	pmpi_reqs_complete(c, s, rc, statuses, index, flag, outcount, indices, 0);
}
