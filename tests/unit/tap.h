/*
 * tap.h - a minimal TAP producer for the C unit tests, run by prove.
 * Each check prints "ok N - name" or "not ok N - name"; a failure's
 * diagnostic goes to stderr, where prove shows it without -v (a CI log
 * then says what went wrong); tap_done() prints the plan and returns the
 * exit status.
 */
#ifndef CPPERF_TAP_H
#define CPPERF_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *name)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
	fflush(stdout);
	return cond;
}

#define ok(cond, name) tap_ok(!!(cond), (name))
#define is_int(got, want, name) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!tap_ok(g_ == w_, (name))) \
		fprintf(stderr, "#   got %lld, want %lld\n", g_, w_); \
} while (0)
#define is_str(got, want, name) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!tap_ok(g_ && w_ && !strcmp(g_, w_), (name))) \
		fprintf(stderr, "#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

static inline void tap_skip(const char *name, const char *why)
{
	printf("ok %d - %s # skip %s\n", ++tap_n, name, why);
}

/* Stop the whole test: the environment makes it meaningless. */
static inline void tap_bail(const char *why)
{
	printf("Bail out! %s\n", why);
	exit(1);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
