/*
 * merge-mpi.h - the MPI part of merging (merge-mpi.c): per-process time
 * split, call sites merged by call path, communication matrix, collectives.
 */
#ifndef CPPERF_REPORT_MERGE_MPI_H
#define CPPERF_REPORT_MERGE_MPI_H

#include <stddef.h>
#include "data.h"

/* Largest MPI job size accepted: the report keeps a bit per rank of the
 * job and walks them all for the ranks without a profile. */
#define REP_MPI_MAX_SIZE (INT64_C(1) << 20)

/*
 * Fold p's MPI data into m: its rank entry, its call sites (frames mapped
 * through fmap, p's frame id -> merged id), its peers as matrix pairs, its
 * collectives.  Fails, with a message naming the file name, when p's size
 * differs from earlier ranks', its rank is out of range or already merged,
 * or it has peers without a rank.  Returns 0 or -1 (memory, bad data).
 */
int mpi_merge_add(struct rep_mpi *m, const struct profile *p, const uint32_t *fmap,
		  const char *name, char *err, size_t errlen);
/* Sort ranks, sites, pairs and collectives.  Cannot fail. */
void mpi_merge_finish(struct rep_mpi *m);
void mpi_merge_release(struct rep_mpi *m);

/* How many of m's processes are MPI ranks (the spreads over ranks are
 * over these). */
uint64_t mpi_rank_count(const struct rep_mpi *m);

#endif
