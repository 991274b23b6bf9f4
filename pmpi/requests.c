/*
 * requests.c - requests whose work is done later than the call that made
 * them: point-to-point requests, whose buffers (p2p.h) live until they
 * complete and whose receives are unpacked, corrected and counted then
 * (with the size their status gives); persistent ones, restamped and
 * counted at each Start; and non-blocking collectives, whose piggyback
 * companion completes with the user's request.
 *
 * A hash table keyed by handle: buckets of linked entries, each bucket
 * under one of a few striped mutexes, so threads completing different
 * requests seldom meet and no number of requests in flight is too many.
 * A request enters when created and leaves when completed (non-persistent)
 * or freed.  Completion calls first check an atomic count, so programs
 * with no request in flight pay nothing.
 *
 * Handles are recycled: once MPI has completed a request inside a Wait or
 * Test call, another thread may be given the same handle for a new request
 * before that call's wrapper gets back to the table.  So a completion call
 * claims its tracked entries before it calls MPI and acts on them
 * afterwards; a claimed entry is invisible to every other call (a new
 * request with its handle gets an entry of its own beside it), and is
 * removed or released by the claimer, not looked up by handle again.
 *
 * A point-to-point request's entry has room for its side: the header and
 * a small message's data lie in it, one block a request.  A request the
 * program frees while active is kept (with its entry when its side lies
 * in it) and completed by freed.c.  The buffers of a request we lose
 * sight of while MPI may still use them (its handle seen again before we
 * saw it complete, a request kept with no memory left) are left
 * allocated, its entry too when they lie in it: nothing tells when MPI is
 * done with them.  Entries come from the thread's spare blocks or malloc,
 * and where memory is short from a few kept aside (reserve.h): an
 * untracked receive would never give the program its data.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "call.h"
#include "facts.h"
#include "comms.h"
#include "requests.h"
#include "freed.h"
#include "piggyback.h"
#include "p2p.h"
#include "p2p-side.h"
#include "reserve.h"
#include "wire.h"
#include "graph.h"
#include "waits.h"
#include "../sampler/clock.h"

#define BUCKETS 4096		/* power of 2 */
#define STRIPES 64		/* mutexes over the buckets, power of 2 */

enum { COLL = P2P_PRECV + 1 };

struct entry {
	struct pmpi_tracked t;	/* first: a snapshot's pointer to it is the entry's */
	struct entry *next;
	unsigned b;		/* its bucket, home(t.req) */
	/* a side's header and a small message's data (p2p_side_make) */
	unsigned char room[WIRE_MAX + P2P_SAMPLED_COPY];
};
_Static_assert(offsetof(struct entry, t) == 0, "a tracked request's entry is where it is");

static struct entry *bucket[BUCKETS];
static pthread_mutex_t stripe[STRIPES] = { [0 ... STRIPES - 1] = PTHREAD_MUTEX_INITIALIZER };
static int64_t ntracked;

static unsigned home(MPI_Request r)
{
	return (unsigned)((PMPI_HKEY(r) * 0x9e3779b97f4a7c15ull) >> 40) & (BUCKETS - 1);
}

/* Take and let go of bucket b's stripe, where threads call MPI
 * (pmpi_lock's test): the stripe's address found inside the test, which
 * the compiler did not do for pmpi_lock's argument (a dozen times a
 * round of an exchange). */
static void lock_bucket(unsigned b)
{
	if (!pmpi_one_thread)
		pthread_mutex_lock(&stripe[b & (STRIPES - 1)]);
}

static void unlock_bucket(unsigned b)
{
	if (!pmpi_one_thread)
		pthread_mutex_unlock(&stripe[b & (STRIPES - 1)]);
}

/* r's entry that no completion call holds, or NULL.  Caller holds its lock. */
static struct entry *lookup(unsigned b, MPI_Request r)
{
	for (struct entry *e = bucket[b]; e; e = e->next)
		if (e->t.req == r && !e->t.claimed)
			return e;
	return NULL;
}

