/*
 * read-ahead.c - read many profiles on several threads and hand them to
 * the caller one at a time in file order (read-ahead.h).
 *
 * Parsing a profile is most of the cost of a report over many ranks, and
 * it needs nothing but the file; merging needs the merged result and
 * stays on the calling thread, in order, so that the result does not
 * depend on which thread finished first.
 *
 * Worker k of T reads files k, k + T, k + 2T ... into a ring of its own
 * and frees them there once the caller has used them: memory is freed by
 * the thread that allocated it (the allocator's cheap path), and the
 * caller does nothing but merge.  A worker whose ring is full sleeps until
 * half of it is free, and each side wakes the other only when it sleeps,
 * so that a handful of wakeups serve a ring of files: on a small machine
 * the threads outnumber the CPUs, and every wakeup is a switch.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "read-ahead.h"

#define MAX_THREADS 8
#define RING 8			/* files a worker may hold read ahead */
#define REFILL (RING / 2)	/* a full ring sleeps until this many are free */
#define MSG_MAX 512

enum slot_state { SLOT_FREE, SLOT_READY, SLOT_FAILED };

struct slot {
	enum slot_state state;	/* written by the worker alone */
	struct profile p;
	void *extra;		/* from prep, until the caller takes it */
	char msg[MSG_MAX];
};

struct pool;

struct worker {
	struct pool *pool;
	size_t first;		/* this worker reads first, first + T, ... */
	size_t done;		/* of its files, how many are read */
	size_t taken;		/* of its files, how many the caller used */
	bool sleeping;
	pthread_cond_t room;
	pthread_t tid;
	struct slot ring[RING];
};

struct pool {
	const char *const *paths;
	size_t n;
	size_t nworkers;
	const struct read_ahead_ops *ops;
	bool stop;
	bool caller_waits;
	pthread_mutex_t lock;
	pthread_cond_t ready;
	struct worker *workers;
};

/* Read path into p and prepare it; on failure a message naming the file
 * in msg. */
static int read_one(const struct read_ahead_ops *ops, const char *path, struct profile *p,
		    void **extra, char *msg)
{
	char why[MSG_MAX / 2];

	profile_init(p);
	*extra = NULL;
	if (profile_read(p, path, why, sizeof(why)) == 0) {
		if (!ops->prep || ops->prep(p, extra, why, sizeof(why)) == 0)
			return 0;
		profile_release(p);
	}
	if (strstr(why, path))	/* the reader may or may not name the file */
		snprintf(msg, MSG_MAX, "%s", why);
	else
		snprintf(msg, MSG_MAX, "%s: %s", path, why);
	return -1;
}

/* Free what a slot holds: a profile the caller used, or one it never took. */
static void slot_release(const struct read_ahead_ops *ops, struct slot *s)
{
	if (s->state == SLOT_FREE)
		return;
	if (s->extra && ops->drop)
		ops->drop(s->extra);
	s->extra = NULL;
	profile_release(&s->p);
	s->state = SLOT_FREE;
}

static void *work(void *arg)
{
	struct worker *wk = arg;
	struct pool *w = wk->pool;

	for (size_t j = 0;; j++) {
		size_t i = wk->first + j * w->nworkers;
		struct slot *s = &wk->ring[j % RING];
		int rc;

		if (i >= w->n)
			break;
		bool stop;

		pthread_mutex_lock(&w->lock);
		if (j - wk->taken == RING)
			while (!w->stop && j - wk->taken > RING - REFILL) {
				wk->sleeping = true;
				pthread_cond_wait(&wk->room, &w->lock);
			}
		wk->sleeping = false;
		stop = w->stop;
		pthread_mutex_unlock(&w->lock);
		if (stop)
			break;
		slot_release(w->ops, s);	/* the caller is done with it */
		rc = read_one(w->ops, w->paths[i], &s->p, &s->extra, s->msg);
		s->state = rc ? SLOT_FAILED : SLOT_READY;
		pthread_mutex_lock(&w->lock);
		wk->done = j + 1;
		if (w->caller_waits)
			pthread_cond_signal(&w->ready);
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

static size_t threads_to_use(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = cpus > MAX_THREADS ? MAX_THREADS : cpus < 1 ? 1 : (size_t)cpus;

	return t > n ? n : t;
}

/* One file after the other on this thread: one CPU, or one file. */
static int read_serially(const char *const *paths, size_t n, const struct read_ahead_ops *ops,
			 void *arg, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct profile p;
		char msg[MSG_MAX];
		void *extra;
		int rc;

		if (read_one(ops, paths[i], &p, &extra, msg) < 0) {
			snprintf(err, errlen, "%s", msg);
			return -1;
		}
		rc = ops->use(arg, &p, extra, paths[i], err, errlen);
		profile_release(&p);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Wait for file i, use it, and give its slot back to its worker. */
static int take(struct pool *w, size_t i, void *arg, char *err, size_t errlen)
{
	struct worker *wk = &w->workers[i % w->nworkers];
	size_t j = i / w->nworkers;
	struct slot *s = &wk->ring[j % RING];
	int rc = -1;

	pthread_mutex_lock(&w->lock);
	while (wk->done <= j) {
		w->caller_waits = true;
		pthread_cond_wait(&w->ready, &w->lock);
	}
	w->caller_waits = false;
	pthread_mutex_unlock(&w->lock);
	if (s->state == SLOT_FAILED) {
		snprintf(err, errlen, "%s", s->msg);
	} else {
		void *extra = s->extra;

		s->extra = NULL;	/* use owns it now */
		rc = w->ops->use(arg, &s->p, extra, w->paths[i], err, errlen);
	}
	pthread_mutex_lock(&w->lock);
	wk->taken = j + 1;
	if (wk->sleeping && wk->done - wk->taken <= RING - REFILL)
		pthread_cond_signal(&wk->room);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

/* Stop the workers, wait for them, and free what they still hold. */
static void stop_workers(struct pool *w, size_t started)
{
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	for (size_t t = 0; t < started; t++)
		pthread_cond_signal(&w->workers[t].room);
	pthread_mutex_unlock(&w->lock);
	for (size_t t = 0; t < started; t++) {
		pthread_join(w->workers[t].tid, NULL);
		for (size_t k = 0; k < RING; k++)
			slot_release(w->ops, &w->workers[t].ring[k]);
		pthread_cond_destroy(&w->workers[t].room);
	}
}

int read_ahead(const char *const *paths, size_t n, const struct read_ahead_ops *ops, void *arg,
	       char *err, size_t errlen)
{
	size_t nthreads = threads_to_use(n), started = 0;
	struct pool w = {
		.paths = paths, .n = n, .ops = ops,
		.lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER,
	};
	int rc = 0;

	if (nthreads <= 1)
		return read_serially(paths, n, ops, arg, err, errlen);
	if (!(w.workers = calloc(nthreads, sizeof(*w.workers)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	w.nworkers = nthreads;
	for (; started < nthreads; started++) {
		struct worker *wk = &w.workers[started];

		wk->pool = &w;
		wk->first = started;
		pthread_cond_init(&wk->room, NULL);
		if (pthread_create(&wk->tid, NULL, work, wk)) {
			pthread_cond_destroy(&wk->room);
			break;
		}
	}
	if (started < nthreads) {	/* files are dealt to workers by number */
		stop_workers(&w, started);
		free(w.workers);
		return read_serially(paths, n, ops, arg, err, errlen);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = take(&w, i, arg, err, errlen);
	stop_workers(&w, started);
	free(w.workers);
	return rc;
}
