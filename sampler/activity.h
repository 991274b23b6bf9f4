/*
 * activity.h - which of a process's threads were working when each
 * sample was taken (docs/threads.md), estimated from the samples alone.
 *
 * A thread sampled by a clock (or at a frequency) is sampled about every
 * `window` ns while it runs, and not at all while it is blocked.  So at
 * time t another thread counts as working when it has a sample within a
 * window of t that is not in a runtime's wait (spin-frames.h); a thread
 * between its start and its end that does not is idle.  A gap of more
 * than a window between two samples of a thread is time it was off its
 * CPU: idle, charged to the call path of the sample before the gap.
 *
 * A sample can be judged only once every thread's samples up to a window
 * after it are in: the drain thread adds the samples of all rings, then
 * resolves those older than the time it started draining less a window
 * (act_resolve).  Each resolved sample adds to its call-path node and its
 * thread, in thousandths of a sample of the classified event
 * (PROF_ACT_UNIT): sequential or concurrent (this thread working alone or
 * with others), spin, idle, the idleness of the others blamed on it
 * (idle / working threads, HPCToolkit's way) and the working threads.
 * A thread that spins while another works in a parallel region it
 * opened waits for that region (at its barrier): its spin, and its idle
 * time when it blocks meanwhile (judged at the middle of the gap), go to
 * the region's node, in the opening thread's call path.
 * Drain thread only (agg_lock held); unit-tested without a runtime.
 */
#ifndef CPPERF_ACTIVITY_H
#define CPPERF_ACTIVITY_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/profile.h"

struct act_sample {
	uint64_t t;		/* CLOCK_MONOTONIC ns */
	uint32_t node;		/* its call-path leaf */
	uint32_t region;	/* the node of the parallel region its thread
				 * opened and works in, CCT_NO_FRAME for none */
	bool spin;		/* in a runtime's wait */
};

struct act_thread {
	struct act_sample *v;	/* by time; [0, done) resolved, kept a while
				 * for the others' look-ups */
	uint32_t n, cap, done;
	uint64_t born, died;	/* died: 0 while it lives */
	bool team;		/* counts as idle when not working (not a
				 * library's service thread) */
	bool any;		/* a sample of it was resolved: last_* */
	uint64_t last_t;
	uint32_t last_node;
	/* when it worked in a parallel region it opened: runs of such
	 * samples, by time, kept while another thread's gap may cover them */
	struct act_span {
		uint64_t from, to;
		uint32_t region;
	} *spans;
	uint32_t nspans, spans_cap;
	double col[PROF_ACTS];	/* its totals, in samples */
	struct act_thread *next;
};

struct act_state {
	uint64_t window;	/* ns; 0: off */
	struct act_thread *threads;	/* all of them, the ended too */
	double *node;		/* [cap * PROF_ACTS], in samples */
	uint32_t cap;
	bool failed;		/* memory ran out: the columns are short */
};

/* Begin with samples every window_ns of running time (0: off). */
void act_start(struct act_state *a, uint64_t window_ns);
/* A thread's samples from now on; born: when its sampling began.
 * NULL when off or out of memory (its samples are then left out). */
struct act_thread *act_thread_new(struct act_state *a, uint64_t born, bool team);
void act_thread_end(struct act_thread *t, uint64_t died);
/* A sample of the classified event, in the thread's time order; region:
 * the node of the parallel region the thread opened and works in
 * (CCT_NO_FRAME: none). */
void act_sample(struct act_state *a, struct act_thread *t, uint64_t time, uint32_t node,
		uint32_t region, bool spin);
/* Judge the samples taken more than a window before horizon: every
 * thread's samples up to horizon are in.  UINT64_MAX judges them all. */
void act_resolve(struct act_state *a, uint64_t horizon);
/* The process ends at `end`: judge every sample, and count the idle time
 * from each thread's last sample to its end. */
void act_finish(struct act_state *a, uint64_t end);
/* The nodes with a value, in PROF_ACT_UNIT, by increasing node (*out
 * malloc'ed, NULL when none); -1 when memory is short. */
int act_nodes(const struct act_state *a, struct prof_act_node **out, uint32_t *n);
/* A thread's totals in PROF_ACT_UNIT. */
void act_thread_totals(const struct act_thread *t, uint64_t v[PROF_ACTS]);
void act_release(struct act_state *a);

#endif
