/*
 * clock-align.h - the ranks' clocks on one time line for the wait states
 * (docs/waits.md "Clocks"): every host's offset to rank 0's clock,
 * measured at MPI_Init and again at MPI_Finalize.  Ranks of one host share
 * its clock (CLOCK_MONOTONIC), so a job on one host measures nothing.
 */
#ifndef CPPERF_PMPI_CLOCK_ALIGN_H
#define CPPERF_PMPI_CLOCK_ALIGN_H

#include <stdint.h>

/* At MPI_Init, collective over MPI_COMM_WORLD, before any rank may leave
 * it: the offsets, when ranks run on several hosts (or a test skews their
 * clocks: CPPERF_TEST_CLOCK_SKEW_NS=N sets rank r's N x r ns ahead and
 * makes each rank a host of its own). */
void pmpi_clock_start(int rank, int size);
/* At MPI_Finalize's entry, on every rank: the offsets again, their change
 * kept as drift.  No more alignment after it. */
void pmpi_clock_finalize(void);

/* What to add to world rank r's CLOCK_MONOTONIC reading (as its
 * piggyback carries it) to have it on rank 0's clock: its test skew less
 * its host's offset; 0 for every rank on a single host. */
extern int64_t *pmpi_clock_conv;	/* [world size], NULL when all 0 */
extern int pmpi_clock_nconv;

/* This rank's own conversion. */
extern int64_t pmpi_clock_me;

/* pmpi_clock_nconv is 0 while pmpi_clock_conv is NULL */
static inline int64_t pmpi_clock_to_ref(int rank)
{
	return (unsigned)rank < (unsigned)pmpi_clock_nconv ? pmpi_clock_conv[rank] : 0;
}

/* This rank's offset to rank 0's clock measured at MPI_Init, and its
 * change by MPI_Finalize (0 when not measured). */
int64_t pmpi_clock_offset(void);
int64_t pmpi_clock_drift(void);

#endif
