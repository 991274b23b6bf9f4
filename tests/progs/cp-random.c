/*
 * cp-random.c - a random but deterministic MPI schedule for the critical
 * path tests (cp.t, cp-long.sh).  Usage: cp-random SEED [STEPS].
 *
 * Every rank draws the whole schedule from one splitmix64 stream seeded with
 * SEED, making the same draws in the same order whatever its rank (a step's
 * parameters for all ranks are drawn before any rank acts on them), so all
 * ranks agree on every step.  Steps: compute (every rank spins 0-3 ms of
 * CLOCK_MONOTONIC time in compute_a..compute_d, its own duration);
 * point-to-point between the pairs of a random permutation (Send/Recv one
 * way or both ways in matched order, Isend/Irecv + Wait/Waitall with a spin
 * in between, Sendrecv); a fan-in to one receiver through MPI_ANY_SOURCE
 * where each sender has its own tag, so the match is unique; collectives
 * (Barrier or Ibarrier + spin + Wait, Allreduce, Bcast and Reduce from a
 * random root, Allgather, Alltoall, Iallreduce or Ireduce + spin + Wait,
 * Gather and Scatter from a random root, Allgatherv, Scan or Iscan + spin
 * + Wait, Exscan, Reduce_scatter_block or Reduce_scatter, Ibcast from a
 * random root + spin + Wait; the gathers, scatters, all-to-alls, Exscan
 * and the reduce-scatters half of the time in their non-blocking forms +
 * spin + Wait).  Messages are 0-64 KiB, a collective's half of the time
 * at most 64 bytes a rank (those carry the piggyback inside them).
 *
 * No deadlock: in a step a rank talks to at most one partner (p2p) or
 * one receiver (fan-in), a blocking send is always matched by a receive the
 * partner posts before its own blocking send, and every rank goes through
 * the steps in the same order, so step s completes once every rank reached
 * it.  Tags are unique per step (tagbase), so messages of different steps
 * never match each other.
 *
 * Every received byte and element is checked; a mismatch is reported on
 * stderr and the program exits 1.  On success rank 0 prints only
 * "cp-random seed=S ranks=N steps=K ok".
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define MAXMSG 65536	/* bytes per message */
#define MAXSPIN_US 3000
#define MAXRANKS 64

static int rank, nranks, errors;
static uint64_t rng;
static volatile uint64_t sink;

