/*
 * crc32.c - CRC-32 of the profile trailer, by zlib's crc32_z: zlib is on
 * every host that has libdw (which needs it), and its table-driven code
 * runs several times faster than a byte loop, which mattered once reading
 * many profiles was bound by their checksums.
 */
#include <zlib.h>

#include "crc32.h"

/* See crc32.h. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n)
{
	return (uint32_t)crc32_z(crc, data, n);
}
