/*
 * stress.h - what the stress programs (tests/progs/stress-*.c, run by
 * tests/stress.sh) share: one random stream that every rank draws alike,
 * message contents that a receiver can check, and a call at a stack depth
 * of the seed's choosing.  Included by each program, built as one file.
 */
#ifndef CPPERF_STRESS_H
#define CPPERF_STRESS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))

static int rank, nranks;
static uint64_t rng;

/* splitmix64: every rank makes the same draws in the same order. */
static inline uint64_t draw(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); n > 0. */
static inline int draw_below(int n)
{
	return (int)(draw() % (uint64_t)n);
}

/* The byte i of a message from rank `from` to rank `to` in step `step`. */
static inline unsigned char pattern(int step, int from, int to, size_t i)
{
	return (unsigned char)(step * 131 + from * 31 + to * 7 + (int)(i * 13) + (int)(i >> 8));
}

static inline void fill(unsigned char *buf, size_t n, int step, int from, int to)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(step, from, to, i);
}

/* Stop the whole job at the first wrong byte: a stress run must not go on
 * with corrupted data (mpirun reports the non-zero exit). */
static inline void expect(const unsigned char *buf, size_t n, int step, int from, int to,
			  const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (buf[i] != pattern(step, from, to, i)) {
			fprintf(stderr, "rank %d: %s step %d: byte %zu of %zu from %d is %u, want %u\n",
				rank, what, step, i, n, from, buf[i], pattern(step, from, to, i));
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
}

static inline void check(int ok, int step, const char *what)
{
	if (!ok) {
		fprintf(stderr, "rank %d: step %d: %s\n", rank, step, what);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* Call fn(arg) below a frame of `pad` bytes more: a call site at another
 * stack depth, so that cpperf keeps creating sites (and capturing their
 * paths) all through a run. */
static NOINLINE void at_depth(int pad, void (*fn)(void *), void *arg)
{
	volatile char room[pad > 0 ? pad : 1];

	room[0] = 0;
	fn(arg);
	room[0]++;
}

/* SEED and a count from the command line (defaults otherwise). */
static inline void stress_args(int argc, char **argv, long *count, long dflt)
{
	rng = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	*count = argc > 2 ? strtol(argv[2], NULL, 0) : dflt;
}

#endif
