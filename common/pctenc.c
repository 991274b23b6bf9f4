/*
 * pctenc.c - percent-encoding and strict decoding of profile string tokens.
 * Decoding accepts exactly the canonical encoding produced by the writer,
 * so every string has one spelling and corrupted tokens are caught.
 */
#include <stdlib.h>
#include <string.h>
#include "pctenc.h"

static const char pct_hex[] = "0123456789ABCDEF";

/* See pctenc.h. */
void pct_escape(unsigned char c, char out[3])
{
	out[0] = '%';
	out[1] = pct_hex[c >> 4];
	out[2] = pct_hex[c & 15];
}

static int pct_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode the escape at s (3 bytes available); -1 when malformed. */
static int pct_unescape(const char *s, const char **why)
{
	int hi = pct_digit(s[1]), lo = pct_digit(s[2]);

	if (hi < 0 || lo < 0) {
		*why = "bad %-escape (want %XX, uppercase hex)";
		return -1;
	}
	if (hi == 0 && lo == 0) {
		*why = "encoded NUL byte";
		return -1;
	}
	return hi << 4 | lo;
}

/* See pctenc.h. */
char *pct_decode(const char *s, size_t n, const char **why)
{
	char *out, *o;

	if (n == 0) {
		*why = "empty token";
		return NULL;
	}
	out = malloc(n + 1);
	if (!out) {
		*why = "out of memory";
		return NULL;
	}
	if (n == 1 && s[0] == '-') {
		out[0] = '\0';
		return out;
	}
	o = out;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			c = i + 2 < n ? pct_unescape(s + i, why) : -1;
			if (i + 2 >= n)
				*why = "truncated %-escape";
			if (c >= 0 && pct_plain((unsigned char)c) &&
			    !(n == 3 && c == '-')) {
				*why = "needless %-escape of a plain byte";
				c = -1;
			}
			i += 2;
		} else if (!pct_plain((unsigned char)c)) {
			*why = "unescaped byte in token";
			c = -1;
		}
		if (c < 0) {
			free(out);
			return NULL;
		}
		*o++ = (char)c;
	}
	*o = '\0';
	return out;
}
