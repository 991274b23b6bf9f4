/*
 * test-cp-links.c - unit tests of the critical path's link log
 * (pmpi/cp-links.c): an empty log, a ping-pong's links over many chunks
 * and their size, a ping-pong whose pattern links missing break, a link replaced by a later winner of the same event
 * (across chunk boundaries too), values whose differences need the
 * widest varints or go backwards, runs of links that take one step again
 * (with winners replaced inside and at the end of a run, with and without
 * a limit), and a limit: the latest links kept, the cut after the last
 * dropped; wherever the links are checked, their stream (a fold point's
 * message) reads as them too.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "../../pmpi/cp-links.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int same_links(const struct prof_cp_link *a, const struct prof_cp_link *b, uint32_t n)
{
	int same = 1;

	for (uint32_t i = 0; i < n; i++)
		same &= a[i].event == b[i].event && a[i].rank == b[i].rank && a[i].from == b[i].from;
	return same;
}

/* Whether l's stream reads as the n links of want, and holds no more. */
static int stream_holds(const struct cp_links *l, const struct prof_cp_link *want, uint32_t n)
{
	size_t len = cpl_stream_len(l);
	unsigned char *b = malloc(len + 1);
	struct prof_cp_link *v = malloc(((size_t)n + 1) * sizeof(*v)), base;
	int same;

	if (!b || !v)
		abort();
	base = cpl_stream_put(l, b);
	same = !cpl_stream_decode(b, b + len, base, n, v) && same_links(v, want, n) &&
	       cpl_stream_decode(b, b + len, base, (uint64_t)n + 1, v) < 0;
	free(b);
	free(v);
	return same;
}

/* Whether l decodes to the n links of want, and its stream too. */
static int holds(const struct cp_links *l, const struct prof_cp_link *want, uint32_t n)
{
	struct prof_cp_link *got;
	uint32_t k;
	int same;

	if (cpl_decode(l, &got, &k) || k != n)
		return 0;
	same = same_links(got, want, n);
	free(got);
	return same && stream_holds(l, want, n);
}

static void test_empty(void)
{
	struct cp_links l = { 0 };
	struct prof_cp_link *v = (void *)&l;
	uint32_t n = 7;

	is_int(cpl_decode(&l, &v, &n), 0, "an empty log decodes");
	ok(!v && !n, "to no links");
	cpl_free(&l);
}

static void test_ping_pong(void)
{
	enum { N = 200000 };
	struct prof_cp_link *want = malloc(N * sizeof(*want));
	struct cp_links l = { 0 };

	for (uint32_t i = 0; i < N; i++) {
		want[i] = (struct prof_cp_link){ 2 * i + 3, 1, 2 * i + 2 };
		cpl_set(&l, want[i].event, want[i].rank, want[i].from);
	}
	is_int(l.n, N, "every link is held");
	ok(holds(&l, want, N), "a ping-pong's links come back in order");
	ok(cpl_bytes(&l) < 64, "one record and one run: a few bytes for them all");
	is_int(l.lost, 0, "none lost");
	cpl_free(&l);
	ok(!l.head && !l.n, "freed and empty");
	free(want);
}

/* A ping-pong whose receive now and then finds its message there (no
 * link for that event): every link comes back, the links between the
 * breaks in runs. */
static void test_broken_pattern(void)
{
	enum { N = 20000 };
	struct prof_cp_link *want = malloc(N * sizeof(*want));
	struct cp_links l = { 0 };
	uint64_t e = 3, breaks = 0;

	for (uint32_t i = 0; i < N; i++) {
		bool skip = i % 7 == 3 || next() % 10 == 0;

		e += skip ? 4 : 2;
		breaks += skip;
		want[i] = (struct prof_cp_link){ e, 1, e - 1 };
		cpl_set(&l, want[i].event, want[i].rank, want[i].from);
	}
	ok(holds(&l, want, N), "a ping-pong with links missing comes back in order");
	ok(cpl_bytes(&l) < 10 * breaks, "a few bytes a break: the links between them in runs");
	cpl_free(&l);
	free(want);
}

static void test_replace(void)
{
	enum { N = 100000 };
	struct prof_cp_link *want = malloc(N * sizeof(*want));
	struct cp_links l = { 0 };

	cpl_set(&l, 5, 1, 3);
	cpl_set(&l, 5, 2, 9);
	ok(holds(&l, (struct prof_cp_link[]){ { 5, 2, 9 } }, 1), "a later winner of one event replaces it");
	cpl_set(&l, 6, 2, 10);
	ok(holds(&l, (struct prof_cp_link[]){ { 5, 2, 9 }, { 6, 2, 10 } }, 2),
	   "the next link is read against the replacement");
	cpl_free(&l);
	/* every event won twice, values of every width: some replacements
	 * begin a chunk */
	for (uint32_t i = 0; i < N; i++) {
		uint64_t e = 10 * (uint64_t)i + 1;

		cpl_set(&l, e, (int64_t)(next() % 5000), next() >> (next() % 64));
		want[i] = (struct prof_cp_link){ e, (int64_t)(next() % 5000), next() >> (next() % 64) };
		cpl_set(&l, e, want[i].rank, want[i].from);
	}
	ok(cpl_bytes(&l) > 4 * 65536, "the log spans several 64 KiB chunks");
	ok(holds(&l, want, N), "the last winner of each event is kept, over chunk boundaries");
	cpl_free(&l);
	free(want);
}

