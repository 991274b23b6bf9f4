/*
 * merge-waits.h - the wait states of merging (merge-waits.c): each rank's
 * slots and pairs, and once every profile is read the pairs of call sites,
 * the Late Receiver time of each sending site and the culprits.
 */
#ifndef CPPERF_REPORT_MERGE_WAITS_H
#define CPPERF_REPORT_MERGE_WAITS_H

#include <stddef.h>
#include "data.h"

/*
 * Keep p's slots and pairs in w, their sites mapped through smap (p's site
 * -> merged site, mpi_merge_add's).  Returns 0, or -1 with a message
 * naming the file name (memory, a record naming no call site of p).
 */
int waits_merge_add(struct rep_waits *w, const struct profile *p, const uint32_t *smap,
		    const char *name, char *err, size_t errlen);
/*
 * After mpi_merge_finish: name each pair's sending site through its rank's
 * slots (REP_NO_SITE when none has it), add its Late Receiver time to that
 * site in m, sum the pairs by (sending site, receiving site) and list the
 * culprits.  Returns 0, or -1 when memory is short.
 */
int waits_merge_finish(struct rep_waits *w, struct rep_mpi *m, char *err, size_t errlen);
void waits_merge_release(struct rep_waits *w);
/* After waits_merge_finish: the merged call site of rank's slot, or
 * REP_NO_SITE when no profile names it. */
uint32_t waits_slot_site(const struct rep_waits *w, int64_t rank, uint32_t slot);

/* Site s's wait states, its Late Receiver time included (saturating). */
uint64_t waits_site_ns(const struct rep_site *s);
/* The rest of its blocked time: blocked less its wait states, 0 at least. */
uint64_t waits_transmission_ns(const struct rep_site *s);

#endif
