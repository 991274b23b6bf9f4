/*
 * hash.h - small non-cryptographic hash functions shared by the interning
 * tables (cct.c, symtab.c).  Header-only: every function is static inline,
 * has no state and cannot fail.
 */
#ifndef CPPERF_HASH_H
#define CPPERF_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HASH_SEED UINT64_C(0xcbf29ce484222325)

/* Mix a 64-bit value into a well-spread 64-bit hash (splitmix64 finaliser). */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* Continue an FNV-1a hash h over n bytes; start with HASH_SEED. */
static inline uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* FNV-1a of a string. */
static inline uint64_t hash_str(const char *s)
{
	return hash_bytes(HASH_SEED, s, strlen(s));
}

#endif
