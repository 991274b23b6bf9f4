/*
 * call.h - one MPI call in progress (call.c), as the generated MPI wrappers
 * (build/gen/pmpi-wrappers.c, from pmpi/mpi-api.def) open and close it.
 *
 * A wrapper opens a struct pmpi_call with pmpi_enter, calls the PMPI (or
 * the library's Fortran pmpi_xxx_) function, hands the call's facts
 * (bytes, peers, requests) to its call site's statistics and closes it
 * with pmpi_leave, which adds its time.  Wrappers may run on any thread
 * at once (MPI_THREAD_MULTIPLE); everything here is thread-safe, and the
 * common path allocates nothing.  The piggyback transport's hooks are in
 * piggyback.h.
 */
#ifndef CPPERF_PMPI_CALL_H
#define CPPERF_PMPI_CALL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "analyses-lock.h"
#include "here.h"
#include "way.h"

/* A handle (a pointer in Open MPI, an int in MPICH) as a hash key. */
#define PMPI_HKEY(h) ((uint64_t)(uintptr_t)(h))

/* generated: "MPI_Send", ... indexed by the wrappers' function number */
extern const unsigned pmpi_fn_count;
extern const char *const pmpi_fn_names[];

/* call flags, from the table */
#define PMPI_CALL_BLOCK 1u	/* all its time counts as blocked */
#define PMPI_CALL_TESTBLOCK 2u	/* blocked when it completed a request
				 * (requests.c then sets PMPI_CALL_BLOCK) */
#define PMPI_CALL_INIT 4u	/* MPI_Init*: entered before MPI is up */
#define PMPI_CALL_SYNC 8u	/* a synchronous send (set by p2p.c) */
#define PMPI_CALL_FRESH 16u	/* its site is new, its path to capture (stats.c) */
#define PMPI_CALL_WAITED 32u	/* its Late Sender is set (waits.c) */
#define PMPI_CALL_COLL_WAITED 64u	/* its collective's wait is set (waits.c) */
#define PMPI_CALL_PB 128u	/* its entry did the piggyback's analyses (call.c) */
#define PMPI_CALL_COLL 256u	/* a collective, its comm_size and coll_bytes told (stats.c) */
#define PMPI_CALL_SIZED 512u	/* its message's bytes are known (p2p.c) */

/* A message's sender, its rank and site (slot of its table), as one key:
 * never UINT64_MAX, as both are at least 0. */
#define PMPI_PAIR_FROM(rank, slot) ((uint64_t)(uint32_t)(rank) << 32 | (uint32_t)(slot))

/* One MPI call in progress; lives on the wrapper's stack. */
struct pmpi_call {
	uint64_t t0;		/* CLOCK_MONOTONIC at entry */
	uint64_t ring_head;	/* the thread's sample ring's head at entry */
	uint64_t t_done;	/* when a receive or collective it made completed,
				 * 0 before */
	const void *ra;		/* the caller's return address: the call site */
	unsigned fn, flags;
	/* looked up at its entry (MPI_Init's at its end, MPI being up): */
	int site;		/* index in the site table, -1 when it is full */
	struct pmpi_counts *counts;	/* this thread's of the site, never NULL
				 * then (stats.c) */
	uint64_t event;		/* critical-path event number, 0 when none */
	int64_t comm_size;	/* a collective's: the size of its communicator */
	uint64_t coll_bytes;	/* and the bytes it sent and received */
	uint64_t bytes;		/* a send's, with PMPI_CALL_SIZED */
	bool timed;		/* its own work is timed (call.c; with PMPI_CALL_PB) */
	uint64_t own_ns;	/* that work before t0 */
	/* the compensation's delay at t0: its entry's compensated time is
	 * t0 less it, whatever the tool charged while the call waited */
	uint64_t x0;
	/* wait states (waits.c), added to its site as they grow: the
	 * latest sender of the messages it received (set with
	 * PMPI_CALL_WAITED), its collective's wait (PMPI_CALL_COLL_WAITED);
	 * measured and compensated ns */
	uint64_t late_sender, late_sender_comp;
	uint64_t late_sent;	/* when that latest sender's data left */
	uint64_t first_sent;	/* when the earliest's did (UINT64_MAX: none) */
	uint64_t wait, wait_comp;
};

/* Wrappers record (from MPI_Init, when profiling, until MPI_Finalize). */
extern atomic_bool pmpi_calls_on;

/*
 * The common case, whose calls need not ask the analyses' state at each
 * step: messages carry the core header alone on every communicator,
 * statuses read in place (PMPI_QUICK_WIRE); compensation
 * (PMPI_QUICK_COMP) and the critical path (PMPI_QUICK_CP) run without
 * option or shared cores; and one thread calls MPI (PMPI_QUICK_ALONE).
 * Each part says when it holds (from MPI_Init's end at most to
 * MPI_Finalize's entry).  The wrappers of the hottest calls (mpi-api.def's
 * quick) ask once at their entry (pmpi_way) and pass the way down their
 * steps, which then test nothing that it covers: one copy of the call for
 * the common case, one for the same with several threads calling MPI,
 * whose steps take the analyses' locks around what they share
 * (PMPI_QUICK_LOCKED), and one for the others, by the compiler.  Only the
 * calling thread's own calls change a part while it holds alone; with
 * several threads another may clear the wire's part meanwhile (a
 * communicator that carries no header is born), which leaves the call's
 * own communicator as it was.
 */
