/*
 * ring-budget.h - how much locked memory each thread's ring buffer and
 * stack copies may take.
 *
 * The kernel counts a perf ring buffer as locked memory: first against the
 * user's share (kernel.perf_event_mlock_kb per CPU, for all the user's
 * processes together), then against the process's RLIMIT_MEMLOCK; an
 * unprivileged user's mmap fails past both.  An ordinary user gets 8 MiB
 * or so, which a few threads with large rings would exhaust.  So each new
 * thread's ring is sized from the limit and the threads that hold rings
 * (smaller as there are more of them), the stack copy shrinks when even a
 * small ring could not hold two samples, and a map that fails all the same
 * is retried smaller before the thread is given up (docs/record.md,
 * "Locked memory").
 */
#ifndef CPPERF_RING_BUDGET_H
#define CPPERF_RING_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"

/* One thread's ring: data pages (a power of two) and the bytes of user
 * stack each sample copies (dwarf mode). */
struct ring_plan {
	unsigned pages;
	uint32_t stack_size;
};

/* The process's budget; ring_budget_init fills it, any thread plans. */
struct ring_budget {
	uint64_t limit;		/* bytes the rings may lock, UINT64_MAX: no limit */
	uint64_t rlimit_kib;	/* RLIMIT_MEMLOCK, for the notice (UINT64_MAX: none) */
	uint64_t mlock_kib;	/* kernel.perf_event_mlock_kb, 0 when unknown */
	struct ring_plan full;	/* what a thread gets when memory is plenty */
	atomic_uint_fast64_t used;	/* bytes mapped now */
	atomic_uint nrings;	/* threads holding a ring now */
	atomic_bool short_said;	/* the notice that memory is short was given */
};

/* Read the limits for options o (the plan of a thread with memory to
 * spare follows from the rate, the call-graph mode and --mmap-pages). */
void ring_budget_init(struct ring_budget *b, const struct rt_options *o);
/* The plan for a thread about to map its ring. */
struct ring_plan ring_budget_plan(const struct ring_budget *b, const struct rt_options *o);
/* A young thread's first ring under plan p: two samples, the stack copy
 * trimmed so that two fit a power of two of pages (16 KiB stacks: 32 KiB
 * and 15.5 KiB).  Mapping costs microseconds a page, and most young
 * threads end soon; the stack copy stays when the ring grows. */
struct ring_plan ring_plan_young(const struct ring_plan *p, const struct rt_options *o);
/* The next smaller plan after the kernel refused p; false when p was the
 * smallest there is. */
bool ring_plan_shrink(struct ring_plan *p, const struct rt_options *o);
/* How long (ms) a ring of plan p takes to fill at the run's rate (the
 * default rate when the run samples every N events). */
uint64_t ring_plan_fill_ms(const struct ring_plan *p, const struct rt_options *o);
/* A ring of p.pages was mapped (taken) or unmapped (given back). */
void ring_budget_take(struct ring_budget *b, unsigned pages);
void ring_budget_give(struct ring_budget *b, unsigned pages);
/* Whether p copies less stack than a thread with memory to spare does,
 * the first time that happens (the caller says so, once): a smaller ring
 * only means more wake-ups, fewer stack bytes fewer frames unwound. */
bool ring_budget_first_short(struct ring_budget *b, const struct ring_plan *p);

#endif
