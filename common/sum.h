/*
 * sum.h - adding 64-bit counts and amounts from files whose sums may not
 * fit: checked, for sums that the report refuses to show wrong (the
 * samples every percentage rests on), or saturating at 2^64 - 1 for the
 * others (times and bytes over a job, which a real million-rank run can
 * push past it).  docs/format.md "Sums" says which is which.
 * Header-only; nothing here can fail.
 */
#ifndef CPPERF_SUM_H
#define CPPERF_SUM_H

#include <stdbool.h>
#include <stdint.h>

/* Add v to *acc when the sum fits in 64 bits.  Returns false, *acc
 * unchanged, when it does not. */
static inline bool sum_add(uint64_t *acc, uint64_t v)
{
	if (v > UINT64_MAX - *acc)
		return false;
	*acc += v;
	return true;
}

/* a + b, or UINT64_MAX when the sum does not fit. */
static inline uint64_t sum_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

#endif
