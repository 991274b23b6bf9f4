/*
 * idset.h - a set of record indices keyed by a hash and an equality
 * callback: the records live in the caller's array, the set only finds
 * which earlier record equals a new one.  Used to reject duplicate MPI
 * records (profile-mpi.c) and to merge MPI call sites and collectives of
 * many profiles (report/).  Adding is amortised O(1).
 */
#ifndef CPPERF_IDSET_H
#define CPPERF_IDSET_H

#include <stdbool.h>
#include <stdint.h>

struct idset {
	uint32_t *slot;		/* record index + 1, 0 when empty */
	uint64_t *hash;		/* the hash of each slot's record */
	uint32_t mask, n;
};

/* Whether records a and b of ctx are equal. */
typedef bool (*idset_eq)(const void *ctx, uint32_t a, uint32_t b);

/* Zero-initialise a set ({ 0 }) before use.  Frees what s owns and leaves
 * it empty; cannot fail. */
void idset_release(struct idset *s);

/*
 * Add record i, whose hash is h, to s.  Returns the index of a record of s
 * equal to it (eq), i when there is none (i is then in s), or UINT32_MAX
 * when memory is short (s is unchanged).
 */
uint32_t idset_add(struct idset *s, const void *ctx, uint32_t i, uint64_t h,
		   idset_eq eq);

#endif