/* Unlink e from bucket b.  Caller holds its lock. */
static void unlink_entry(unsigned b, struct entry *e)
{
	struct entry **p = &bucket[b];

	while (*p != e)
		p = &(*p)->next;
	*p = e->next;
	pmpi_add(&ntracked, -1);
}

#define ENTRIES_KEPT 32
static struct entry kept_entries[ENTRIES_KEPT];
static struct pmpi_reserve entries = { (unsigned char *)kept_entries, sizeof(kept_entries[0]),
				       ENTRIES_KEPT, 0, "the table of requests in flight" };

/* A new entry, for the caller to fill and insert: a spare block of the
 * thread's, malloc's, or one kept aside (past those the job stops). */
static struct entry *entry_new(void)
{
	struct entry *e = pmpi_block_get(sizeof(struct entry));

	return e ? e : pmpi_reserve_take(&entries);
}

static void entry_free(struct entry *e)
{
	if (!pmpi_reserve_give(&entries, e))
		pmpi_block_put(e);
}

/* Whether e's side lies in its room (else on the heap, or it has none). */
static bool in_room(const struct entry *e)
{
	return e->t.side.hdr == e->room;
}

/* The entry of a request we lose sight of while MPI may still use its
 * buffers: they stay, and so does the entry when they lie in its room. */
static void entry_leave(struct entry *e)
{
	if (!in_room(e))
		entry_free(e);
}

/* Add entry e, its request filled in, dropping a stale unclaimed one of
 * the same handle: its request completed where we did not see it.  MPIs
 * give one completed request for every collective on a communicator of
 * one rank (Open MPI its empty request, MPICH a complete one): a
 * collective that carried the piggyback is finished then, which gives
 * the program its data. */
static void insert(struct entry *e)
{
	unsigned b = e->b = home(e->t.req);
	struct entry *stale;

	e->t.claimed = false;
	lock_bucket(b);
	stale = lookup(b, e->t.req);
	if (stale)
		unlink_entry(b, stale);
	e->next = bucket[b];
	bucket[b] = e;
	pmpi_add(&ntracked, 1);
	unlock_bucket(b);
	if (stale && stale->t.kind == COLL && stale->t.coll->fused)
		pmpi_pb_coll_finish(stale->t.coll, NULL, stale->t.coll->dir, false);
	if (stale)
		entry_leave(stale);
}

struct pmpi_tracked *pmpi_req_new(void)
{
	struct entry *e = entry_new();

	e->t.alone = false;
	return &e->t;
}

struct p2p_room pmpi_req_room(struct pmpi_tracked *t)
{
	struct entry *e = (struct entry *)t;

	return (struct p2p_room){ e->room, sizeof(e->room), true };
}

void pmpi_req_drop(struct pmpi_tracked *t)
{
	if (t->alone)
		free(t);
	else
		entry_free((struct entry *)t);
}

void pmpi_req_track(struct pmpi_call *c, struct pmpi_tracked *t, MPI_Request req,
		    enum p2p_kind kind, MPI_Comm comm, int peer, int tag)
{
	/* every field but the side, without a temporary: every request's cost */
	t->persistent = kind == P2P_PSEND || kind == P2P_PRECV;
	t->active = false;
	t->kind = (unsigned char)kind;
	t->req = req;
	t->site = c ? pmpi_site(c) : -1;
	t->tag = tag;
	t->peer = kind == P2P_PSEND ? pmpi_world_rank(comm, peer) : 0;
	t->comm = comm;
	t->coll = NULL;
	insert((struct entry *)t);
}

void pmpi_req_track_coll(struct pmpi_call *c, MPI_Request *req, struct pmpi_pb_coll *x)
{
	struct entry *e = entry_new();

	e->t = (struct pmpi_tracked){ .kind = COLL, .req = *req, .site = pmpi_site(c), .coll = x };
	insert(e);
}

/* Before MPI_Start: restamp a persistent send's piggyback and count its
 * message (from the Send_init's site); mark persistent requests active. */
