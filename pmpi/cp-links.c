/*
 * cp-links.c - the critical path's links as varint deltas in chunks
 * (cp-links.h).
 *
 * A record is zigzag(event - last.event), zigzag(rank - last.rank),
 * zigzag(from - last.from), each an LEB128 varint: a ping-pong's links
 * differ from the previous by small steps, so a record is three bytes.
 * Links that each take the step of the record before them (the same
 * three differences) are counted instead, and written as one run record
 * when a link takes another step: a zero in two bytes (0x80 0x00, which
 * no varint is written as), then their count.  That is two compares for
 * most links of a regular program instead of three varints, and a few
 * bytes for any number of them.  Records never span two chunks, so the
 * latest one can be rewritten in place of itself; a run ends in the
 * chunk of the record it repeats.  A chunk's first record is relative to
 * the chunk's base, the link before it, so that chunks decode on their
 * own and the oldest can be freed.  With a limit, a chunk holds at most
 * a quarter of it, so that dropping whole chunks keeps the log near its
 * limit.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/varint.h"
#include "cp-links.h"

#define CPL_CHUNK 65536u	/* bytes of records per chunk */
#define CPL_RECORD (3 * VARINT_MAX)	/* the longest link record */
#define CPL_RUN (2 + VARINT_MAX)	/* the longest run record */

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

	return n >= CPL_CHUNK ? CPL_CHUNK : n < CPL_RECORD + CPL_RUN ? CPL_RECORD + CPL_RUN : (uint32_t)n;
}

/* Whether tail may count one more link whose line takes line bytes. */
static bool tail_takes(const struct cp_links *l, unsigned line)
{
	return !l->tail->count || l->tail->bytes + line <= chunk_lines(l);
}

/* The chunk with room for a record whose line takes line bytes, and for
 * the run that may follow it: tail, or a new one based on the latest
 * link. */
static struct cpl_chunk *room(struct cp_links *l, unsigned line)
{
	struct cpl_chunk *c;
	uint32_t size;

	if (l->tail && l->tail->used + CPL_RECORD + CPL_RUN <= l->tail->size && tail_takes(l, line))
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

/* A run of run links as a record at p (room for CPL_RUN bytes);
 * its bytes. */
static unsigned put_run(unsigned char *p, uint64_t run)
{
	p[0] = 0x80;
	p[1] = 0;
	return 2 + varint_put(p + 2, run);
}

/* The links counted in the run into its record in tail, which kept room
 * for it. */
static void end_run(struct cp_links *l)
{
	if (!l->run)
		return;
	l->tail->used += put_run(l->tail->b + l->tail->used, l->run);
	l->run = 0;
}

/* The latest link removed: its event won again. */
static void unset_latest(struct cp_links *l)
{
	if (l->run)
		l->run--;	/* it was counted in the run: the step stays */
	else {
		l->tail->used = l->last_at;
		l->stepping = false;	/* the step of base is not kept */
	}
	l->tail->count--;
	l->tail->bytes -= l->last_bytes;
	l->bytes -= l->last_bytes;
	l->last = l->base;
	l->n--;
}

/* The differences of link to from, wrapping. */
static struct prof_cp_link step_of(struct prof_cp_link link, struct prof_cp_link from)
{
	return (struct prof_cp_link){ link.event - from.event,
				      (int64_t)((uint64_t)link.rank - (uint64_t)from.rank),
				      link.from - from.from };
}

/* at moved on by step. */
static struct prof_cp_link step_on(struct prof_cp_link at, struct prof_cp_link step)
{
	return (struct prof_cp_link){ at.event + step.event,
				      (int64_t)((uint64_t)at.rank + (uint64_t)step.rank),
				      at.from + step.from };
}

static bool same_step(struct prof_cp_link a, struct prof_cp_link b)
{
	return a.event == b.event && a.rank == b.rank && a.from == b.from;
}

/* Write link as a record (after the run before it), in tail or a new
 * chunk; NULL when memory is short. */
static struct cpl_chunk *put_record(struct cp_links *l, struct prof_cp_link link, unsigned line)
{
	struct cpl_chunk *c;
	unsigned char *p;