static void test_extremes(void)
{
	const struct prof_cp_link want[] = {
		{ UINT64_MAX, INT64_MAX, UINT64_MAX }, { 0, 0, 0 }, { 1ull << 63, -1, 1 },
		{ 3, INT64_MIN, UINT64_MAX - 1 }, { 2, 7, 0 },
	};
	struct cp_links l = { 0 };

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cpl_set(&l, want[i].event, want[i].rank, want[i].from);
	ok(holds(&l, want, sizeof(want) / sizeof(want[0])), "widest and backward differences come back");
	cpl_free(&l);
}

/* Bytes of the cp_link lines of n links from v. */
static uint64_t line_bytes(const struct prof_cp_link *v, uint32_t n)
{
	uint64_t b = 0;

	for (uint32_t i = 0; i < n; i++)
		b += cpl_line_bytes(v[i].event, v[i].rank, v[i].from);
	return b;
}

/* The log's bytes are its lines', whatever the digits of its numbers
 * did from one link to the next: up and down across powers of ten, to
 * both ends of each field's range. */
static void test_bytes_follow_digits(void)
{
	static const uint64_t big[] = { 0, 9, 10, 99, 100, 999999, 1000000, 1ull << 63,
					UINT64_MAX - 1, UINT64_MAX, 1, 10000000000000000000ull };
	const uint32_t n = 3000;
	struct prof_cp_link *got = NULL;
	struct cp_links l = { 0 };
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t from = i % 7 ? big[i % 12] : i * 37ull;
		int64_t rank = i % 5 == 0 ? INT64_MIN + i : (int64_t)(i % 23) - 11;

		cpl_set(&l, i + 1 < n / 2 ? i + 1 : UINT64_MAX - (n - i), rank, from);
	}
	ok(!cpl_decode(&l, &got, &k) && k == n, "every link held");
	is_int(l.bytes, line_bytes(got, k), "the log's bytes are its lines'");
	free(got);
	cpl_free(&l);
}

/* n links that take one of three steps, the same one mostly, with a
 * limit of max bytes (0: none); one event in four is won first by a
 * link that takes the last step again (a run's link, then replaced),
 * one in eight first by another.  The log against the plain array. */
static void runs_case(uint64_t max, uint32_t n)
{
	static const struct prof_cp_link steps[] = { { 2, 0, 2 }, { 2, 1, 3 }, { 2, -2, 0 } };
	struct prof_cp_link *want = malloc(n * sizeof(*want)), at = { 1, 0, 0 }, prev = steps[0];
	struct cp_links l = { .max = max };
	uint64_t most = 0;
	uint32_t first;
	char name[160];

	for (uint32_t i = 0; i < n; i++) {
		struct prof_cp_link s = steps[next() % 16 < 13 ? 0 : next() % 3];
		uint64_t e = at.event + s.event;

		if (next() % 4 == 0)
			cpl_set(&l, e, at.rank + prev.rank, at.from + prev.from);
		else if (next() % 8 == 0)
			cpl_set(&l, e, 9, next() % 1000);
		want[i] = at = (struct prof_cp_link){ e, at.rank + s.rank, at.from + s.from };
		cpl_set(&l, at.event, at.rank, at.from);
		prev = s;
		most = l.bytes > most ? l.bytes : most;
	}
	first = n - (uint32_t)l.n;
	snprintf(name, sizeof(name), "runs, limit %llu: %llu links held in %llu bytes of records",
		 (unsigned long long)max, (unsigned long long)l.n, (unsigned long long)cpl_bytes(&l));
	ok(holds(&l, want + first, (uint32_t)l.n) && (max ? first > 0 && most <= max : !first), name);
	ok(l.bytes == line_bytes(want + first, (uint32_t)l.n), "their bytes are their lines'");
	ok(cpl_bytes(&l) < 2 * l.n, "under two bytes a link (a record takes three): runs took most");
	if (max)
		ok(l.cut == want[first - 1].event + 1, "the cut follows the last link dropped");
	cpl_free(&l);
	free(want);
}

