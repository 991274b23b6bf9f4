/*
 * stress-threads.c - MPI_THREAD_MULTIPLE: worker threads making MPI calls
 * at once, each on a communicator of its own (a ring of Isend/Irecv of
 * drawn sizes completed by Wait or Test loops, Allreduce, Iallreduce, new
 * call sites at drawn depths), while the main thread keeps starting short
 * threads that compute and end, some joined and some detached, so that
 * threads begin and end under the sampler all the time.  Without
 * MPI_THREAD_MULTIPLE the workers run one after the other.
 * Usage: stress-threads SEED STEPS
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "stress.h"

#define WORKERS 3
#define MAXMSG 65536

struct worker {
	pthread_t th;
	int id;
	long steps;
	uint64_t rng;		/* the worker's own stream, alike on every rank */
	MPI_Comm comm;
	unsigned char *sbuf, *rbuf;
};

static atomic_int workers_done;

/* splitmix64 on the worker's own stream (draw() is the main thread's). */
static uint64_t wdraw(struct worker *w)
{
	uint64_t v = w->rng += 0x9e3779b97f4a7c15ull;

	v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
	v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
	return v ^ (v >> 31);
}

struct wstep {
	struct worker *w;
	int step, n, how;
};

static void ring(void *p)
{
	struct wstep *s = p;
	struct worker *w = s->w;
	int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks, flag = 0, tag = s->step % 30000;
	MPI_Request req[2];
	MPI_Status st;

	fill(w->sbuf, (size_t)s->n, s->step * WORKERS + w->id, rank, next);
	MPI_Irecv(w->rbuf, MAXMSG, MPI_BYTE, prev, tag, w->comm, &req[0]);
	MPI_Isend(w->sbuf, s->n, MPI_BYTE, next, tag, w->comm, &req[1]);
	if (s->how) {
		while (!flag)
			MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
	} else {
		MPI_Wait(&req[0], &st);
		MPI_Wait(&req[1], MPI_STATUS_IGNORE);
	}
	expect(w->rbuf, (size_t)s->n, s->step * WORKERS + w->id, prev, rank, "thread ring");
}

static void reduce(void *p)
{
	struct wstep *s = p;
	int v = rank + s->step, sum = -1, want = nranks * s->step + nranks * (nranks - 1) / 2;
	MPI_Request req;

	if (s->how) {
		MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, s->w->comm, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else {
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, s->w->comm);
	}
	check(sum == want, s->step, "thread allreduce");
}

static void *work(void *p)
{
	struct worker *w = p;

	for (int i = 0; i < w->steps; i++) {
		struct wstep s = { w, i, (int)(wdraw(w) % (MAXMSG + 1)), (int)(wdraw(w) % 2) };
		int pad = 16 * (int)(wdraw(w) % 64);

		at_depth(pad, wdraw(w) % 2 ? ring : reduce, &s);
	}
	atomic_fetch_add(&workers_done, 1);
	return NULL;
}

/* A short thread: a little computation, then it ends. */
static void *short_life(void *p)
{
	volatile uint64_t x = (uint64_t)(uintptr_t)p;

	for (int i = 0; i < 20000; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return NULL;
}

/* Start and end threads until the workers are done (at least one). */
static void churn(void)
{
	unsigned n = 0;

	do {
		pthread_t th;
		pthread_attr_t attr;
		bool detach = n % 3 == 0;

		pthread_attr_init(&attr);
		if (detach)
			pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&th, &attr, short_life, (void *)(uintptr_t)n) == 0 && !detach)
			pthread_join(th, NULL);
		pthread_attr_destroy(&attr);
		n++;
		sched_yield();
	} while (atomic_load(&workers_done) < WORKERS);
}

int main(int argc, char **argv)
{
	struct worker w[WORKERS];
	long steps;
	int provided = MPI_THREAD_SINGLE;
	bool multiple;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	stress_args(argc, argv, &steps, 200);
	multiple = provided == MPI_THREAD_MULTIPLE;
	for (int i = 0; i < WORKERS; i++) {
		w[i] = (struct worker){ .id = i, .steps = steps, .rng = draw() };
		MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm);
		w[i].sbuf = malloc(MAXMSG);
		w[i].rbuf = malloc(MAXMSG);
		check(w[i].sbuf && w[i].rbuf, 0, "out of memory");
	}
	for (int i = 0; i < WORKERS; i++)
		if (!multiple)
			work(&w[i]);
		else
			check(pthread_create(&w[i].th, NULL, work, &w[i]) == 0, 0, "pthread_create");
	churn();
	for (int i = 0; i < WORKERS && multiple; i++)
		pthread_join(w[i].th, NULL);
	for (int i = 0; i < WORKERS; i++) {
		MPI_Comm_free(&w[i].comm);
		free(w[i].sbuf);
		free(w[i].rbuf);
	}
	if (rank == 0)
		printf("stress-threads ranks=%d steps=%ld multiple=%d ok\n", nranks, steps, multiple);
	MPI_Finalize();
	return 0;
}
