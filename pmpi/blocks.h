/*
 * blocks.h - a thread's spare blocks of a few fixed sizes (blocks.c):
 * what a request in flight holds (its entry in the request table, a small
 * message's header and data) is given back and taken again without the
 * allocator, whose malloc and free cost some 130 instructions a pair, four
 * pairs a round of a non-blocking exchange.
 */
#ifndef CPPERF_PMPI_BLOCKS_H
#define CPPERF_PMPI_BLOCKS_H

#include <stddef.h>

/* The kinds of block; each is always asked with the same size. */
enum pmpi_block { PMPI_BLOCK_REQUEST, PMPI_BLOCK_MESSAGE, PMPI_BLOCKS };

/* A block of size bytes, NULL when memory is short. */
void *pmpi_block_get(enum pmpi_block kind, size_t size);
/* Give back p (NULL allowed), from pmpi_block_get of that kind on any
 * thread. */
void pmpi_block_put(enum pmpi_block kind, void *p);

#endif
