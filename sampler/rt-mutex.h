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

#include <stdbool.h>
#include <stdint.h>

struct rt_mutex {
	int state;		/* 0 free, 1 held, 2 held and maybe waited for */
};

/* signals.c: rt_lock's and rt_mutex_lock's locks the thread holds, and
 * the signals deferred until it holds none, raised by rt_raise_deferred */
extern __thread int rt_crit_depth __attribute__((tls_model("initial-exec")));
extern __thread uint64_t rt_deferred __attribute__((tls_model("initial-exec")));
void rt_raise_deferred(void);

/* rt-mutex.c: the waits and wake-ups, out of line. */
void rt_mutex_wait(struct rt_mutex *m);
void rt_mutex_wake(struct rt_mutex *m);

/* Take and let go of the lock: the free lock's case inline, where calls
 * to it (through the analyses' own helpers) took about 45 instructions a
 * pair, several pairs a message when MPI runs threads. */
static inline void rt_mutex_lock(struct rt_mutex *m)
{
	int free = 0;

	rt_crit_depth++;
	if (__builtin_expect(!__atomic_compare_exchange_n(&m->state, &free, 1, false,
							  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 0))
		rt_mutex_wait(m);
}

static inline void rt_mutex_unlock(struct rt_mutex *m)
{
	if (__builtin_expect(__atomic_exchange_n(&m->state, 0, __ATOMIC_RELEASE) == 2, 0))
		rt_mutex_wake(m);
	if (--rt_crit_depth == 0 && __builtin_expect(rt_deferred != 0, 0))
		rt_raise_deferred();
}

#endif
