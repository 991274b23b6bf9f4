/*
 * freed.c - point-to-point requests the program freed while active
 * (MPI_Request_free).  MPI completes such a request by itself; but a small
 * receive's data wait in our bounce buffer until we unpack them, and a
 * side's buffers must live until MPI is done with them.  So the request
 * is not freed in MPI: the program gets MPI_REQUEST_NULL, as from
 * MPI_Request_free, and we keep the handle and test it at the end of every
 * profiled MPI call until it completes.  A program learns that a freed
 * receive completed only through a later MPI call (a message that follows
 * it, a barrier); that call's end finds it complete, so its data are in
 * place when the program looks.
 */
#include <stdlib.h>

#include "pmpi.h"

struct freed {
	struct pmpi_tracked t;
	struct freed *next;
};

static struct freed *list;
static int64_t nfreed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

bool pmpi_freed_keep(const struct pmpi_tracked *t)
{
	struct freed *f = malloc(sizeof(*f));

	if (!f)
		return false;
	f->t = *t;
	pmpi_lock(&lock);
	f->next = list;
	list = f;
	pmpi_add(&nfreed, 1);
	pmpi_unlock(&lock);
	return true;
}

/* f's request completed with status st (NULL: failed): a receive's data
 * to the user and its bytes to its call site, its buffers freed; a
 * persistent request, now inactive, freed in MPI. */
static void finish(struct freed *f, MPI_Status *st)
{
	bool msg = false;
	uint64_t n;

	if ((f->t.kind == P2P_RECV || f->t.kind == P2P_PRECV) && st) {
		pmpi_p2p_arrived(NULL, &f->t.side, st);
		n = pmpi_status_bytes(st, &msg);
		if (msg && f->t.site >= 0)
			pmpi_site_recv(f->t.site, n);
	}
	pmpi_p2p_release(&f->t.side);
	if (f->t.persistent)
		PMPI_Request_free(&f->t.req);
	free(f);
}

/* Test every kept request once; finish those complete.  One thread at a
 * time tests them (another that finds the list busy goes on). */
static void test_all(bool wait)
{
	struct freed **p, *f;

	if (wait || pmpi_one_thread)
		pmpi_lock(&lock);
	else if (pthread_mutex_trylock(&lock))
		return;
	for (p = &list; (f = *p);) {
		MPI_Status st;
		int done = 0, rc = PMPI_Test(&f->t.req, &done, &st);

		if (rc == MPI_SUCCESS && !done) {
			p = &f->next;
			continue;
		}
		*p = f->next;	/* complete, or failed: MPI is done with it */
		pmpi_add(&nfreed, -1);
		finish(f, rc == MPI_SUCCESS ? &st : NULL);
	}
	pmpi_unlock(&lock);
}

void pmpi_freed_poll(void)
{
	if (__atomic_load_n(&nfreed, __ATOMIC_RELAXED))
		test_all(false);
}

void pmpi_freed_at_finalize(void)
{
	struct freed *f;

	if (!__atomic_load_n(&nfreed, __ATOMIC_RELAXED))
		return;
	test_all(true);
	/* never matched (an erroneous program): MPI frees them as it can;
	 * their buffers stay */
	pmpi_lock(&lock);
	while ((f = list)) {
		list = f->next;
		PMPI_Request_free(&f->t.req);
		free(f);
	}
	nfreed = 0;
	pmpi_unlock(&lock);
}
