/*
 * profile-fields.c - the field readers that the record parsers of
 * profile-read.c, profile-read-mpi.c and profile-read-cp.c share
 * (profile-read-int.h): canonical decimals, indices, %-encoded strings,
 * counts, and errors that name the line they are on.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pctenc.h"
#include "profile-read-int.h"

/* How many lines end before buf + len. */
static size_t pr_count_lines(const char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = buf; (p = memchr(p, '\n', len - (size_t)(p - buf))); p++)
		n++;
	return n;
}

/* Record an error for the current line; returns -1. */
int pr_err(struct parser *ps, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ps->line_at)
		ps->lineno = pr_count_lines(ps->buf, (size_t)(ps->line_at - ps->buf)) + 1;
	snprintf(ps->err, ps->errlen, "line %zu: %s", ps->lineno, msg);
	return -1;
}

/* Take the next space-separated field of c into *tok and *n. */
int pr_field(struct parser *ps, struct cursor *c, const char *what,
		    const char **tok, size_t *n)
{
	const char *e;

	if (c->p >= c->end)
		return pr_err(ps, "missing field: %s", what);
	if (*c->p == ' ')
		return pr_err(ps, "empty field before %s (two spaces?)", what);
	for (e = c->p; e < c->end && *e != ' '; e++)	/* fields are short: no call */
		;
	*tok = c->p;
	*n = (size_t)(e - c->p);
	c->p = e;
	if (c->p < c->end && ++c->p == c->end)
		return pr_err(ps, "trailing space after %s", what);
	return 0;
}

int pr_done(struct parser *ps, const struct cursor *c)
{
	if (c->p < c->end)
		return pr_err(ps, "unexpected extra field '%.*s'",
			      (int)(c->end - c->p > 40 ? 40 : c->end - c->p), c->p);
	return 0;
}

/* Parse a canonical decimal (no sign, no leading zero) into *v. */
int pr_digits(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (n == 0 || n > 20 || (n > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return -1;
		if (i < 19)	/* 19 digits always fit */
			x = x * 10 + d;
		else if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, d, &x))
			return -1;
	}
	*v = x;
	return 0;
}

int pr_u64(struct parser *ps, struct cursor *c, const char *what, uint64_t *v)
{
	const char *s;
	size_t n;

	if (pr_field(ps, c, what, &s, &n))
		return -1;
	if (pr_digits(s, n, v))
		return pr_err(ps, "%s: '%.*s' is not an unsigned decimal number",
			      what, (int)(n > 40 ? 40 : n), s);
	return 0;
}

int pr_i64(struct parser *ps, struct cursor *c, const char *what, int64_t *v)
{
	const char *s;
	size_t n;
	uint64_t u;
	int neg;

	if (pr_field(ps, c, what, &s, &n))
		return -1;
	neg = s[0] == '-';
	if (pr_digits(s + neg, n - (size_t)neg, &u) || (neg && u == 0) ||
	    u > (uint64_t)INT64_MAX + (uint64_t)neg)
		return pr_err(ps, "%s: '%.*s' is not a decimal integer",
			      what, (int)(n > 40 ? 40 : n), s);
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* Read an index that must be below limit. */
int pr_index(struct parser *ps, struct cursor *c, const char *what,
		    uint64_t limit, uint32_t *v)
{
	uint64_t u;

	if (pr_u64(ps, c, what, &u))
		return -1;
	if (u >= limit)
		return pr_err(ps, "%s %" PRIu64 " out of range (must be below %" PRIu64 ")",
			      what, u, limit);
	*v = (uint32_t)u;
	return 0;
}

/* Read an index that must equal want (records carry their own index). */
int pr_seq(struct parser *ps, struct cursor *c, const char *what, uint32_t want)
{
	uint64_t u;

	if (pr_u64(ps, c, what, &u))
		return -1;
	if (u != want)
		return pr_err(ps, "%s index %" PRIu64 ", expected %" PRIu32, what, u, want);
	return 0;
}

int pr_str(struct parser *ps, struct cursor *c, const char *what, char **out)
{
	const char *s, *why = NULL;
	size_t n;

	if (pr_field(ps, c, what, &s, &n))
		return -1;
	*out = pct_decode(s, n, &why);
	if (!*out)
		return pr_err(ps, "%s: %s", what, why);
	return 0;
}

/* Read exactly n counts into dst, then the end of the line. */
int pr_counts(struct parser *ps, struct cursor *c, uint64_t *dst, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (pr_u64(ps, c, "count", &dst[i]))
			return -1;
	if (c->p < c->end)
		return pr_err(ps, "more counts than the %" PRIu32 " events", n);
	return 0;
}

/* Make room for one more element of size elem in *array.  The count of
 * elements is bounded by the number of lines, so growth is input-bounded. */
int pr_grow(struct parser *ps, void **array, uint32_t count,
		   uint32_t *alloc, size_t elem)
{
	uint32_t n;
	void *a;

	if (count < *alloc)
		return 0;
	if (*alloc > UINT32_MAX / 4)
		return pr_err(ps, "more than %" PRIu32 " records of one kind, the reader's limit",
			      *alloc);
	n = *alloc ? *alloc * 2 : 8;
	a = realloc(*array, (size_t)n * elem);
	if (!a)
		return pr_err(ps, "out of memory");
	*array = a;
	*alloc = n;
	return 0;
}

/* See profile-read-int.h. */
int pr_since(struct parser *ps, const char *key, int version)
{
	if (ps->version >= (uint64_t)version)
		return 0;
	return pr_err(ps, "'%s' record in a version %" PRIu64 " profile (it came with version %d)",
		      key, ps->version, version);
}
