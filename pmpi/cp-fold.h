/*
 * cp-fold.h - fold points of the critical path (docs/critical-path.md
 * "Fold points"): at a blocking synchronising collective over all of
 * MPI_COMM_WORLD, the path up to it runs through its latest entrant, so
 * the ranks resolve it there, keep its samples by call path and drop
 * their records of it.  Only when some rank asks for it (its records
 * passed an eighth of its budget): the collective's piggyback carries the
 * request, so every rank decides alike from the merged one.
 *
 * The exchange goes over a private duplicate of MPI_COMM_WORLD made at
 * MPI_Init, from the thread inside the collective: every rank gathers its
 * links since the last fold point to rank 0, which walks back from the
 * latest entrant (common/cp-walk.c) and scatters to every rank the ranges
 * of its segments on the path.  The collectives of two threads could
 * reach the duplicate in different orders on different ranks, so there
 * are fold points only when every rank's MPI gives a thread level below
 * MPI_THREAD_MULTIPLE.  A run that had fold points folds once more at
 * MPI_Finalize, from the path's end.
 */
#ifndef CPPERF_PMPI_CP_FOLD_H
#define CPPERF_PMPI_CP_FOLD_H

#include <mpi.h>
#include <stdbool.h>

#include "way.h"

struct rt_state;
struct pmpi_call;
struct pmpi_comm_facts;
struct pmpi_pb;

/* Inside MPI_Init, collective over MPI_COMM_WORLD (when the path is
 * computed): the ranks agree whether there may be fold points (a budget,
 * one thread at a time in MPI on every rank) and make the duplicate. */
void pmpi_cpfold_open(const struct rt_state *rt);
/* Whether this rank asks for a fold point in a collective's piggyback;
 * quick: as call.h says. */
bool pmpi_cpfold_wanted(enum pmpi_way quick);
/* After blocking collective c on the communicator of facts cf completed
 * with the merged piggyback pb (the same on every rank): the fold point,
 * when pb asks for one and the communicator spans MPI_COMM_WORLD.  A fold point that fails (a rank
 * without a path, memory short) is said by rank 0 and ends them: the
 * budget's latest part applies from then on. */
void pmpi_cpfold_at(const struct pmpi_call *c, const struct pmpi_comm_facts *cf,
		    const struct pmpi_pb *pb);
/* At the entry of MPI_Finalize, after the path's end, on every rank: when
 * the run had fold points, the last one, from the path's end (its records
 * then hold nothing the report would walk). */
void pmpi_cpfold_end(void);
/* At MPI_Finalize: free the duplicate. */
void pmpi_cpfold_close(void);

#endif
