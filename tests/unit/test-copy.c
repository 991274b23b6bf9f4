/*
 * test-copy.c - unit tests of the MPI layer's small copies and clearing
 * (pmpi/copy.h): every length from 0 to 130 bytes, at every alignment of
 * source and destination within 16 bytes, copies exactly its bytes and
 * clears exactly its bytes, the bytes around untouched; the lengths the
 * piggyback uses, as constants, the same.
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "../../pmpi/copy.h"
#include "../../pmpi/pb.h"

#define MAXN 130
#define AROUND 32

static unsigned char src[AROUND + 16 + MAXN + AROUND];
static unsigned char dst[AROUND + 16 + MAXN + AROUND];

static void fill(void)
{
	for (size_t i = 0; i < sizeof(src); i++) {
		src[i] = (unsigned char)(i * 7 + 1);
		dst[i] = 0xa5;
	}
}

/* Whether dst holds src's n bytes at [AROUND + to, + n) and 0xa5 around
 * (from: where in src they came from), or, clear, zeros there. */
static int exact(size_t to, size_t from, size_t n, int clear)
{
	for (size_t i = 0; i < sizeof(dst); i++) {
		int in = i >= AROUND + to && i < AROUND + to + n;
		unsigned char want = !in ? 0xa5 : clear ? 0 : src[AROUND + from + (i - AROUND - to)];

		if (dst[i] != want)
			return 0;
	}
	return 1;
}

/* fn over every length and alignment; how many went wrong. */
static int sweep(const char *name, void (*fn)(size_t to, size_t from, size_t n), int clear)
{
	int bad = 0;

	for (size_t n = 0; n <= MAXN; n++)
		for (size_t to = 0; to < 16; to++)
			for (size_t from = 0; from < 16; from += 5) {
				fill();
				fn(to, from, n);
				if (!exact(to, from, n, clear) && bad++ < 3)
					printf("# %s: %zu bytes from +%zu to +%zu wrong\n", name, n,
					       from, to);
			}
	return bad;
}

static void by_copy(size_t to, size_t from, size_t n)
{
	pmpi_copy(dst + AROUND + to, src + AROUND + from, n);
}

static void by_fixed(size_t to, size_t from, size_t n)
{
	pmpi_copy_fixed(dst + AROUND + to, src + AROUND + from, n);
}

static void by_zero(size_t to, size_t from, size_t n)
{
	(void)from;
	pmpi_zero_fixed(dst + AROUND + to, n);
}

/* pmpi_copy_mostly with the piggyback's core as the usual length: both ways */
static void by_mostly(size_t to, size_t from, size_t n)
{
	pmpi_copy_mostly(dst + AROUND + to, src + AROUND + from, n, PMPI_PB_CORE);
}

/* The piggyback's lengths as the callers give them: constants, which the
 * copies lay out as straight moves. */
static void test_constants(void)
{
	fill();
	pmpi_copy_fixed(dst + AROUND + 3, src + AROUND, PMPI_PB_CORE);
	ok(exact(3, 0, PMPI_PB_CORE, 0), "the core's bytes, a constant: copied exactly");
	fill();
	pmpi_copy_fixed(dst + AROUND + 3, src + AROUND, 104);
	ok(exact(3, 0, 104, 0), "104 bytes, a constant: copied exactly");
	fill();
	pmpi_copy_fixed(dst + AROUND + 1, src + AROUND + 2, 40);
	ok(exact(1, 2, 40, 0), "40 bytes, a constant: copied exactly");
	fill();
	pmpi_copy_fixed(dst + AROUND, src + AROUND, 9);
	ok(exact(0, 0, 9, 0), "9 bytes, a constant under 16: copied exactly");
	fill();
	pmpi_zero_fixed(dst + AROUND + 5, 104);
	ok(exact(5, 0, 104, 1), "104 bytes, a constant: cleared exactly");
	fill();
	pmpi_zero_fixed(dst + AROUND + 7, 17);
	ok(exact(7, 0, 17, 1), "17 bytes, a constant: cleared exactly");
}

int main(void)
{
	is_int(sweep("pmpi_copy", by_copy, 0), 0, "pmpi_copy: every length and alignment exact");
	is_int(sweep("pmpi_copy_fixed", by_fixed, 0), 0,
	       "pmpi_copy_fixed: every length and alignment exact");
	is_int(sweep("pmpi_zero_fixed", by_zero, 1), 0,
	       "pmpi_zero_fixed: every length and alignment cleared exactly");
	is_int(sweep("pmpi_copy_mostly", by_mostly, 0), 0,
	       "pmpi_copy_mostly: the usual length and the others exact");
	test_constants();
	return tap_done();
}
