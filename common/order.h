/*
 * order.h - comparison functions for qsort shared by the runtime's
 * calibrations and the MPI layer.  Header-only.
 */
#ifndef CPPERF_ORDER_H
#define CPPERF_ORDER_H

#include <stdint.h>

/* Ascending uint64_t. */
static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#endif