	end_run(l);
	if (!(c = room(l, line)))
		return NULL;
	p = c->b + c->used;
	l->last_at = c->used;
	p += varint_put(p, varint_zigzag(link.event, l->last.event));
	p += varint_put(p, varint_zigzag((uint64_t)link.rank, (uint64_t)l->last.rank));
	p += varint_put(p, varint_zigzag(link.from, l->last.from));
	c->used = (uint32_t)(p - c->b);
	l->step = step_of(link, l->last);
	l->stepping = true;
	return c;
}

/* Whether one more link whose line takes line bytes keeps the log
 * within its limit. */
static bool within_max(const struct cp_links *l, unsigned line)
{
	return !l->max || l->bytes + line <= l->max;
}

/* Link, whose line takes line bytes, counted in chunk c as the latest. */
static inline void count_link(struct cp_links *l, struct cpl_chunk *c, struct prof_cp_link link,
			      unsigned line)
{
	l->last_bytes = line;
	c->count++;
	c->bytes += line;
	l->base = l->last;
	l->last = link;
	l->n++;
	l->bytes += line;
}

/* Further steps of step from v that keep as many digits as d holds for
 * v (the values lo to lo + span - 1; span 0: none are known). */
static uint64_t steps_within(const struct cpl_digits *d, uint64_t v, uint64_t step)
{
	if (v - d->lo >= d->span)
		return 0;
	if (!step)
		return UINT64_MAX;
	return (int64_t)step > 0 ? (d->lo + d->span - 1 - v) / step : (v - d->lo) / (0 - step);
}

/* Lines of line bytes that fit from used up to max. */
static uint64_t lines_within(uint64_t max, uint64_t used, unsigned line)
{
	return used < max ? (max - used) / line : 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * How many links from here on may each be counted in the run with only
 * the test of their step: while each takes the latest record's step from
 * the same rank, their numbers have as many digits as the latest link's
 * (so their lines are as long), and the tail and the limit have room for
 * them: what the tests would find link by link, worked out at once.
 */
static uint64_t run_room(const struct cp_links *l)
{
	uint64_t k;

	if (!l->stepping || l->step.rank || !l->step.event || !l->tail)
		return 0;
	k = min_u64(steps_within(&l->digits[0], l->last.event, l->step.event),
		    steps_within(&l->digits[2], l->last.from, l->step.from));
	k = min_u64(k, lines_within(chunk_lines(l), l->tail->bytes, l->last_bytes));
	return l->max ? min_u64(k, lines_within(l->max, l->bytes, l->last_bytes)) : k;
}

/*
 * A link that takes the latest record's step again, while the run has
 * room for it (run_room): counted in the run.  Most links of a regular
 * program come this way, every message the path takes: three compares
 * and a few adds, no digits counted, nothing written, the base left to
 * work out (ahead) if the link is rewritten.
 */
static inline bool run_on(struct cp_links *l, struct prof_cp_link link)
{
	if (!l->room || !same_step(step_of(link, l->last), l->step))
		return false;
	l->room--;
	l->run++;
	l->ahead = true;
	l->tail->count++;
	l->tail->bytes += l->last_bytes;
	l->n++;
	l->bytes += l->last_bytes;
	l->last = link;
	return true;
}

/* The latest link's base, where run_on left it to work out: a step
 * back from it. */
static void catch_up(struct cp_links *l)
{
	if (l->ahead) {
		l->base = step_of(l->last, l->step);
		l->ahead = false;
	}
}

/* A link that does not only extend the run: a rewrite, a new record, a
 * new chunk, a cut.  Out of line, so that the run's links need none of
 * its registers. */
__attribute__((noinline))
static void set_anew(struct cp_links *l, struct prof_cp_link link)
{
	struct cpl_chunk *c;
	unsigned line;
	bool again = false;

	catch_up(l);
	l->room = 0;
	if (l->n && l->last.event == link.event && l->tail->count)	/* the same event: rewrite it */
		unset_latest(l);
	line = line_bytes(digits_near(&l->digits[0], link.event), link.rank < 0,
			  digits_near(&l->digits[1], magnitude(link.rank)),
			  digits_near(&l->digits[2], link.from));
	if (l->stepping && same_step(step_of(link, l->last), l->step) && tail_takes(l, line)) {
		l->run++;
		c = l->tail;
		again = true;
	} else if (!(c = put_record(l, link, line))) {
		l->lost++;
		return;
	}
	count_link(l, c, link, line);
	if (!within_max(l, 0))
		drop_oldest(l);
	/* once the step is taken twice again: links whose step changes
	 * every link or two (a collective's winners) spare its divisions */
	if (again && l->run >= 2)
		l->room = run_room(l);
}

void cpl_set(struct cp_links *l, uint64_t event, int64_t rank, uint64_t from)
{
	struct prof_cp_link link = { event, rank, from };

	if (!run_on(l, link))
		set_anew(l, link);
}

/* Whether p starts a run record. */
static bool run_at(const unsigned char *p, const unsigned char *end)
{
	return end - p >= 2 && p[0] == 0x80 && p[1] == 0;
}

/* The records of [p, end) into v from v[*k] on, n links in all at most,
 * from link *at with step *step, both carried on to the next records;
 * false when one does not read (a chunk's cannot: we wrote it). */
static bool decode_records(const unsigned char *p, const unsigned char *end,
			   struct prof_cp_link *at, struct prof_cp_link *step,
			   struct prof_cp_link *v, uint64_t n, uint64_t *k)
{
	while (p < end && *k < n) {
		struct prof_cp_link before;
		uint64_t d[3];
		unsigned used;

		if (run_at(p, end)) {
			if (!(used = varint_get(p + 2, end, &d[0])))
				return false;
			p += 2 + used;
			for (uint64_t r = 0; r < d[0] && *k < n; r++)
				v[(*k)++] = *at = step_on(*at, *step);
			continue;
		}
		for (int i = 0; i < 3; i++, p += used)
			if (!(used = varint_get(p, end, &d[i])))
				return false;
		before = *at;
		at->event = varint_unzigzag(d[0], at->event);
		at->rank = (int64_t)varint_unzigzag(d[1], (uint64_t)at->rank);
		at->from = varint_unzigzag(d[2], at->from);
		*step = step_of(*at, before);
		v[(*k)++] = *at;
	}
	return true;
}

int cpl_decode(const struct cp_links *l, struct prof_cp_link **out, uint32_t *n)
{
	struct prof_cp_link at = { 0 }, step = { 0 }, *v;
	uint64_t k = 0;

	*out = NULL;
	*n = 0;
	if (!l->n)
		return 0;
	if (l->n > UINT32_MAX || !(v = malloc((size_t)l->n * sizeof(*v))))
		return -1;
	for (const struct cpl_chunk *c = l->head; c; c = c->next) {
		at = c->base;
		if (!decode_records(c->b, c->b + c->used, &at, &step, v, l->n, &k)) {
			free(v);
			return -1;
		}
	}
	for (uint64_t r = 0; r < l->run && k < l->n; r++)	/* the run not written yet */
		v[k++] = at = step_on(at, l->step);
	*out = v;
	*n = (uint32_t)k;
	return 0;
}

/*
 * The stream: every chunk's records in order, then the run not written
 * yet.  A chunk's base is the last link of the chunk before it (it was
 * the latest link when the chunk began, and a run ends in the chunk of
 * the record it repeats), so the records read on from one chunk into the
 * next, and a run at the end repeats the step of the last record.
 */
size_t cpl_stream_len(const struct cp_links *l)
{
	size_t len = l->run ? 2 + varint_len(l->run) : 0;

	for (const struct cpl_chunk *c = l->head; c; c = c->next)
		len += c->used;
	return len;
}

struct prof_cp_link cpl_stream_put(const struct cp_links *l, unsigned char *out)
{
	for (const struct cpl_chunk *c = l->head; c; c = c->next) {
		memcpy(out, c->b, c->used);
		out += c->used;
	}
	if (l->run)
		put_run(out, l->run);
	return l->head ? l->head->base : (struct prof_cp_link){ 0 };
}

int cpl_stream_decode(const unsigned char *p, const unsigned char *end, struct prof_cp_link base,
		      uint64_t n, struct prof_cp_link *v)
{
	struct prof_cp_link step = { 0 };
	uint64_t k = 0;

	return decode_records(p, end, &base, &step, v, n, &k) && k == n ? 0 : -1;
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
