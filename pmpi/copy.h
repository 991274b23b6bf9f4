/*
 * copy.h - the copies of a few bytes that every message and collective
 * makes (a small message's data behind its header and out of it, the
 * data beside a collective's piggyback): a call of the C library's memcpy
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

/* n bytes, mostly `usual`, a constant of the caller's: then copied with
 * the moves the compiler lays out for it, else with memcpy. */
static inline void pmpi_copy_mostly(void *to, const void *from, size_t n, size_t usual)
{
	if (n == usual)
		memcpy(to, from, usual);
	else
		memcpy(to, from, n);
}

#endif
