/*
 * order.h - comparison functions for qsort shared by the runtime's
 * calibrations and the MPI layer, and a binary search of records sorted
 * by a rank.  Header-only.
 */
#ifndef CPPERF_ORDER_H
#define CPPERF_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Ascending uint64_t. */
static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The index of the first of n records (stride bytes apart, ascending by
 * the int64_t at offset in each) whose key is at least key; n when none
 * is.  A binary search; cannot fail. */
static inline size_t order_lower_i64(const void *base, size_t n, size_t stride, size_t offset,
				     int64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t k;

		memcpy(&k, (const char *)base + mid * stride + offset, sizeof(k));
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
