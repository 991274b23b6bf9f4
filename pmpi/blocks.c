/*
 * blocks.c - a thread's spare blocks (blocks.h): up to PMPI_BLOCKS_KEPT
 * in a stack, the rest freed.  A block given back
 * on another thread than the one that took it joins that thread's
 * spares.  The spares of a thread that ends are freed (a key's
 * destructor).
 */
#include <pthread.h>

#include "blocks.h"

__thread struct pmpi_spares pmpi_spares __attribute__((tls_model("initial-exec")));
__thread bool pmpi_spares_registered __attribute__((tls_model("initial-exec")));
static pthread_key_t ending;
static pthread_once_t ending_once = PTHREAD_ONCE_INIT;

static void free_spares(void *unused)
{
	(void)unused;
	while (pmpi_spares.n)
		free(pmpi_spares.b[--pmpi_spares.n]);
}

static void make_key(void)
{
	pthread_key_create(&ending, free_spares);
}

/* The thread's spares are freed when it ends: asked once a thread, as it
 * keeps its first. */
static void register_thread(void)
{
	pthread_once(&ending_once, make_key);
	pmpi_spares_registered = !pthread_setspecific(ending, &pmpi_spares_registered);
}

void pmpi_block_put_slow(void *p)
{
	struct pmpi_spares *s = &pmpi_spares;

	if (!pmpi_spares_registered)
		register_thread();
	if (s->n == PMPI_BLOCKS_KEPT || !pmpi_spares_registered)
		free(p);
	else
		s->b[s->n++] = p;
}
