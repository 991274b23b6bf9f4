/*
 * cp-links.c - the critical path's links as varint deltas in chunks
 * (cp-links.h).
 *
 * A record is zigzag(event - last.event), zigzag(rank - last.rank),
 * zigzag(from - last.from), each an LEB128 varint: a ping-pong's links
 * differ from the previous by small steps, so a record is three bytes.
 * A record never spans two chunks, so the latest one can be rewritten in
 * place of itself.  A chunk's first record is relative to the chunk's
 * base, the link before it, so that chunks decode on their own and the
 * oldest can be freed.  With a limit, a chunk holds at most a quarter of
 * it, so that dropping whole chunks keeps the log near its limit.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/varint.h"
#include "cp-links.h"

#define CPL_CHUNK 65536u	/* bytes of records per chunk */
#define CPL_RECORD (3 * VARINT_MAX)	/* the longest record */

struct cpl_chunk {
	struct cpl_chunk *next;
	uint32_t used, size;		/* bytes of b written; allocated */
	uint64_t count, bytes;		/* links it holds, their lines' bytes */
	struct prof_cp_link base;	/* the link before its first */
	unsigned char b[];
};

static const uint64_t pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/* Decimal digits of v, from its bit length: every message the path takes
 * counts three numbers, where a loop of divisions by ten took about
 * 30 cycles a number.  v | 1 has the digits of v (a power of ten is even)
 * and makes 0 one digit. */
static unsigned digits(uint64_t v)
{
	unsigned t;

	v |= 1;
	t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;	/* log10(2) ~ 1233/4096 */
	return t + (v >= pow10[t]);
}

static unsigned line_bytes(unsigned event, bool negative, unsigned rank, unsigned from)
{
	return (unsigned)(sizeof("cp_link   \n") - 1) + event + negative + rank + from;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

unsigned cpl_line_bytes(uint64_t event, int64_t rank, uint64_t from)
{
	return line_bytes(digits(event), rank < 0, digits(magnitude(rank)), digits(from));
}

/* The digits of v, remembered in m with the values that have as many. */
__attribute__((noinline))
static unsigned digits_anew(struct cpl_digits *m, uint64_t v)
{
	unsigned n = digits(v);

	m->lo = n > 1 ? pow10[n - 1] : 0;
	m->span = n < 20 ? pow10[n] - m->lo : 0 - m->lo;	/* up to 2^64 */
	m->n = n;
	return n;
}

/* The same, from m while v has as many as the last value: a link's
 * numbers change by small steps from the last one's, and the test of the
 * range costs less than the count. */
static inline unsigned digits_near(struct cpl_digits *m, uint64_t v)
{
	return v - m->lo < m->span ? m->n : digits_anew(m, v);
}

/* Lines a chunk may hold, in bytes: a quarter of the limit, so that
 * dropping a chunk frees a quarter at most. */
static uint64_t chunk_lines(const struct cp_links *l)
{
	return !l->max ? UINT64_MAX : l->max / 4 ? l->max / 4 : 1;
}

/* Bytes of records a chunk gets: a line is longer than its record. */
static uint32_t chunk_size(const struct cp_links *l)
{
	uint64_t n = chunk_lines(l);

	return n >= CPL_CHUNK ? CPL_CHUNK : n < CPL_RECORD ? CPL_RECORD : (uint32_t)n;
}

/* The chunk with room for a record whose line takes line bytes: tail, or
 * a new one based on the latest link. */
static struct cpl_chunk *room(struct cp_links *l, unsigned line)
{
	struct cpl_chunk *c;
	uint32_t size;

	if (l->tail && l->tail->used + CPL_RECORD <= l->tail->size &&
	    (!l->tail->count || l->tail->bytes + line <= chunk_lines(l)))
		return l->tail;
	size = chunk_size(l);
	if (!(c = malloc(sizeof(*c) + size)))
		return NULL;
	*c = (struct cpl_chunk){ .size = size, .base = l->last };
	if (l->tail)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
	return c;
}

/* Past the limit: free the oldest chunks but the latest while three
 * quarters of it stay held; the cut follows the last link freed.  Chunks
 * hold a quarter at most, so what stays is within the limit. */
static void drop_oldest(struct cp_links *l)
{
	while (l->head != l->tail && l->bytes - l->head->bytes >= l->max - l->max / 4) {
		struct cpl_chunk *c = l->head;

		l->head = c->next;
		l->n -= c->count;
		l->bytes -= c->bytes;
		l->cut = l->head->base.event + 1;
		free(c);
	}
}

void cpl_set(struct cp_links *l, uint64_t event, int64_t rank, uint64_t from)
{
	struct cpl_chunk *c;
	unsigned char *p;
	unsigned line;

	if (l->n && l->last.event == event && l->tail->count) {	/* the same event: rewrite it */
		l->tail->used = l->last_at;
		l->tail->count--;
		l->tail->bytes -= l->last_bytes;
		l->bytes -= l->last_bytes;
		l->last = l->base;
		l->n--;
	}
	line = line_bytes(digits_near(&l->digits[0], event), rank < 0,
			  digits_near(&l->digits[1], magnitude(rank)), digits_near(&l->digits[2], from));
	if (!(c = room(l, line))) {
		l->lost++;
		return;
	}
	p = c->b + c->used;
	l->last_at = c->used;
	p += varint_put(p, varint_zigzag(event, l->last.event));
	p += varint_put(p, varint_zigzag((uint64_t)rank, (uint64_t)l->last.rank));
	p += varint_put(p, varint_zigzag(from, l->last.from));
	c->used = (uint32_t)(p - c->b);
	l->last_bytes = line;
	c->count++;
	c->bytes += l->last_bytes;
	l->base = l->last;
	l->last = (struct prof_cp_link){ event, rank, from };
	l->n++;
	l->bytes += l->last_bytes;
	if (l->max && l->bytes > l->max)
		drop_oldest(l);
}

int cpl_decode(const struct cp_links *l, struct prof_cp_link **out, uint32_t *n)
{
	struct prof_cp_link at, *v;
	uint32_t k = 0;

	*out = NULL;
	*n = 0;
	if (!l->n)
		return 0;
	if (l->n > UINT32_MAX || !(v = malloc((size_t)l->n * sizeof(*v))))
		return -1;
	for (const struct cpl_chunk *c = l->head; c; c = c->next) {
		const unsigned char *p = c->b, *end = c->b + c->used;

		at = c->base;
		while (p < end && k < l->n) {
			uint64_t d[3];
			unsigned used;

			for (int i = 0; i < 3; i++, p += used)
				if (!(used = varint_get(p, end, &d[i]))) {
					free(v);
					return -1;	/* cannot happen: we wrote it */
				}
			at.event = varint_unzigzag(d[0], at.event);
			at.rank = (int64_t)varint_unzigzag(d[1], (uint64_t)at.rank);
			at.from = varint_unzigzag(d[2], at.from);
			v[k++] = at;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

uint64_t cpl_bytes(const struct cp_links *l)
{
	uint64_t b = 0;

	for (const struct cpl_chunk *c = l->head; c; c = c->next)
		b += c->used;
	return b;
}

void cpl_free(struct cp_links *l)
{
	for (struct cpl_chunk *c = l->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(l, 0, sizeof(*l));
}
