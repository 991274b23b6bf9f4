/*
 * analyses-lock.h - the one lock of the analyses' shared state (the
 * critical path's and the compensation's) when several threads call MPI.
 *
 * One lock for both, so that a step of a call that runs several analyses
 * (a call's entry, a message's stamp, its arrival) takes it once in the
 * locked quick way and passes PMPI_QUICK_HELD down (way.h): its analyses
 * then take no lock of their own.  Taken by each analysis in turn, two
 * locks cost twelve locked pairs a round trip (bench/mpi-cost.md).  Not
 * reentrant, and never held across a call to MPI (another thread's
 * message may be what that call waits for) nor across a wait for the
 * drain thread (a site's path capture), which takes it to place samples.
 */
#ifndef CPPERF_PMPI_ANALYSES_LOCK_H
#define CPPERF_PMPI_ANALYSES_LOCK_H

#include "../sampler/rt-mutex.h"
#include "way.h"

extern struct rt_mutex pmpi_analyses_mutex;

static inline void pmpi_analyses_lock(void)
{
	rt_mutex_lock(&pmpi_analyses_mutex);
}

static inline void pmpi_analyses_unlock(void)
{
	rt_mutex_unlock(&pmpi_analyses_mutex);
}

/* Around an analysis's own step: only the locked way locks. */
static inline void pmpi_analyses_lock_way(enum pmpi_way quick)
{
	if (quick == PMPI_QUICK_LOCKED)
		pmpi_analyses_lock();
}

static inline void pmpi_analyses_unlock_way(enum pmpi_way quick)
{
	if (quick == PMPI_QUICK_LOCKED)
		pmpi_analyses_unlock();
}

/* Around a step that runs several: the way to pass down, the lock taken
 * in the locked way, which pmpi_analyses_release lets go. */
static inline enum pmpi_way pmpi_analyses_hold(enum pmpi_way quick)
{
	if (quick != PMPI_QUICK_LOCKED)
		return quick;
	pmpi_analyses_lock();
	return PMPI_QUICK_HELD;
}

static inline void pmpi_analyses_release(enum pmpi_way held)
{
	if (held == PMPI_QUICK_HELD)
		pmpi_analyses_unlock();
}

#endif