/* splitmix64: the one stream every rank draws from identically */
static uint64_t draw(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* draw_below(n): uniform in [0, n); n > 0 */
static int draw_below(int n)
{
	return (int)(draw() % (uint64_t)n);
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The compute functions: the same spin with different constants, so that
 * the compiler cannot fold them into one symbol; the clock is read every
 * 4096 steps (some 5 us), so that the samples' leaf is the function. */
#define COMPUTE(name, mul, add) \
	static NOINLINE void name(int us) \
	{ \
		double end = now_us() + us; \
		uint64_t x = sink; \
		do { \
			for (int i = 0; i < 4096; i++) \
				x = x * (mul) + (add); \
		} while (now_us() < end); \
		sink = x; \
	}
COMPUTE(compute_a, 6364136223846793005ULL, 1442695040888963407ULL)
COMPUTE(compute_b, 2862933555777941757ULL, 3037000493ULL)
COMPUTE(compute_c, 3935559000370003845ULL, 2691343689449507681ULL)
COMPUTE(compute_d, 3202034522624059733ULL, 4354685564936845319ULL)

static void (*const compute[4])(int) = { compute_a, compute_b, compute_c, compute_d };

static void bad(int step, const char *what, long got, long want)
{
	fprintf(stderr, "cp-random: rank %d step %d: %s: got %ld, want %ld\n", rank, step, what, got, want);
	errors++;
}

/* The byte at index i of a message of step `step` from `src` (src may encode
 * a destination too). */
static unsigned char pattern(int step, int src, size_t i)
{
	return (unsigned char)((i * 131u) ^ (i >> 8) ^ ((unsigned)step * 29u) ^ ((unsigned)src * 71u));
}

static void fill(unsigned char *buf, size_t n, int step, int src)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = pattern(step, src, i);
}

/* check_bytes: buf holds n bytes of (step, src); counts one error at most */
static void check_bytes(const unsigned char *buf, size_t n, int step, int src, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (buf[i] != pattern(step, src, i)) {
			bad(step, what, buf[i], pattern(step, src, i));
			return;
		}
}

static void check_count(const MPI_Status *st, int want, int step, const char *what)
{
	int n;

	MPI_Get_count(st, MPI_BYTE, &n);
	if (n != want)
		bad(step, what, n, want);
}

/* Rank r's contribution to element i of a reduction in step `step` */
static int contrib(int r, int step, int i)
{
	return (r + 1) * ((i + step) % 1000 + 1);
}

static void fill_contrib(int *v, int n, int step)
{
	for (int i = 0; i < n; i++)
		v[i] = contrib(rank, step, i);
}

/* check_sum: v holds the sums of ranks 0 to upto - 1's contributions */
static void check_sum(const int *v, int n, int step, int upto, const char *what)
{
	for (int i = 0; i < n; i++) {
		int want = upto * (upto + 1) / 2 * ((i + step) % 1000 + 1);

		if (v[i] != want) {
			bad(step, what, v[i], want);
			return;
		}
	}
}

static unsigned char *sbuf, *rbuf;

enum { P2P_ONEWAY, P2P_BOTH, P2P_NONBLOCKING, P2P_NB_ONEWAY, P2P_SENDRECV, P2P_MODES };

/* Pairs (perm[2k], perm[2k+1]); per pair a mode, two sizes and two spins;
 * a rank left over sits the step out. */
static void step_p2p(int step, int tag)
{
	int perm[MAXRANKS], mode[MAXRANKS], size[MAXRANKS][2], spin[MAXRANKS][2];
	int me = -1, peer = -1, first = 0, np = nranks / 2;
	MPI_Request rq[2];
	MPI_Status st[2];

	for (int i = 0; i < nranks; i++)
		perm[i] = i;
	for (int i = nranks - 1; i > 0; i--) {
		int j = draw_below(i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (int k = 0; k < np; k++) {
		mode[k] = draw_below(P2P_MODES);
		for (int d = 0; d < 2; d++) {
			size[k][d] = draw_below(MAXMSG + 1);
			spin[k][d] = draw_below(MAXSPIN_US + 1);
		}
	}
	for (int i = 0; i < 2 * np; i++)
		if (perm[i] == rank) {
			me = i / 2;
			first = i % 2 == 0;
			peer = perm[i ^ 1];
		}
	if (me < 0)
		return;
	/* first sends size[me][0] and receives size[me][1] */
	int out = size[me][first ? 0 : 1], in = size[me][first ? 1 : 0];

	fill(sbuf, (size_t)out, step, rank);
	switch (mode[me]) {
	case P2P_ONEWAY:
		if (first)
			MPI_Send(sbuf, out, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
		else {
			MPI_Recv(rbuf, MAXMSG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, st);
			check_count(st, in, step, "Recv one way: count");
			check_bytes(rbuf, (size_t)in, step, peer, "Recv one way: data");
		}
		break;
	case P2P_BOTH:
		if (first) {
			MPI_Send(sbuf, out, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
			MPI_Recv(rbuf, MAXMSG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, st);
		} else {
			MPI_Recv(rbuf, MAXMSG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, st);
			MPI_Send(sbuf, out, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
		}
		check_count(st, in, step, "Recv both ways: count");
		check_bytes(rbuf, (size_t)in, step, peer, "Recv both ways: data");
		break;
	case P2P_NONBLOCKING:
		MPI_Irecv(rbuf, MAXMSG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(sbuf, out, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[1]);
		compute_d(spin[me][first ? 0 : 1]);
		MPI_Waitall(2, rq, st);
		check_count(&st[0], in, step, "Irecv: count");
		check_bytes(rbuf, (size_t)in, step, peer, "Irecv: data");
		break;
	case P2P_NB_ONEWAY:
		if (first)
			MPI_Isend(sbuf, out, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[0]);
		else
			MPI_Irecv(rbuf, MAXMSG, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rq[0]);
		compute_c(spin[me][first ? 0 : 1]);
		MPI_Wait(&rq[0], st);
		if (!first) {
			check_count(st, in, step, "Irecv one way: count");
			check_bytes(rbuf, (size_t)in, step, peer, "Irecv one way: data");
		}
		break;
	case P2P_SENDRECV:
		MPI_Sendrecv(sbuf, out, MPI_BYTE, peer, tag, rbuf, MAXMSG, MPI_BYTE, peer, tag,
			     MPI_COMM_WORLD, st);
		check_count(st, in, step, "Sendrecv: count");
		check_bytes(rbuf, (size_t)in, step, peer, "Sendrecv: data");
		break;
	}
}

/* Fan-in: a random receiver, each other rank sends with probability 1/2
 * (at least one does) on tag + its rank; the receiver takes them through
 * MPI_ANY_SOURCE in a random order of tags. */
static void step_any_source(int step, int tag)
{
	int root = draw_below(nranks), sends[MAXRANKS] = { 0 }, size[MAXRANKS] = { 0 }, order[MAXRANKS], n = 0;
	MPI_Status st;

	for (int r = 0; r < nranks; r++) {
		sends[r] = r != root && draw_below(2);
		size[r] = draw_below(MAXMSG + 1);
	}
	int forced = draw_below(nranks);

	if (nranks > 1 && forced != root)
		sends[forced] = 1;
	for (int r = 0; r < nranks; r++)
		if (sends[r])
			order[n++] = r;
	for (int i = n - 1; i > 0; i--) {
		int j = draw_below(i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	if (sends[rank]) {
		fill(sbuf, (size_t)size[rank], step, rank);
		MPI_Send(sbuf, size[rank], MPI_BYTE, root, tag + rank, MPI_COMM_WORLD);
	} else if (rank == root) {
		for (int i = 0; i < n; i++) {
			int s = order[i];

			MPI_Recv(rbuf, MAXMSG, MPI_BYTE, MPI_ANY_SOURCE, tag + s, MPI_COMM_WORLD, &st);
			if (st.MPI_SOURCE != s)
				bad(step, "ANY_SOURCE: source", st.MPI_SOURCE, s);
			check_count(&st, size[s], step, "ANY_SOURCE: count");
			check_bytes(rbuf, (size_t)size[s], step, s, "ANY_SOURCE: data");
		}
	}
}

enum { C_BARRIER, C_ALLREDUCE, C_BCAST, C_REDUCE, C_ALLGATHER, C_ALLTOALL, C_IALLREDUCE, C_GATHER,
       C_SCATTER, C_ALLGATHERV, C_SCAN, C_EXSCAN, C_REDUCE_SCATTER, C_IBCAST, C_KINDS };

/* Rank r's part of an allgatherv of block bytes a rank at most: each
 * its own size, the parts laid out in reverse rank order. */
static void allgatherv_parts(int block, int *counts, int *displs)
{
	int at = 0;

	for (int r = nranks - 1; r >= 0; r--) {
		counts[r] = block / (r + 1);
		displs[r] = at;
		at += counts[r];
	}
}

/* A non-blocking collective's request completed after us of work. */
static void wait_after(MPI_Request *rq, int us)
{
	compute_b(us);
	MPI_Wait(rq, MPI_STATUS_IGNORE);
}

static void step_collective(int step)
{
	int kind = draw_below(C_KINDS), root = draw_below(nranks), small = draw_below(2);
	/* half of them small: those carry the piggyback inside them */
	int ints = draw_below((small ? 32 : MAXMSG) / (int)sizeof(int) + 1);
	int bytes = draw_below((small ? 64 * nranks : MAXMSG) + 1), block = bytes / nranks;
	int spin[MAXRANKS], counts[MAXRANKS], displs[MAXRANKS];
	int *iv = (int *)sbuf, *ov = (int *)rbuf;
	bool nb = (root + step) % 2;	/* some: non-blocking + spin + Wait */
	MPI_Request rq;

	for (int r = 0; r < nranks; r++)
		spin[r] = draw_below(MAXSPIN_US + 1);
	switch (kind) {
	case C_BARRIER:	/* by the root's parity: blocking, or + spin + Wait */
		if (root % 2) {
			MPI_Ibarrier(MPI_COMM_WORLD, &rq);
			compute_b(spin[rank]);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Barrier(MPI_COMM_WORLD);
		}
		break;
	case C_ALLREDUCE:
		fill_contrib(iv, ints, step);
		MPI_Allreduce(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		check_sum(ov, ints, step, nranks, "Allreduce");
		break;
	case C_BCAST:
		if (rank == root)
			fill(rbuf, (size_t)bytes, step, root);
		MPI_Bcast(rbuf, bytes, MPI_BYTE, root, MPI_COMM_WORLD);
		check_bytes(rbuf, (size_t)bytes, step, root, "Bcast");
		break;
	case C_IBCAST:
		if (rank == root)
			fill(rbuf, (size_t)bytes, step, root);
		MPI_Ibcast(rbuf, bytes, MPI_BYTE, root, MPI_COMM_WORLD, &rq);
		compute_b(spin[rank]);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		check_bytes(rbuf, (size_t)bytes, step, root, "Ibcast");
		break;
	case C_REDUCE:
		fill_contrib(iv, ints, step);
		MPI_Reduce(iv, ov, ints, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
		if (rank == root)
			check_sum(ov, ints, step, nranks, "Reduce");
		break;
	case C_ALLGATHER:
		fill(sbuf, (size_t)block, step, rank);
		if (nb) {
			MPI_Iallgather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, MPI_COMM_WORLD, &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Allgather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, MPI_COMM_WORLD);
		}
		for (int r = 0; r < nranks; r++)
			check_bytes(rbuf + (size_t)r * block, (size_t)block, step, r, "Allgather");
		break;
	case C_ALLTOALL:
		for (int d = 0; d < nranks; d++)
			fill(sbuf + (size_t)d * block, (size_t)block, step, rank * MAXRANKS + d);
		if (nb) {
			MPI_Ialltoall(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, MPI_COMM_WORLD, &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Alltoall(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, MPI_COMM_WORLD);
		}
		for (int r = 0; r < nranks; r++)
			check_bytes(rbuf + (size_t)r * block, (size_t)block, step, r * MAXRANKS + rank, "Alltoall");
		break;
	case C_IALLREDUCE:	/* by the root's parity: to all ranks, or to the root */
		fill_contrib(iv, ints, step);
		if (root % 2)
			MPI_Ireduce(iv, ov, ints, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &rq);
		else
			MPI_Iallreduce(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
		compute_b(spin[rank]);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (root % 2 == 0 || rank == root)
			check_sum(ov, ints, step, nranks, "Iallreduce");
		break;
	case C_GATHER:
		fill(sbuf, (size_t)block, step, rank);
		if (nb) {
			MPI_Igather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, root, MPI_COMM_WORLD,
				    &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Gather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, root, MPI_COMM_WORLD);
		}
		for (int r = 0; rank == root && r < nranks; r++)
			check_bytes(rbuf + (size_t)r * block, (size_t)block, step, r, "Gather");
		break;
	case C_SCATTER:
		for (int d = 0; rank == root && d < nranks; d++)
			fill(sbuf + (size_t)d * block, (size_t)block, step, root * MAXRANKS + d);
		if (nb) {
			MPI_Iscatter(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, root, MPI_COMM_WORLD,
				     &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Scatter(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, root, MPI_COMM_WORLD);
		}
		check_bytes(rbuf, (size_t)block, step, root * MAXRANKS + rank, "Scatter");
		break;
	case C_ALLGATHERV:
		allgatherv_parts(block, counts, displs);
		fill(sbuf, (size_t)counts[rank], step, rank);
		if (nb) {
			MPI_Iallgatherv(sbuf, counts[rank], MPI_BYTE, rbuf, counts, displs, MPI_BYTE,
					MPI_COMM_WORLD, &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Allgatherv(sbuf, counts[rank], MPI_BYTE, rbuf, counts, displs, MPI_BYTE,
				       MPI_COMM_WORLD);
		}
		for (int r = 0; r < nranks; r++)
			check_bytes(rbuf + displs[r], (size_t)counts[r], step, r, "Allgatherv");
		break;
	case C_SCAN:	/* by the root's parity: blocking, or + spin + Wait */
		fill_contrib(iv, ints, step);
		if (root % 2) {
			MPI_Iscan(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
			compute_b(spin[rank]);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Scan(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		}
		check_sum(ov, ints, step, rank + 1, "Scan");
		break;
	case C_EXSCAN:
		fill_contrib(iv, ints, step);
		if (nb) {
			MPI_Iexscan(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
			wait_after(&rq, spin[rank]);
		} else {
			MPI_Exscan(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		}
		if (rank > 0)
			check_sum(ov, ints, step, rank, "Exscan");
		break;
	case C_REDUCE_SCATTER:	/* by the root's parity: blocks alike, or half or whole */
		ints /= nranks;
		for (int d = 0, at = 0; d < nranks; at += counts[d], d++) {
			counts[d] = root % 2 ? ints * (d % 2 + 1) / 2 : ints;
			fill_contrib(iv + at, counts[d], step);
		}
		if (root % 2 && nb)
			MPI_Ireduce_scatter(iv, ov, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
		else if (root % 2)
			MPI_Reduce_scatter(iv, ov, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		else if (nb)
			MPI_Ireduce_scatter_block(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
		else
			MPI_Reduce_scatter_block(iv, ov, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (nb)
			wait_after(&rq, spin[rank]);
		check_sum(ov, counts[rank], step, nranks, "Reduce_scatter");
		break;
	}
}

static void step_compute(void)
{
	int f = draw_below(4), us[MAXRANKS];

	for (int r = 0; r < nranks; r++)
		us[r] = draw_below(MAXSPIN_US + 1);
	compute[f](us[rank]);
}

int main(int argc, char **argv)
{
	long seed, steps = 30;
	int total;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (argc < 2 || argc > 3 || (seed = strtol(argv[1], NULL, 10)) < 0 ||
	    (argc == 3 && ((steps = strtol(argv[2], NULL, 10)) < 1 || steps > 100000))) {
		if (rank == 0)
			fprintf(stderr, "usage: cp-random SEED [STEPS]  (SEED >= 0, 1 <= STEPS <= 100000)\n");
		MPI_Finalize();
		return 2;
	}
	if (nranks > MAXRANKS) {
		if (rank == 0)
			fprintf(stderr, "cp-random: at most %d ranks\n", MAXRANKS);
		MPI_Finalize();
		return 2;
	}
	rng = (uint64_t)seed * 0x2545f4914f6cdd1dULL + (uint64_t)nranks;
	sbuf = malloc(MAXMSG);
	rbuf = malloc(MAXMSG);
	/* one tag range of nranks tags per step, below the guaranteed 32767 */
	int tag_steps = 32000 / nranks;

	for (int s = 0; s < steps; s++) {
		int tag = s % tag_steps * nranks, kind = draw_below(100);

		if (kind < 35)
			step_compute();
		else if (kind < 65)
			step_p2p(s, tag);
		else if (kind < 75)
			step_any_source(s, tag);
		else
			step_collective(s);
	}
	MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0 && total == 0)
		printf("cp-random seed=%ld ranks=%d steps=%ld ok\n", seed, nranks, steps);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return total != 0;
}
