/*
 * read-ahead.c - read many profiles on several threads and hand them to
 * the caller one at a time in file order (read-ahead.h).
 *
 * Parsing a profile is most of the cost of a report over many ranks, and
 * it needs nothing but the file; merging needs the merged result and
 * stays on the calling thread, in order, so that the result does not
 * depend on which thread finished first.  Worker threads take the next
 * file while fewer than SLOTS_PER_THREAD x threads profiles wait to be
 * merged, which bounds memory by that many profiles.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "read-ahead.h"

#define MAX_THREADS 8
#define SLOTS_PER_THREAD 2
#define MSG_MAX 512

enum slot_state { SLOT_FREE, SLOT_READY, SLOT_FAILED };

struct slot {
	enum slot_state state;
	struct profile p;
	char msg[MSG_MAX];
};

struct pool {
	const char *const *paths;
	size_t n, next, used;	/* next file to read; files handed over */
	struct slot *slots;
	size_t nslots;
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t ready, room;
};

/* Read path into p; on failure a message naming the file in msg. */
static int read_one(const char *path, struct profile *p, char *msg)
{
	char why[MSG_MAX / 2];

	profile_init(p);
	if (profile_read(p, path, why, sizeof(why)) == 0)
		return 0;
	if (strstr(why, path))	/* the reader may or may not name the file */
		snprintf(msg, MSG_MAX, "%s", why);
	else
		snprintf(msg, MSG_MAX, "%s: %s", path, why);
	return -1;
}

static void *worker(void *arg)
{
	struct pool *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->stop && w->next < w->n && w->next >= w->used + w->nslots)
			pthread_cond_wait(&w->room, &w->lock);
		if (w->stop || w->next >= w->n)
			break;

		size_t i = w->next++;
		struct slot *s = &w->slots[i % w->nslots];	/* this thread's until ready */
		int rc;

		pthread_mutex_unlock(&w->lock);
		rc = read_one(w->paths[i], &s->p, s->msg);
		pthread_mutex_lock(&w->lock);
		s->state = rc ? SLOT_FAILED : SLOT_READY;
		pthread_cond_broadcast(&w->ready);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static int threads_to_use(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int t = cpus > MAX_THREADS ? MAX_THREADS : cpus < 1 ? 1 : (int)cpus;

	return (size_t)t > n ? (int)n : t;
}

/* One file after the other on this thread: one CPU, or one file. */
static int read_serially(const char *const *paths, size_t n, read_ahead_use use, void *arg,
			 char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct profile p;
		char msg[MSG_MAX];
		int rc;

		if (read_one(paths[i], &p, msg) < 0) {
			snprintf(err, errlen, "%s", msg);
			return -1;
		}
		rc = use(arg, &p, paths[i], err, errlen);
		profile_release(&p);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Take file i from its slot, wait for it if need be, and use it. */
static int take(struct pool *w, size_t i, read_ahead_use use, void *arg, char *err, size_t errlen)
{
	struct slot *s = &w->slots[i % w->nslots];
	int rc = -1;

	pthread_mutex_lock(&w->lock);
	while (s->state == SLOT_FREE)
		pthread_cond_wait(&w->ready, &w->lock);
	pthread_mutex_unlock(&w->lock);
	if (s->state == SLOT_FAILED)
		snprintf(err, errlen, "%s", s->msg);
	else
		rc = use(arg, &s->p, w->paths[i], err, errlen);
	profile_release(&s->p);
	pthread_mutex_lock(&w->lock);
	s->state = SLOT_FREE;
	w->used = i + 1;
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

int read_ahead(const char *const *paths, size_t n, read_ahead_use use, void *arg,
	       char *err, size_t errlen)
{
	int nthreads = threads_to_use(n), started = 0, rc = 0;
	pthread_t tid[MAX_THREADS];
	struct pool w = {
		.paths = paths, .n = n, .nslots = (size_t)nthreads * SLOTS_PER_THREAD,
		.lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER,
		.room = PTHREAD_COND_INITIALIZER,
	};

	if (nthreads <= 1)
		return read_serially(paths, n, use, arg, err, errlen);
	if (!(w.slots = calloc(w.nslots, sizeof(*w.slots)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (; started < nthreads; started++)
		if (pthread_create(&tid[started], NULL, worker, &w))
			break;
	if (!started) {
		free(w.slots);
		return read_serially(paths, n, use, arg, err, errlen);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = take(&w, i, use, arg, err, errlen);
	pthread_mutex_lock(&w.lock);
	w.stop = true;
	pthread_cond_broadcast(&w.room);
	pthread_mutex_unlock(&w.lock);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	for (size_t i = 0; i < w.nslots; i++)	/* read ahead of a failure */
		if (w.slots[i].state != SLOT_FREE)
			profile_release(&w.slots[i].p);
	free(w.slots);
	return rc;
}
