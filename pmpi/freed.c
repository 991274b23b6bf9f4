/*
 * freed.c - point-to-point requests the program freed while active
 * (MPI_Request_free).  MPI completes such a request by itself; but a small
 * receive's data wait in our bounce buffer until we unpack them, and a
 * side's buffers must live until MPI is done with them.  So the request
 * is not freed in MPI: the program gets MPI_REQUEST_NULL, as from
 * MPI_Request_free, and we keep the handle until MPI completes it.
 *
 * A program learns that a freed receive completed only through a later
 * MPI call (a message that follows it, a barrier).  So the receives whose
 * data we unpack ("prompt") are tested at the end of every profiled call,
 * whichever thread makes it: that call's end finds them complete and
 * their data are in place when the program looks.  The others (sends,
 * receives MPI fills in place) only hold memory: they are tested each
 * time their number doubles, so a program that frees every send costs a
 * constant per send.  Each test is one MPI_Testsome over a set, one pass
 * of MPI's progress whatever its size.
 *
 * Kept requests enter an incoming list under a lock of their own; the
 * sets are tested under another, held across MPI calls.  A thread does
 * not test again from inside a test (an error handler that calls MPI).
 */
#include <stdlib.h>

#include "call.h"
#include "facts.h"
#include "requests.h"
#include "freed.h"

#define LAZY_FIRST 64	/* lazy requests kept before their first test */

struct freed {
	struct pmpi_tracked *t;	/* ours (pmpi_req_drop) */
	struct freed *next;
};

/* Requests of one kind being tested, with room for what Testsome returns. */
struct set {
	MPI_Request *req;
	struct pmpi_tracked **t;
	int *idx;
	MPI_Status *st;
	int n, cap;
};

static struct freed *incoming;
static pthread_mutex_t in_lock = PTHREAD_MUTEX_INITIALIZER;
static struct set prompt, lazy;
static pthread_mutex_t test_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t nkept, nprompt, nlazy, lazy_mark = LAZY_FIRST;
static __thread bool testing __attribute__((tls_model("initial-exec")));

/* A receive whose data we unpack when it completes. */
static bool is_prompt(const struct pmpi_tracked *t)
{
	return (t->kind == P2P_RECV || t->kind == P2P_PRECV) && t->side.hdr && t->side.packed;
}

bool pmpi_freed_keep(struct pmpi_tracked *t)
{
	struct freed *f = malloc(sizeof(*f));

	if (!f)
		return false;
	f->t = t;
	pmpi_lock(&in_lock);
	f->next = incoming;
	incoming = f;
	pmpi_unlock(&in_lock);
	pmpi_add(is_prompt(t) ? &nprompt : &nlazy, 1);
	pmpi_add(&nkept, 1);
	return true;
}

static bool set_grow(struct set *s)
{
	int cap = s->cap ? 2 * s->cap : 16;
	MPI_Request *req = realloc(s->req, (size_t)cap * sizeof(*req));
	struct pmpi_tracked **t = req ? realloc(s->t, (size_t)cap * sizeof(*t)) : NULL;
	int *idx = t ? realloc(s->idx, (size_t)cap * sizeof(*idx)) : NULL;
	MPI_Status *st = idx ? realloc(s->st, (size_t)cap * sizeof(*st)) : NULL;

	if (req)
		s->req = req;
	if (t)
		s->t = t;
	if (idx)
		s->idx = idx;
	if (!st)
		return false;
	s->st = st;
	s->cap = cap;
	return true;
}

/* The incoming requests into their sets; one that finds no room stays
 * incoming.  Caller holds test_lock. */
static void take_incoming(void)
{
	struct freed *f, *left = NULL;

	pmpi_lock(&in_lock);
	f = incoming;
	incoming = NULL;
	pmpi_unlock(&in_lock);
	while (f) {
		struct freed *next = f->next;
		struct set *s = is_prompt(f->t) ? &prompt : &lazy;

		if (s->n < s->cap || set_grow(s)) {
			s->req[s->n] = f->t->req;
			s->t[s->n++] = f->t;
			free(f);
		} else {
			f->next = left;
			left = f;
		}
		f = next;
	}
	if (left) {
		pmpi_lock(&in_lock);
		for (f = left; f->next; f = f->next)
			;
		f->next = incoming;
		incoming = left;
		pmpi_unlock(&in_lock);
	}
}