/* A limit of max bytes over n ping-pong links, each event won twice. */
static void limit_case(uint64_t max, uint32_t n)
{
	struct prof_cp_link *want = malloc(n * sizeof(*want)), *got = NULL;
	struct cp_links l = { .max = max };
	uint64_t most = 0;
	uint32_t k, first;
	char name[200];
	int goes_on;

	for (uint32_t i = 0; i < n; i++) {
		want[i] = (struct prof_cp_link){ 2 * (uint64_t)i + 3, 1, 2 * (uint64_t)i + 2 };
		cpl_set(&l, want[i].event, 0, 1);
		cpl_set(&l, want[i].event, want[i].rank, want[i].from);
		most = l.bytes > most ? l.bytes : most;
	}
	first = n - (uint32_t)l.n;
	snprintf(name, sizeof(name), "limit %llu bytes over %u links: %llu held at most, %llu in "
		 "%llu links at the end, cut %llu", (unsigned long long)max, n,
		 (unsigned long long)most, (unsigned long long)l.bytes, (unsigned long long)l.n,
		 (unsigned long long)l.cut);
	ok(most <= max && l.bytes >= max - max / 4 && first > 0, name);
	ok(l.bytes == line_bytes(want + first, (uint32_t)l.n), "the bytes are their lines'");
	ok(holds(&l, want + first, (uint32_t)l.n), "the latest links come back in order");
	ok(l.cut == want[first - 1].event + 1 && l.cut <= want[first].event,
	   "the cut follows the last link dropped");
	cpl_set(&l, 2 * (uint64_t)n + 3, 7, 8);
	goes_on = !cpl_decode(&l, &got, &k) && k >= 1 && got[k - 1].rank == 7 &&
		  got[k - 1].from == 8 && (k == 1 || got[k - 2].event == want[n - 1].event);
	ok(goes_on, "the log goes on after dropping");
	free(got);
	cpl_free(&l);
	free(want);
}

/* cpl_line_bytes against the printed line, around every power of ten. */
static bool line_bytes_match_printf(void)
{
	char line[96];
	uint64_t p = 1;

	for (int k = 0; k < 20; k++, p *= 10)
		for (int d = -1; d <= 1; d++) {
			uint64_t v = p + (uint64_t)(int64_t)d;
			int64_t r = (int64_t)(v >> 1) * (k % 2 ? -1 : 1);
			int n = snprintf(line, sizeof(line), "cp_link %" PRIu64 " %" PRId64 " %" PRIu64 "\n",
					 v, r, p - 1);

			if (cpl_line_bytes(v, r, p - 1) != (unsigned)n)
				return false;
		}
	return true;
}

static void test_limit(void)
{
	struct cp_links l = { .max = 10000 };

	is_int(cpl_line_bytes(12, 3, 456), sizeof("cp_link 12 3 456\n") - 1, "a line's bytes");
	is_int(cpl_line_bytes(UINT64_MAX, INT64_MIN, 0),
	       sizeof("cp_link 18446744073709551615 -9223372036854775808 0\n") - 1,
	       "the widest line's bytes");
	ok(line_bytes_match_printf(), "a line's bytes at every power of ten, one either side");
	for (uint64_t e = 1; e <= 60; e++)
		cpl_set(&l, e, 0, e);
	ok(l.n == 60 && l.cut == 0, "under the limit nothing is dropped and there is no cut");
	cpl_free(&l);
	limit_case(60, 10);
	limit_case(1000, 10000);
	limit_case(24000, 100000);
	limit_case(2400000, 300000);	/* chunks of 64 KiB */
}

/* Runs whose numbers cross powers of ten as they step, up and down: a
 * run's link counted without its digits must still have its line's. */
static void test_runs_cross_digits(void)
{
	static const int64_t steps[] = { 1, 7, -1, -7, -300 };

	for (unsigned s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		struct prof_cp_link *got = NULL;
		struct cp_links l = { 0 };
		uint64_t from = steps[s] > 0 ? 1 : 1000000;
		uint32_t k = 0, n = 20000;
		char name[80];

		for (uint32_t i = 0; i < n; i++, from += (uint64_t)steps[s])
			cpl_set(&l, 3 * (uint64_t)i + 1, 4, from);
		snprintf(name, sizeof(name), "a run of step %lld: the bytes are its lines'",
			 (long long)steps[s]);
		ok(!cpl_decode(&l, &got, &k) && k == n && l.bytes == line_bytes(got, k), name);
		ok(got && got[n - 1].from == from - (uint64_t)steps[s] && cpl_bytes(&l) < 64,
		   "and it comes back, one record and a run or two");
		free(got);
		cpl_free(&l);
	}
}

static void test_runs(void)
{
	runs_case(0, 300000);
	runs_case(1000, 20000);
	runs_case(2400000, 300000);
}

int main(void)
{
	test_empty();
	test_ping_pong();
	test_broken_pattern();
	test_replace();
	test_extremes();
	test_bytes_follow_digits();
	test_limit();
	test_runs_cross_digits();
	test_runs();
	return tap_done();
}
