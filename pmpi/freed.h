/*
 * freed.h - requests the program freed while MPI may still use their
 * buffers (freed.c).
 */
#ifndef CPPERF_PMPI_FREED_H
#define CPPERF_PMPI_FREED_H

#include <stdbool.h>

#include "requests.h"

/* Point-to-point requests freed while active, kept (t is ours then:
 * their entry, or a copy alone, requests.h; false: no memory) until MPI
 * completes them, tested at the end of every profiled call; at
 * MPI_Finalize, tested once more and freed in MPI. */
bool pmpi_freed_keep(struct pmpi_tracked *t);
void pmpi_freed_poll(void);
void pmpi_freed_at_finalize(void);

#endif
