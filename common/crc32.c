/*
 * crc32.c - CRC-32 (reflected polynomial 0xedb88320, as in zlib) computed a
 * nibble at a time from a 16-entry constant table: small, no start-up
 * initialisation and no mutable state, so it is safe from any thread.
 */
#include "crc32.h"

static const uint32_t crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

/* See crc32.h. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;

	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ crc32_nibble[crc & 15];
		crc = (crc >> 4) ^ crc32_nibble[crc & 15];
	}
	return ~crc;
}
