/*
 * pctenc.h - percent-encoding of strings into single whitespace-free tokens,
 * as used by the profile format (docs/format.md): a byte is written as is
 * when it is printable ASCII other than '%' and space (0x21..0x7e), and as
 * %XX with two uppercase hex digits otherwise.  The empty string is the
 * token "-", so the one-character string "-" is written "%2D".
 */
#ifndef CPPERF_PCTENC_H
#define CPPERF_PCTENC_H

#include <stddef.h>

/* Nonzero when byte c may appear unescaped inside a token. */
static inline int pct_plain(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '%';
}

/* Encode one byte that is not pct_plain() into out[0..2] ("%XX"). */
void pct_escape(unsigned char c, char out[3]);

/*
 * Decode the token s[0..n) into a new NUL-terminated string, which the
 * caller frees.  Returns NULL with *why set to a static description when the
 * token is malformed (empty, a bad or lowercase escape, an escape that was
 * not needed, an encoded NUL) or memory is short; the allocation is at most
 * n + 1 bytes.
 */
char *pct_decode(const char *s, size_t n, const char **why);

#endif