void pmpi_req_start(struct pmpi_call *c, int n, const MPI_Request *reqs)
{
	if (!__atomic_load_n(&ntracked, __ATOMIC_RELAXED))
		return;
	for (int i = 0; i < n; i++) {
		unsigned b = home(reqs[i]);
		struct pmpi_tracked t;
		struct entry *e;

		lock_bucket(b);
		e = lookup(b, reqs[i]);
		if (e) {
			e->t.active = true;
			e->t.side.unpacked = false;
			if (e->t.kind == P2P_PRECV && e->t.side.hdr)
				wire_clear(e->t.side.hdr);
			t = e->t;
		}
		unlock_bucket(b);
		if (!e || t.kind != P2P_PSEND)
			continue;
		/* one request is started by one thread at a time: its header is ours */
		pmpi_p2p_restamp(c, &t.side, t.site, t.tag, t.comm);
		if (c)
			pmpi_site_send(t.site, t.side.bytes, t.peer);
	}
}

int pmpi_x_request_get_status(MPI_Request req, int *flag, MPI_Status *st)
{
	MPI_Status own;
	unsigned b = home(req);
	struct entry *e;
	int rc;

	if (st == MPI_STATUS_IGNORE)
		st = &own;	/* the data of a small receive are unpacked now */
	rc = PMPI_Request_get_status(req, flag, st);
	if (rc != MPI_SUCCESS || !*flag || !__atomic_load_n(&ntracked, __ATOMIC_RELAXED))
		return rc;
	lock_bucket(b);
	e = lookup(b, req);
	if (e && (e->t.kind == P2P_RECV || e->t.kind == P2P_PRECV))
		pmpi_p2p_seen(&e->t.side, st);
	else if (e && e->t.kind == COLL)	/* as a collective's that carried the piggyback */
		pmpi_pb_coll_data_out(e->t.coll);
	unlock_bucket(b);
	return rc;
}

/* Hand e's request, freed while active, to freed.c: with its entry when
 * its side lies in it, else as a copy alone, the entry freed (a request
 * kept holds no more than its buffers); false when memory is short. */
static bool keep_freed(struct entry *e)
{
	struct pmpi_tracked *t = &e->t;

	if (!in_room(e)) {
		if (!(t = malloc(sizeof(*t))))
			return false;
		*t = e->t;
		t->alone = true;
	}
	if (!pmpi_freed_keep(t)) {
		if (t != &e->t)
			free(t);
		return false;
	}
	if (t != &e->t)
		entry_free(e);
	return true;
}

int pmpi_x_request_free(MPI_Request *req)
{
	unsigned b = home(*req);
	struct entry *e;

	if (!__atomic_load_n(&ntracked, __ATOMIC_RELAXED))
		return PMPI_Request_free(req);
	lock_bucket(b);
	e = lookup(b, *req);
	if (e)
		unlink_entry(b, e);
	unlock_bucket(b);
	if (!e)
		return PMPI_Request_free(req);
	/* active: MPI may still use its buffers, and a receive's data are
	 * still to be unpacked and counted (freed.c) */
	if (e->t.kind != COLL && (!e->t.persistent || e->t.active) && keep_freed(e)) {
		*req = MPI_REQUEST_NULL;
		return MPI_SUCCESS;
	}
	if (e->t.persistent && !e->t.active) {
		pmpi_p2p_release(&e->t.side);
		entry_free(e);
	} else {
		entry_leave(e);
	}
	return PMPI_Request_free(req);
}

/* Claim the tracked entries of reqs[0..n) into ent (NULL for the
 * others); returns how many. */
