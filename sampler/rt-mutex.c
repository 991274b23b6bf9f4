/*
 * rt-mutex.c - the waits of rt-mutex.h's lock.  A free lock (0) is taken by one
 * compare-and-swap (1), inline.  A thread that finds it held marks it waited for
 * (2) as it takes it, or sleeps until the holder lets go; the holder
 * wakes one sleeper when it lets go of a lock marked so.  A thread that
 * takes the lock after a wait leaves it marked, at the cost of one
 * wake-up that may find no sleeper.
 */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt-mutex.h"

__attribute__((noinline)) void rt_mutex_wait(struct rt_mutex *m)
{
	while (__atomic_exchange_n(&m->state, 2, __ATOMIC_ACQUIRE) != 0)
		syscall(SYS_futex, &m->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

__attribute__((noinline)) void rt_mutex_wake(struct rt_mutex *m)
{
	syscall(SYS_futex, &m->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
