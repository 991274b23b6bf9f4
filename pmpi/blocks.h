/*
 * blocks.h - a thread's spare blocks of a few fixed sizes (blocks.c):
 * what a request in flight holds (its entry in the request table, a small
 * message's header and data) is given back and taken again without the
 * allocator, whose malloc and free cost some 130 instructions a pair, four
 * pairs a round of a non-blocking exchange.  Taking and giving back a
 * spare are inline: a few loads and stores.
 */
#ifndef CPPERF_PMPI_BLOCKS_H
#define CPPERF_PMPI_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* The kinds of block; each is always asked with the same size. */
enum pmpi_block { PMPI_BLOCK_REQUEST, PMPI_BLOCK_MESSAGE, PMPI_BLOCKS };

#define PMPI_BLOCKS_KEPT 32	/* spare blocks of a kind per thread */

/* A thread's spares of one kind; blocks.c frees them when it ends, once
 * `registered` says it will. */
struct pmpi_spares {
	unsigned n;
	void *b[PMPI_BLOCKS_KEPT];
};

extern __thread struct pmpi_spares pmpi_spares[PMPI_BLOCKS] __attribute__((tls_model("initial-exec")));
extern __thread bool pmpi_spares_registered __attribute__((tls_model("initial-exec")));

/* Give back p when the thread keeps no more spares or is not registered
 * yet (it is then). */
void pmpi_block_put_slow(enum pmpi_block kind, void *p);

/* A block of size bytes, NULL when memory is short. */
static inline void *pmpi_block_get(enum pmpi_block kind, size_t size)
{
	struct pmpi_spares *s = &pmpi_spares[kind];

	return s->n ? s->b[--s->n] : malloc(size);
}

/* Give back p (NULL allowed), from pmpi_block_get of that kind on any
 * thread. */
static inline void pmpi_block_put(enum pmpi_block kind, void *p)
{
	struct pmpi_spares *s = &pmpi_spares[kind];

	if (!p)
		return;
	if (pmpi_spares_registered && s->n < PMPI_BLOCKS_KEPT)
		s->b[s->n++] = p;
	else
		pmpi_block_put_slow(kind, p);
}

#endif
