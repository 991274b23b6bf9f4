/*
 * reduce.h - --merge=mpi: the ranks' profiles reduced into one at
 * MPI_Finalize (reduce.c).
 */
#ifndef CPPERF_PMPI_REDUCE_H
#define CPPERF_PMPI_REDUCE_H

/* In MPI_Init, on every rank (collective): the merge's communicator. */
void pmpi_reduce_open(void);
/* At the entry of MPI_Finalize: end profiling, write the rank's file, and
 * take part in the reduction; bounded in time whatever the other ranks
 * do.  Nothing happens without --merge=mpi. */
void pmpi_reduce_at_finalize(void);

#endif
