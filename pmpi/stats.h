/*
 * stats.h - the statistics tables that stats.c fills while the program runs
 * and fill.c copies into the profile at the end.  All guarded by
 * pmpi_stats_lock.
 */
#ifndef CPPERF_PMPI_STATS_H
#define CPPERF_PMPI_STATS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"

#define PMPI_SITES 4096		/* call sites per process (power of 2) */
#define PMPI_COLLS 256		/* (collective, communicator size) pairs */

struct pmpi_site {
	bool used;
	unsigned fn;		/* index into pmpi_fn_names */
	const void *ra;		/* return address in the caller */
	uint64_t calls, sent, recv, time_ns, blocked_ns;
	uint64_t hist[PROF_MPI_HIST];
};

struct pmpi_coll {
	bool used;
	unsigned fn;
	int64_t comm_size;
	uint64_t calls, bytes, time_ns;
};

extern pthread_mutex_t pmpi_stats_lock;
extern struct pmpi_site pmpi_sites[PMPI_SITES];
extern struct pmpi_coll pmpi_colls[PMPI_COLLS];
/* messages and bytes sent to each world rank, [pmpi_world_size] */
extern uint64_t *pmpi_peer_count, *pmpi_peer_bytes;
extern int pmpi_world_size;

#endif
