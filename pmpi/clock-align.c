/*
 * clock-align.c - every host's offset to rank 0's clock (clock-align.h).
 *
 * Rank 0 exchanges a few round trips with the first rank of each other
 * host and keeps the one that took least: the remote reading is taken
 * half-way through it, so the offset is off by at most half its length
 * (a few µs over a network, well under a µs in shared memory).  The
 * other ranks of a host take their first rank's offset, so that ranks of
 * one host stay exactly on one clock.  Cristian's method; the drift
 * between MPI_Init and MPI_Finalize is measured, not corrected: a wait
 * state's error is at most the drift by then.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../sampler/rt.h"
#include "clock-align.h"
#include "compensate.h"

#define ROUNDS 16
#define TAG 32767		/* the least MPI_TAG_UB: inside MPI_Init and
				 * MPI_Finalize no message of the program's is
				 * under way */

int64_t *pmpi_clock_conv;
int64_t pmpi_clock_me;
int pmpi_clock_nconv;

static struct {
	int rank, size;
	int64_t skew;		/* CPPERF_TEST_CLOCK_SKEW_NS x rank */
	uint32_t *group;	/* [size]: each rank's clock (its host) */
	int64_t *off;		/* [size]: rank 0's measures */
	int64_t offset, drift;
} clk;

/* Tables freed: every rank on rank 0's clock from now on. */
static void free_tables(void)
{
	free(clk.group);
	free(clk.off);
	free(pmpi_clock_conv);
	clk.group = NULL;
	clk.off = NULL;
	pmpi_clock_conv = NULL;
	pmpi_clock_nconv = 0;
}

/* The clock the offsets are measured on: the test's skew included. */
static int64_t now(void)
{
	return (int64_t)rt_now_ns() + clk.skew;
}

/* Rank 0's side of the round trips with the first rank of another clock:
 * its offset (its clock minus rank 0's). */
static int64_t ping(int peer)
{
	int64_t best_rtt = INT64_MAX, off = 0, remote;

	for (int i = 0; i < ROUNDS; i++) {
		int64_t t1 = now(), t2;

		PMPI_Send(&t1, 1, MPI_INT64_T, peer, TAG, MPI_COMM_WORLD);
		PMPI_Recv(&remote, 1, MPI_INT64_T, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t2 = now();
		if (t2 - t1 < best_rtt) {
			best_rtt = t2 - t1;
			off = remote - (t1 + (t2 - t1) / 2);
		}
	}
	return off;
}

static void pong(void)
{
	int64_t t;

	for (int i = 0; i < ROUNDS; i++) {
		PMPI_Recv(&t, 1, MPI_INT64_T, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t = now();
		PMPI_Send(&t, 1, MPI_INT64_T, 0, TAG, MPI_COMM_WORLD);
	}
}

/* The first rank of r's clock. */
static int leader(int r)
{
	for (int i = 0; i < r; i++)
		if (clk.group[i] == clk.group[r])
			return i;
	return r;
}

/* Collective: every rank's offset to rank 0's clock into clk.off, this
 * rank's returned. */
static int64_t measure(void)
{
	if (clk.rank == 0) {
		for (int r = 1; r < clk.size; r++)
			clk.off[r] = leader(r) == r ? ping(r) : clk.off[leader(r)];
	} else if (leader(clk.rank) == clk.rank) {
		pong();
	}
	PMPI_Bcast(clk.off, clk.size, MPI_INT64_T, 0, MPI_COMM_WORLD);
	return clk.off[clk.rank];
}

/* Whether the ranks run on more than one clock. */
static bool several_clocks(void)
{
	for (int r = 1; r < clk.size; r++)
		if (clk.group[r] != clk.group[0])
			return true;
	return false;
}

/* Collective: the tables on every rank, or on none (their memory). */
static bool alloc_tables(void)
{
	int mine, all = 0;

	clk.group = malloc((size_t)clk.size * sizeof(*clk.group));
	clk.off = calloc((size_t)clk.size, sizeof(*clk.off));
	pmpi_clock_conv = malloc((size_t)clk.size * sizeof(*pmpi_clock_conv));
	mine = clk.group && clk.off && pmpi_clock_conv;
	if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD) == MPI_SUCCESS && all)
		return true;
	free_tables();
	return false;
}

void pmpi_clock_start(int rank, int size)
{
	const char *s = getenv("CPPERF_TEST_CLOCK_SKEW_NS");
	int64_t n = s ? strtoll(s, NULL, 10) : 0, conv;
	/* a skewed clock is a host of its own */
	uint32_t mine = n ? (uint32_t)rank : (uint32_t)pmpi_host_hash();

	clk.rank = rank;
	clk.size = size;
	clk.skew = n * rank;
	if (!alloc_tables())
		return;
	if (PMPI_Allgather(&mine, 1, MPI_UINT32_T, clk.group, 1, MPI_UINT32_T,
			   MPI_COMM_WORLD) != MPI_SUCCESS || !several_clocks()) {
		free_tables();
		return;
	}
	clk.offset = measure();
	conv = clk.skew - clk.offset;
	PMPI_Allgather(&conv, 1, MPI_INT64_T, pmpi_clock_conv, 1, MPI_INT64_T, MPI_COMM_WORLD);
	pmpi_clock_nconv = size;
	pmpi_clock_me = conv;
}

/* The conversions stay: a thread may still be reading them, and no
 * piggyback arrives after MPI_Finalize. */
void pmpi_clock_finalize(void)
{
	if (pmpi_clock_nconv && clk.off)
		clk.drift = measure() - clk.offset;
	free(clk.group);
	free(clk.off);
	clk.group = NULL;
	clk.off = NULL;
}

int64_t pmpi_clock_offset(void)
{
	return clk.offset;
}

int64_t pmpi_clock_drift(void)
{
	return clk.drift;
}
