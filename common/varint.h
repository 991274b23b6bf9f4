/*
 * varint.h - the difference coding that the critical path's links use in
 * memory, in the runtime (pmpi/cp-links.c) and in the report
 * (common/link-pack.c): a difference as a zigzag number, so that small
 * steps either way are small, written as an LEB128 varint.
 */
#ifndef CPPERF_VARINT_H
#define CPPERF_VARINT_H

#include <stdint.h>

#define VARINT_MAX 10u	/* bytes of the longest varint */

/* a - b as a zigzag number (wrapping: any two values). */
static inline uint64_t varint_zigzag(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

/* base plus the difference z. */
static inline uint64_t varint_unzigzag(uint64_t z, uint64_t base)
{
	return base + ((z >> 1) ^ (0 - (z & 1)));
}

/* Bytes varint_put writes for v. */
static inline unsigned varint_len(uint64_t v)
{
	unsigned n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

/* Write v at p; returns the bytes written. */
static inline unsigned varint_put(unsigned char *p, uint64_t v)
{
	unsigned n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* Read a varint at p, within end; returns the bytes read, 0 when it runs
 * past end or past VARINT_MAX bytes. */
static inline unsigned varint_get(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	unsigned n = 0;

	*v = 0;
	while (p + n < end && n < VARINT_MAX) {
		*v |= (uint64_t)(p[n] & 0x7f) << (7 * n);
		if (!(p[n++] & 0x80))
			return n;
	}
	return 0;
}

#endif
