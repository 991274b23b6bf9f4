/*
 * rt-mutex.h - a lock for the state that MPI calls change several times a
 * message (the critical path's, the compensation's) when MPI runs
 * threads: a free lock is taken and let go in a few instructions, where
 * pthread's mutex with rt_lock's signal deferral took about 75 a pair; a
 * thread that finds it held sleeps on a futex (rt-mutex.c).  As
 * with rt_lock, a fatal asynchronous signal that arrives while the thread
 * holds one is handled when it lets go (signals.c).
 */
#ifndef CPPERF_SAMPLER_RT_MUTEX_H
#define CPPERF_SAMPLER_RT_MUTEX_H

#include <stdint.h>

struct rt_mutex {
	int state;		/* 0 free, 1 held, 2 held and maybe waited for */
};

/* signals.c: rt_lock's and rt_mutex_lock's locks the thread holds, and
 * the signals deferred until it holds none, raised by rt_raise_deferred */
extern __thread int rt_crit_depth __attribute__((tls_model("initial-exec")));
extern __thread uint64_t rt_deferred __attribute__((tls_model("initial-exec")));
void rt_raise_deferred(void);

/* rt-mutex.c.  Out of line: a caller that takes the lock only when MPI
 * runs threads keeps its common path as short as without it. */
void rt_mutex_lock(struct rt_mutex *m);
void rt_mutex_unlock(struct rt_mutex *m);

#endif
