/*
 * crc32.h - CRC-32 (IEEE 802.3, the zlib/PNG polynomial) used by the profile
 * trailer to detect truncated or corrupted files.
 */
#ifndef CPPERF_CRC32_H
#define CPPERF_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC-32 over n bytes of data.  Start with crc = 0; the result of
 * one call is the crc argument of the next, so data may arrive in pieces.
 * crc32_update(0, "123456789", 9) == 0xcbf43926.  Cannot fail. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n);

#endif
