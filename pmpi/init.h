/*
 * init.h - the MPI region, from MPI_Init* to MPI_Finalize or MPI_Abort
 * (init.c).
 */
#ifndef CPPERF_PMPI_INIT_H
#define CPPERF_PMPI_INIT_H

#include <stdbool.h>

#include "../common/profile.h"
#include "call.h"

/* After MPI_Init*: rank, size, library, experiment directory,
 * run. */
void pmpi_init_done(struct pmpi_call *c);
/* At MPI_Init*'s exit, once the tool's own start is over: the MPI region
 * starts. */
void pmpi_region_start(void);
/* The entry of MPI_Finalize: the region ends, the piggyback stops; with
 * --merge=mpi the profile ends and the ranks reduce theirs (reduce.h). */
void pmpi_finalize_enter(void);
/* The region's wall and CPU time into p (up to now when it has not
 * ended); returns whether MPI_Finalize was reached (true when MPI_Init
 * was not). */
bool pmpi_region_fill(struct profile *p);
/* MPI_Abort: write the final profile now, partial "MPI_Abort(CODE)" (the
 * process will not exit normally). */
void pmpi_abort(int errorcode);

#endif
