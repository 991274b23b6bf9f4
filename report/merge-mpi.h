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
 * through fmap, p's frame id -> merged id; smap[i] becomes the index in
 * m->sites of p's site i, until mpi_merge_finish sorts them), its peers
 * as matrix pairs, its collectives.  Fails, with a message naming the
 * file name, when p's size differs from earlier ranks', its rank is out of
 * range or already merged, or it has peers without a rank.  Returns 0 or
 * -1 (memory, bad data).
 */
int mpi_merge_add(struct rep_mpi *m, const struct profile *p, const uint32_t *fmap,
		  uint32_t *smap, const char *name, char *err, size_t errlen);
/* Sort ranks, sites, pairs and collectives; each site keeps its index of
 * before in merge_id.  Cannot fail. */
void mpi_merge_finish(struct rep_mpi *m);
void mpi_merge_release(struct rep_mpi *m);

/* Make room for one more element of size elem in *array, which holds n
 * of *alloc (doubling it).  Returns 0, or -1 when memory is short or the
 * array would pass 2^32 / 4 elements. */
int mpi_grow(void **array, uint32_t n, uint32_t *alloc, size_t elem);

/* How many of m's processes are MPI ranks (the spreads over ranks are
 * over these). */
uint64_t mpi_rank_count(const struct rep_mpi *m);

#endif