static int claim(int n, const MPI_Request *reqs, struct pmpi_tracked **ent)
{
	int got = 0;

	for (int i = 0; i < n; i++) {
		unsigned b = home(reqs[i]);
		struct entry *e;

		ent[i] = NULL;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		lock_bucket(b);
		e = lookup(b, reqs[i]);
		if (e) {
			e->t.claimed = true;
			ent[i] = &e->t;
			got++;
		}
		unlock_bucket(b);
	}
	return got;
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
	if (n <= 0 || !__atomic_load_n(&ntracked, __ATOMIC_RELAXED) ||
	    !(s->ent = room(s->small_ent, (size_t)n, sizeof(*s->ent))))
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

/* How long request t lived until call c completed it, 0 when not known
 * (a collective's, a persistent request's). */
static uint64_t since_post(const struct pmpi_call *c, const struct pmpi_tracked *t)
{
	uint64_t now;

	if (t->kind == COLL || !t->side.t_post)
		return 0;
	now = c->t_done ? c->t_done : rt_now_ns();
	return now > t->side.t_post ? now - t->side.t_post : 0;
}

/* A non-blocking collective's request t completed in call c: its
 * companion completes.  Out of line: the completion calls that inline
 * their whole call (mpi-api.def's hot) inline the messages' work. */
__attribute__((noinline))
static void coll_complete(const struct pmpi_tracked *t, struct pmpi_call *c)
{
	pmpi_pb_coll_finish(t->coll, c, t->coll->dir, false);
}

/* The work of completed request t: a receive is unpacked into the user's
 * buffer, its status corrected and (count) its piggyback merged and,
 * unless truncated, its bytes counted; a send's buffer is freed; a
 * collective's companion completes; the activity graph gets its
 * completion edge (after a receive's merge, which read the clock). */
static void complete(struct pmpi_call *c, struct pmpi_tracked *t, bool count, bool truncated,
		     MPI_Status *st)
{
	if ((t->kind == P2P_RECV || t->kind == P2P_PRECV) && st) {
		bool msg = false;
		uint64_t n;

		pmpi_p2p_arrived(count ? c : NULL, &t->side, st);
		n = c && count && !truncated ? pmpi_status_bytes(st, &msg) : 0;
		if (c && count && msg)
			pmpi_site_recv(t->site, n);
	} else if (t->kind == COLL) {
		coll_complete(t, c);
	}
	if (c && pmpi_waits_on)
		pmpi_graph_complete(c, t->site, since_post(c, t));
	if (!t->persistent)
		pmpi_p2p_release(&t->side);
}

/* Release the claim on t, removing its entry when completed and not
 * persistent, and complete it when completed.  An entry that stays is
 * other calls' again once released: its completion works on a copy. */
static void finish(struct pmpi_call *c, struct pmpi_tracked *t, bool completed, bool count,
		   bool truncated, MPI_Status *st)
{
	struct entry *e = (struct entry *)t;
	unsigned b = e->b;
	bool gone = completed && !t->persistent;
	struct pmpi_tracked kept;

	lock_bucket(b);
	if (gone) {
		unlink_entry(b, e);
	} else {
		kept = *t;
		t = &kept;
		e->t.claimed = false;
		e->t.active = e->t.active && !completed;
	}
	unlock_bucket(b);
	if (completed)
		complete(c, t, count, truncated, st);
	if (gone)
		entry_free(e);
}

/* How many requests the call completed, from its results (a truncated
 * receive is completed, with an error). */
static int ncompleted(int rc, const int *index, const int *flag, const int *outcount)
{
	if (!pmpi_p2p_delivered(rc))
		return 0;
	if (outcount)		/* Waitsome, Testsome */
		return *outcount == MPI_UNDEFINED ? 0 : *outcount;
	if (index)		/* Waitany, Testany */
		return (flag && !*flag) || *index == MPI_UNDEFINED ? 0 : 1;
	return !flag || *flag;	/* Wait, Waitall; Test, Testall */
}

/* For each of the snapshot's n requests, the index of its status among
 * the call's statuses, -1 when the call did not complete it (of done
 * completions).  An index out of range (a library's mistake) names none. */
static void status_index(const struct pmpi_snap *s, int done, const int *index, const int *outcount,
			 const int *indices, int base, int *at)
{
	if (done && !outcount && !index) {	/* Wait, Waitall, Test, Testall: all of them */
		for (int i = 0; i < s->n; i++)
			at[i] = s->many ? i : 0;
		return;
	}
	for (int i = 0; i < s->n; i++)
		at[i] = -1;
	if (!done)
		return;
	if (outcount) {
		for (int k = 0; k < done; k++)
			if (indices[k] - base >= 0 && indices[k] - base < s->n)
				at[indices[k] - base] = k;
	} else if (*index - base >= 0 && *index - base < s->n) {
		at[*index - base] = 0;
	}
}

/* Whether the call completed every request, each successfully: Wait,
 * Waitall, and a Test or Testall that found them complete (the common
 * case, which needs no map of statuses). */
static bool all_completed(int rc, const int *index, const int *flag, const int *outcount)
{
	return rc == MPI_SUCCESS && !index && !outcount && (!flag || *flag);
}

/* The snapshot's requests when all completed: each status at its place. */
static void finish_all(struct pmpi_call *c, const struct pmpi_snap *s, MPI_Status *statuses)
{
	for (int i = 0; i < s->n; i++)
		if (s->ent[i])
			finish(c, s->ent[i], true, !s->skip, false,
			       s->skip ? NULL : &statuses[s->many ? i : 0]);
}

/* The snapshot's requests otherwise; returns how many completed. */
static int finish_some(struct pmpi_call *c, const struct pmpi_snap *s, int rc,
		       MPI_Status *statuses, const int *index, const int *flag,
		       const int *outcount, const int *indices, int base)
{
	int cls = MPI_SUCCESS, small[PMPI_SNAP_SMALL], *at = small;
	/* MPI_ERR_IN_STATUS: each status says whether its request completed
	 * (successfully or with an error) or is still pending */
	bool in_status = rc != MPI_SUCCESS && PMPI_Error_class(rc, &cls) == MPI_SUCCESS &&
			 cls == MPI_ERR_IN_STATUS;
	int done = ncompleted(in_status ? MPI_SUCCESS : rc, index, flag, outcount);

	if (s->n > PMPI_SNAP_SMALL)
		at = malloc((size_t)s->n * sizeof(*at));
	if (at)
		status_index(s, done, index, outcount, indices, base, at);
	/* without the map nothing is known completed: the claims are only
	 * released (completed entries stay, stale, until their handle returns) */
	for (int i = 0; i < s->n; i++) {
		MPI_Status *st = at && at[i] >= 0 && !s->skip ? &statuses[at[i]] : NULL;
		bool completed = at && at[i] >= 0 &&
				 (!in_status || (st && st->MPI_ERROR != MPI_ERR_PENDING));
		int err = in_status && st ? st->MPI_ERROR : rc;

		if (!pmpi_p2p_delivered(err))
			st = NULL;	/* failed: its data, as MPI left them */
		if (s->ent[i])
			finish(c, s->ent[i], completed, !s->skip, err != MPI_SUCCESS,
			       completed ? st : NULL);
	}
	if (at != small)
		free(at);
	return done;
}

void pmpi_reqs_complete(struct pmpi_call *c, struct pmpi_snap *s, int rc, MPI_Status *statuses,
			const int *index, const int *flag, const int *outcount,
			const int *indices, int base)
{
	int done = 1;

	if (all_completed(rc, index, flag, outcount))
		finish_all(c, s, statuses);
	else
		done = finish_some(c, s, rc, statuses, index, flag, outcount, indices, base);
	if (c && done > 0 && (c->flags & PMPI_CALL_TESTBLOCK))
		c->flags |= PMPI_CALL_BLOCK;
	if (s->ent != s->small_ent)
		free(s->ent);
	if (s->st != s->small_st)
		free(s->st);
}

void pmpi_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, int rc, MPI_Status *statuses,
		     const int *index, const int *flag, const int *outcount, const int *indices)
{
	pmpi_reqs_complete(c, s, rc, statuses, index, flag, outcount, indices, 0);
}
