/*
 * blocks.c - a thread's spare blocks (blocks.h): up to KEPT of each kind
 * in a stack of its own, the rest freed.  A block given back on another
 * thread than the one that took it joins that thread's spares.  The
 * spares of a thread that ends are freed (a key's destructor).
 */
#include <pthread.h>
#include <stdlib.h>

#include "blocks.h"

#define KEPT 32			/* spare blocks of a kind per thread */

struct spares {
	unsigned n;
	void *b[KEPT];
};

static __thread struct spares spares[PMPI_BLOCKS] __attribute__((tls_model("initial-exec")));
static __thread int registered __attribute__((tls_model("initial-exec")));
static pthread_key_t ending;
static pthread_once_t ending_once = PTHREAD_ONCE_INIT;

static void free_spares(void *unused)
{
	(void)unused;
	for (int k = 0; k < PMPI_BLOCKS; k++)
		while (spares[k].n)
			free(spares[k].b[--spares[k].n]);
}

static void make_key(void)
{
	pthread_key_create(&ending, free_spares);
}

/* The thread's spares are freed when it ends: asked once a thread, as it
 * keeps its first. */
static __attribute__((noinline)) void register_thread(void)
{
	pthread_once(&ending_once, make_key);
	registered = !pthread_setspecific(ending, &registered);
}

void *pmpi_block_get(enum pmpi_block kind, size_t size)
{
	struct spares *s = &spares[kind];

	return s->n ? s->b[--s->n] : malloc(size);
}

void pmpi_block_put(enum pmpi_block kind, void *p)
{
	struct spares *s = &spares[kind];

	if (!p)
		return;
	if (!registered)
		register_thread();
	if (s->n == KEPT || !registered)
		free(p);
	else
		s->b[s->n++] = p;
}
