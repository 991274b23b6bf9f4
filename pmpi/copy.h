/*
 * copy.h - the copies of a few bytes that every message and collective
 * makes (a small message's data behind its header and out of it, the
 * data beside a collective's piggyback, the piggyback itself), and the
 * clearing of a collective's state: a call of the C library's memcpy
 * costs some 15 instructions where the common sizes need a few moves.
 */
#ifndef CPPERF_PMPI_COPY_H
#define CPPERF_PMPI_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* n bytes: from 4 to 16 with two fixed-size moves each way, which may
 * overlap; other lengths with memcpy. */
static inline void pmpi_copy(void *to, const void *from, size_t n)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	if (n >= 8 && n <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else {
		memcpy(d, s, n);
	}
}

/* 16 bytes anywhere, moved as one. */
typedef unsigned char pmpi_copy_block __attribute__((vector_size(16), aligned(1), may_alias));

/* n bytes, a constant of the caller's, in 16-byte moves, the last one
 * overlapping the one before (n under 16: pmpi_copy's moves): a memcpy
 * of a constant length that the compiler lays out for size (as it may
 * in a wrapper that inlines its whole call) is `rep movs`, which takes
 * tens of cycles to start. */
static inline void pmpi_copy_fixed(void *to, const void *from, size_t n)
{
	unsigned char *d = to;
	const unsigned char *s = from;
	size_t i;

	if (n < 16) {
		pmpi_copy(d, s, n);
		return;
	}
#pragma GCC unroll 16
	for (i = 0; i + 16 <= n; i += 16)
		*(pmpi_copy_block *)(void *)(d + i) = *(const pmpi_copy_block *)(const void *)(s + i);
	if (i < n)
		*(pmpi_copy_block *)(void *)(d + n - 16) =
			*(const pmpi_copy_block *)(const void *)(s + n - 16);
}

/* n bytes at to, a constant of the caller's, zeroed in 16-byte stores,
 * for the same reason (`rep stos`). */
static inline void pmpi_zero_fixed(void *to, size_t n)
{
	unsigned char *d = to;
	size_t i;

	if (n < 16) {
		memset(d, 0, n);
		return;
	}
#pragma GCC unroll 16
	for (i = 0; i + 16 <= n; i += 16)
		*(pmpi_copy_block *)(void *)(d + i) = (pmpi_copy_block){ 0 };
	if (i < n)
		*(pmpi_copy_block *)(void *)(d + n - 16) = (pmpi_copy_block){ 0 };
}

/* n bytes, mostly `usual`, a constant of the caller's: then copied with
 * fixed moves, else with memcpy. */
static inline void pmpi_copy_mostly(void *to, const void *from, size_t n, size_t usual)
{
	if (n == usual)
		pmpi_copy_fixed(to, from, usual);
	else
		memcpy(to, from, n);
}

#endif