/* t's request completed with status st (NULL: nothing delivered): a
 * receive's data to the user and its bytes to its call site, its buffers
 * and entry freed; a persistent request, now inactive, freed in MPI. */
static void finish(struct pmpi_tracked *t, MPI_Status *st)
{
	bool msg = false;
	uint64_t n;

	if ((t->kind == P2P_RECV || t->kind == P2P_PRECV) && st) {
		pmpi_p2p_arrived(NULL, &t->side, st);
		n = pmpi_status_bytes(st, &msg);
		if (msg && t->site >= 0)
			pmpi_site_recv(t->site, n);
	}
	pmpi_p2p_release(&t->side);
	if (t->persistent)
		PMPI_Request_free(&t->req);
	pmpi_req_drop(t);
}

/* Test a set once; finish and drop what completed.  When MPI fails
 * otherwise it tells nothing of them: they are dropped, their buffers
 * left.  Caller holds test_lock. */
static void test_set(struct set *s, int64_t *count)
{
	int done = 0, rc, cls = MPI_SUCCESS, k = 0;

	if (!s->n)
		return;
	rc = PMPI_Testsome(s->n, s->req, &done, s->idx, s->st);
	if (rc != MPI_SUCCESS && (PMPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_IN_STATUS)) {
		for (int i = 0; i < s->n; i++)
			s->req[i] = MPI_REQUEST_NULL;
		done = 0;
	} else if (done == MPI_UNDEFINED) {
		done = 0;
	}
	for (int j = 0; j < done; j++) {
		int i = s->idx[j];
		MPI_Status *st = &s->st[j];

		/* with errors in statuses, a truncated receive still delivered */
		finish(s->t[i], rc == MPI_SUCCESS || pmpi_p2p_delivered(st->MPI_ERROR) ? st : NULL);
		s->req[i] = MPI_REQUEST_NULL;
	}
	for (int i = 0; i < s->n; i++)	/* the rest, in order */
		if (s->req[i] != MPI_REQUEST_NULL) {
			s->req[k] = s->req[i];
			s->t[k++] = s->t[i];
		}
	pmpi_add(count, -(int64_t)(s->n - k));
	pmpi_add(&nkept, -(int64_t)(s->n - k));
	s->n = k;
}

/* Test the prompt set, and the lazy one when it has doubled (all: both).
 * Not from inside a test on this thread.  Out of line: the wrappers that
 * inline their whole call (mpi-api.def's hot) take only the poll's test. */
__attribute__((noinline))
static void test_kept(bool all)
{
	if (testing)
		return;
	testing = true;
	pmpi_lock(&test_lock);
	take_incoming();
	test_set(&prompt, &nprompt);
	if (all || lazy.n >= __atomic_load_n(&lazy_mark, __ATOMIC_RELAXED)) {
		test_set(&lazy, &nlazy);
		__atomic_store_n(&lazy_mark, lazy.n > LAZY_FIRST / 2 ? 2 * (int64_t)lazy.n : LAZY_FIRST,
				 __ATOMIC_RELAXED);
	}
	pmpi_unlock(&test_lock);
	testing = false;
}

void pmpi_freed_poll(void)
{
	if (__atomic_load_n(&nkept, __ATOMIC_RELAXED) &&
	    (__atomic_load_n(&nprompt, __ATOMIC_RELAXED) ||
	     __atomic_load_n(&nlazy, __ATOMIC_RELAXED) >= __atomic_load_n(&lazy_mark, __ATOMIC_RELAXED)))
		test_kept(false);
}

/* Whatever never completed (an erroneous program) MPI frees as it can;
 * its buffers and entries stay. */
static void set_drop(struct set *s)
{
	for (int i = 0; i < s->n; i++)
		PMPI_Request_free(&s->req[i]);
	free(s->req);
	free(s->t);
	free(s->idx);
	free(s->st);
	*s = (struct set){ 0 };
}

void pmpi_freed_at_finalize(void)
{
	if (!__atomic_load_n(&nkept, __ATOMIC_RELAXED))
		return;
	test_kept(true);
	pmpi_lock(&test_lock);
	take_incoming();
	set_drop(&prompt);
	set_drop(&lazy);
	nkept = nprompt = nlazy = 0;
	pmpi_unlock(&test_lock);
}