enum { PMPI_QUICK_WIRE = 1, PMPI_QUICK_COMP = 2, PMPI_QUICK_CP = 4, PMPI_QUICK_ALONE = 8,
       PMPI_QUICK_ALL = 15 };
extern unsigned pmpi_quick_parts;
void pmpi_quick_part(unsigned part, bool holds);
static inline enum pmpi_way pmpi_way(void)
{
	unsigned parts = __atomic_load_n(&pmpi_quick_parts, __ATOMIC_RELAXED);

	if (__builtin_expect(parts == PMPI_QUICK_ALL, 1))
		return PMPI_QUICK;
	return parts == (PMPI_QUICK_ALL & ~PMPI_QUICK_ALONE) ? PMPI_QUICK_LOCKED : PMPI_SLOW;
}
/* call.c: the entry of a call that pmpi_enter records, its facts set:
 * its site, its clock; MPI_Init's (PMPI_CALL_INIT), before MPI is up. */
void pmpi_open(struct pmpi_call *c, enum pmpi_way quick);
void pmpi_open_init(struct pmpi_call *c);
/* Begin a call; false means "just call PMPI" (not profiling, MPI
 * not initialised, or already inside a wrapper of this thread).  Cannot
 * fail.  Inline, with the wrapper's flags known: what the call is costs
 * the wrapper a few stores, and the entry a call less. */
static inline bool pmpi_enter(struct pmpi_call *c, unsigned fn, unsigned flags, const void *ra,
			      enum pmpi_way quick)
{
	if (pmpi_here.nesting ||
	    (!(flags & PMPI_CALL_INIT) && !atomic_load_explicit(&pmpi_calls_on, memory_order_relaxed)))
		return false;
	pmpi_here.nesting++;
	c->ra = ra;
	c->fn = fn;
	c->flags = flags;
	c->t_done = 0;
	if (flags & PMPI_CALL_INIT)
		pmpi_open_init(c);
	else
		pmpi_open(c, quick);
	return true;
}
/* How far the kernel has written the calling thread's sample ring
 * (rt_thread_head; 0 when the thread has none): it moved when a sample
 * was taken.  Read once at a call's entry for what looks at it then. */
uint64_t pmpi_ring_head_now(void);
/* End the call: time, blocked time, bytes, peers into its site. */
void pmpi_leave(struct pmpi_call *c, enum pmpi_way quick);
/* Wrappers record from now on (at MPI_Init, when profiling). */
void pmpi_calls_start(int world_size);
/* Wrappers only pass on from now on (profiling ended at MPI_Finalize). */
void pmpi_calls_stop(void);
/* The MPI library gave a thread level below MPI_THREAD_MULTIPLE: one
 * thread at a time calls MPI, so what only wrappers share needs no lock
 * (call.c, set at MPI_Init). */
extern bool pmpi_one_thread;

/* Whether a step of the general way runs its analyses as the locked way
 * does, under one hold of their lock, rather than each analysis taking
 * it: when several threads call MPI and the locked way holds (nothing
 * that the quick ways leave out). */
static inline bool pmpi_step_locks(enum pmpi_way quick)
{
	return !quick && __builtin_expect(!pmpi_one_thread, 0) && pmpi_way() == PMPI_QUICK_LOCKED;
}

/* Run `step`, a statement whose analyses run in way `held`, for a step of
 * a call in way `quick`, taking the analyses' lock once where they need
 * it (analyses-lock.h; the general way's as pmpi_step_locks says): a copy
 * of the step for each way, as the quick wrappers' are.  For a
 * point-to-point step or a call's entry: the general way of a collective
 * covers non-blocking ones, which the quick ways do not. */
#define PMPI_ANALYSES_STEP(quick, held, step)                                  \
	do {                                                                   \
		if (pmpi_step_locks(quick)) {                                  \
			const enum pmpi_way held = PMPI_QUICK_HELD;            \
                                                                               \
			pmpi_analyses_lock();                                  \
			step;                                                  \
			pmpi_analyses_unlock();                                \
		} else {                                                       \
			const enum pmpi_way held = pmpi_analyses_hold(quick);  \
                                                                               \
			step;                                                  \
			pmpi_analyses_release(held);                           \
		}                                                              \
	} while (0)

/* A lock that only wrappers take: none then.  A locked instruction right
 * after an MPI call waits for the call's stores to the lines its peer
 * polls, as long as a shared-memory message's latency. */
static inline void pmpi_lock(pthread_mutex_t *m)
{
	if (!pmpi_one_thread)
		pthread_mutex_lock(m);
}

static inline void pmpi_unlock(pthread_mutex_t *m)
{
	if (!pmpi_one_thread)
		pthread_mutex_unlock(m);
}

/* *x += v for a count that only wrappers change; the new value. */
static inline int64_t pmpi_add(int64_t *x, int64_t v)
{
	int64_t n;

	if (!pmpi_one_thread)
		return __atomic_add_fetch(x, v, __ATOMIC_RELAXED);
	n = __atomic_load_n(x, __ATOMIC_RELAXED) + v;
	__atomic_store_n(x, n, __ATOMIC_RELAXED);
	return n;
}

#endif
