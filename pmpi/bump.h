/*
 * bump.h - a counter that one thread adds to while others may read it
 * (a checkpoint, the drain thread): every read sees a whole value, old or
 * new, and no add is lost since no other thread writes.
 */
#ifndef CPPERF_PMPI_BUMP_H
#define CPPERF_PMPI_BUMP_H

#include <stdint.h>

/* On x86-64 one add to memory where a relaxed load and store take three
 * instructions, and every call adds several counters: an aligned 8-byte
 * store is seen whole, and the compiler cannot split an instruction of
 * asm into a race with the readers' atomic loads.  Elsewhere the relaxed
 * load and store. */
static inline void pmpi_bump(uint64_t *x, uint64_t v)
{
#if defined(__x86_64__)
	__asm__("addq %1, %0" : "+m"(*x) : "er"(v));
#else
	__atomic_store_n(x, *x + v, __ATOMIC_RELAXED);
#endif
}

#endif
