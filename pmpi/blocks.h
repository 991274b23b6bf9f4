/*
 * blocks.h - a thread's spare blocks of one size (blocks.c): the entries
 * of the requests in flight (requests.c), each with room for a small
 * message's header and data, are given back and taken again without the
 * allocator, whose malloc and free cost some 130 instructions a pair.
 * Taking and giving back a spare are inline: a few loads and stores.
 */
#ifndef CPPERF_PMPI_BLOCKS_H
#define CPPERF_PMPI_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#define PMPI_BLOCKS_KEPT 32	/* spare blocks per thread */

/* A thread's spares; blocks.c frees them when it ends, once `registered`
 * says it will. */
struct pmpi_spares {
	unsigned n;
	void *b[PMPI_BLOCKS_KEPT];
};

extern __thread struct pmpi_spares pmpi_spares __attribute__((tls_model("initial-exec")));
extern __thread bool pmpi_spares_registered __attribute__((tls_model("initial-exec")));

/* Give back p when the thread keeps no more spares or is not registered
 * yet (it is then). */
void pmpi_block_put_slow(void *p);

/* A block of size bytes, always the same, NULL when memory is short. */
static inline void *pmpi_block_get(size_t size)
{
	struct pmpi_spares *s = &pmpi_spares;

	return s->n ? s->b[--s->n] : malloc(size);
}

/* Give back p (NULL allowed), from pmpi_block_get on any thread. */
static inline void pmpi_block_put(void *p)
{
	struct pmpi_spares *s = &pmpi_spares;

	if (!p)
		return;
	if (pmpi_spares_registered && s->n < PMPI_BLOCKS_KEPT)
		s->b[s->n++] = p;
	else
		pmpi_block_put_slow(p);
}

#endif
