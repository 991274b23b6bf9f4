/*
 * papi.h - the PAPI backend (--backend=papi): sampling through PAPI's
 * overflow mechanism with PAPI event names (PAPI_TOT_CYC, or native names
 * such as perf::TASK-CLOCK).
 *
 * papi.c knows names, thresholds and whether PAPI can sample here; it is
 * shared by cpperf-record (which checks before the program starts) and the
 * runtime.  papi-thread.c starts and stops sampling per thread and holds
 * the overflow handler.  papi-record.c writes what the handler saw as a
 * PERF_RECORD_SAMPLE into a user-space ring with the perf mmap layout, so
 * the drain thread reads PAPI threads exactly as it reads perf threads.
 *
 * Without PAPI (HAVE_PAPI=0) the functions of papi.c and papi-thread.c
 * exist and fail with "this cpperf was built without PAPI".  Error messages
 * follow events.h: one line, lower case, no prefix.
 */
#ifndef CPPERF_PAPI_H
#define CPPERF_PAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <ucontext.h>

#include "events.h"
#include "options.h"
#include "ring.h"

/* Used when the user names no event: PAPI_TOT_CYC where PAPI can count
 * it, else this software event (nanoseconds of the thread's CPU time). */
#define PAPI_DEFAULT_EVENT "PAPI_TOT_CYC"
#define PAPI_FALLBACK_EVENT "perf::TASK-CLOCK"

/* The largest record: perf_event_header.size is 16 bits. */
#define PAPI_RECORD_MAX 65528

struct rt_state;
struct rt_thread;

/*
 * cpperf-record's check, before the program starts: the options suit PAPI
 * (no --call-graph=fp; -F only for events whose threshold follows from a
 * frequency, see papi_threshold), every name of o->events is known to
 * PAPI, and an event set with all of them starts with overflow enabled.
 * Returns 0, or -1 with a message saying what to do instead.
 */
int papi_check(const struct rt_options *o, char *err, size_t errlen);

/*
 * The runtime's start: initialise PAPI for threads (once per process; a
 * forked child cannot, PAPI keeps its parent's state) and fill out with the
 * event list: the PAPI names as given, each its own leader, every event
 * sampling.  Returns 0, or -1 with a message.
 */
int papi_start(const struct rt_options *o, struct ev_list *out, char *err, size_t errlen);

/*
 * The overflow threshold (events per sample) for event name: -c N as given;
 * with -F HZ, CPU max MHz * 10^6 / HZ for PAPI_TOT_CYC and 10^9 / HZ for
 * the nanosecond clocks perf::TASK-CLOCK and perf::CPU-CLOCK; any other
 * event needs -c.  Returns 0, or -1 with a message.  PAPI must be
 * initialised.
 */
int papi_threshold(const struct rt_options *o, const char *name, int *threshold,
		   char *err, size_t errlen);

/*
 * papi-thread.c: open the event list for the calling thread (tid 0; threads
 * that existed before start-up cannot be sampled through PAPI) and make its
 * ring.  Returns the thread, or NULL after a notice saying why.
 */
struct rt_thread *papi_thread_open(struct rt_state *rt, pid_t tid);

/* Start sampling (on the thread itself), or stop for good: on the thread
 * itself this also releases the thread's PAPI state; from another thread
 * it only stops the handler from writing. */
void papi_thread_enable(struct rt_thread *t, bool on);

/* Release the thread's ring and PAPI state (idempotent; t->papi becomes
 * NULL).  The small per-thread block the handler can still reach is kept
 * when the thread is alive and was not stopped by itself. */
void papi_thread_close(struct rt_thread *t);

/* papi-record.c: what the overflow handler saw. */
struct papi_sample_src {
	uint64_t id;		/* the event's synthetic id (rt_thread.ids) */
	uint64_t ip;		/* sampled address; 0 = the context's rip */
	uint32_t pid, tid;
	const ucontext_t *uc;	/* registers at the interrupt */
	uint64_t stack_lo, stack_hi;	/* the thread's stack; 0, 0 = unknown */
};

/*
 * Write a PERF_RECORD_SAMPLE laid out as sample_type_for(cg) says into buf
 * (8-byte aligned, cap bytes): read with nr = 0; for CG_DWARF the user
 * registers in perf's order and up to stack_size bytes of stack from rsp,
 * copied only within [stack_lo, stack_hi).  Returns the record's size, or 0
 * when cg is CG_FP or cap is too small.  Async-signal-safe.
 */
size_t papi_record_build(const struct papi_sample_src *s, enum opt_call_graph cg,
			 uint32_t stack_size, uint8_t *buf, size_t cap);

/* Make r a user-space ring with the perf mmap layout: a header page and a
 * data area of bytes (a power of two, at least two largest records).
 * Returns 0 or -errno; ring_unmap releases it. */
int papi_ring_create(struct ring *r, size_t bytes);

/*
 * Append the record rec (len bytes, a multiple of 8) to r, publishing it
 * with a release store of data_head.  When *lost is non-zero a
 * PERF_RECORD_LOST with that count goes first and *lost is cleared; when
 * there is no room the record is dropped and counted in *lost.  Returns
 * true when rec was written.  Async-signal-safe; one writer per ring.
 */
bool papi_ring_put(struct ring *r, const void *rec, size_t len, uint64_t *lost);

/* Bytes written and not yet consumed. */
uint64_t papi_ring_used(const struct ring *r);

#endif
