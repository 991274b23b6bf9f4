/*
 * rt.h - the runtime's state, shared by the files of the preloaded library.
 *
 * One struct rt_state per process (runtime.c owns it).  Application threads
 * only register and unregister themselves (under rt_state.lock); the drain
 * thread alone reads ring buffers and updates the profile (call-path tree,
 * symbol table, counters), so the profile needs no lock while running.
 */
#ifndef CPPERF_RT_H
#define CPPERF_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../common/profile.h"
#include "../symbolize/symbolize.h"
#include "clock.h"
#include "events.h"
#include "options.h"
#include "../common/owned-fd.h"
#include "ring.h"
#include "ring-budget.h"
#include "tag-log.h"
#include "activity.h"
#include "runtime-code.h"

#define CPPERF_EXPORT __attribute__((visibility("default")))

enum rt_thread_state { THREAD_RUNNING, THREAD_EXITED };

struct rt_state;

/*
 * What a layer above the sampler adds to the runtime, as callbacks (the MPI
 * layer, pmpi/, sets them at MPI_Init with rt_set_hooks; the runtime only
 * calls what is set): the runtime never names that layer.
 */
struct rt_hooks {
	/* Its statistics into rt->prof before the profile is written; final:
	 * what it hands over once, at the end (for MPI: the critical path,
	 * compensation, and "exit without MPI_Finalize" as the reason when no
	 * other is set).  A checkpoint calls it with final false and takes
	 * the tables back after writing (profile_release_mpi). */
	void (*fill_profile)(struct rt_state *rt, bool final);
	/* Unwind and symbolize what it captured since the last call (MPI call
	 * sites' paths).  Drain thread only, or the thread that ends the
	 * runtime after the drain thread stopped. */
	void (*resolve)(struct rt_state *rt);
	/* A sample taken at time (CLOCK_MONOTONIC) whose leaf is tree node
	 * `node`, with weights w per event (the critical-path profile).
	 * Drain thread only. */
	void (*sample)(struct rt_state *rt, uint64_t time, uint32_t node, const uint64_t *w);
	/* A sample of the first event (w, never 0; samples of the others are
	 * not told) taken in an interval the layer tagged (rt_thread_head):
	 * told once the interval is logged, which may be a fold after
	 * `sample`.  Drain thread only. */
	void (*tagged)(uint32_t tag, uint32_t node, uint64_t w);
	/* The drain thread's CPU time and switches (drain_cpu,
	 * drain_switches) were stored anew, before the call.  Drain thread
	 * only. */
	void (*published)(struct rt_state *rt);
};

/* How far the process's end has come (rt_state.end): who claims it writes
 * the final profile, the others wait for RT_END_WRITTEN. */
enum rt_end {
	RT_END_RUNNING,		/* no end yet: checkpoints go on */
	RT_END_CLAIMED,		/* rt_end_async is filling in the reason */
	RT_END_ASKED,		/* the drain thread is to write it */
	RT_END_FINISHING,	/* rt_finish writes it on its own thread */
	RT_END_WRITTEN,
};

struct rt_thread {
	pid_t tid;
	/* Per event of the list, -1 when not open or taken by the program
	 * (owned-fd.h: the kernel's ids tell ours apart); the ring's mapping
	 * keeps the events sampling without them. */
	int fds[EV_MAX];
	uint64_t ids[EV_MAX];	/* kernel ids, to tell events apart */
	/* The ring all sampling events of the thread write now: one of
	 * slots, a young thread's small first ring and the one it grows into
	 * (rt_thread_grow).  Neither slot is rewritten while the thread
	 * lives, so the thread itself may read either
	 * (rt_samples_pending_self). */
	struct ring *_Atomic ring;
	/* Where the ring's head is read (rt_thread_head): its page's
	 * data_head, or rt_no_head when it has none; set with ring
	 * (rt_thread_set_ring). */
	const __u64 *_Atomic head;
	struct ring slots[2];
	struct ring_plan plan;	/* the ring's size and the stack copied per sample */
	unsigned grow_to;	/* pages to grow to once it lives on, 0 none */
	uint64_t born;		/* CLOCK_MONOTONIC ns when its events opened */
	/* Young: drained on a timer, not polled (starting it then wakes
	 * nobody, ending it no hang-up), until it lives RT_GROW_NS. */
	bool timed;
	uint64_t last[EV_MAX];	/* group members' counts at the last sample */
	uint64_t samples[EV_MAX];	/* per-thread totals */
	uint64_t stack_lo, stack_hi;	/* live stack, 0 when unknown */
	_Atomic int state;	/* set by the thread, acted on by the drain thread */
	struct papi_thread *papi;	/* the PAPI backend's state, NULL for perf */
	void *altstack;		/* our alternate signal stack, NULL when none */
	struct rt_tag_log tags;	/* written by the thread (rt_thread_head) */
	struct rt_tag_wait tag_wait;	/* its samples waiting for their tag */
	/* Thread activity (activity.h): its record, made by the drain thread
	 * when it first sees the thread; whether a library started it for
	 * itself (runtime-code.h), set before it is registered; and when it
	 * ended (CLOCK_MONOTONIC ns, set by the thread, 0 before). */
	struct act_thread *act;
	bool service;
	atomic_uint_fast64_t died;
	struct rt_thread *next;
};

/* A checkpoint between its two steps (checkpoint.c); drain thread. */
struct rt_checkpoint {
	struct profile_out *out;
	char dir[PATH_MAX], name[384];
	uint64_t t0;		/* CLOCK_MONOTONIC ns at its start */
};

/* sample-cost.c: the drain thread's pairs that measure a sample's cost
 * along the run (rt_cost_probe_step). */
#define PROBE_KEPT 31	/* the last accepted pairs, whose median is charged */
struct cost_probe {
	atomic_bool on;		/* pairs are wanted (compensation, a software clock) */
	bool open;		/* the drain thread's events are */
	int fds[EV_MAX];
	uint64_t ids[EV_MAX];	/* the kernel's, to know them from the program's */
	uint64_t iters;		/* of a batch's work */
	uint64_t next;		/* when the next pair is due, CLOCK_MONOTONIC ns */
	int64_t kept[PROBE_KEPT];	/* ns a sample, the stack copy left out */
	unsigned n, at;		/* kept, and where the next goes */
	atomic_uint_fast64_t accepted, busy;	/* pairs kept, and rejected */
	atomic_uint_fast64_t lo, hi;	/* quartiles of kept, the copy added */
};

struct rt_state {
	pid_t pid;		/* process the state belongs to */
	atomic_bool active;	/* read by threads that begin and end meanwhile */
	struct rt_options opt;
	struct ev_list events;
	struct profile prof;	/* filled by the drain thread */
	struct sym_session *sym;
	pthread_mutex_t lock;	/* guards threads, retired and ending */
	bool ending;		/* rt_finish has begun: threads that begin or
				 * end from then on leave the lists alone */
	pthread_mutex_t agg_lock;	/* held while records are folded into prof
					 * (drain thread, or a thread draining its own) */
	struct rt_thread *threads;	/* threads with open events */
	struct rt_thread *retired;	/* closed; kept for their totals */
	/* What wakes the drain thread (threads changed, stop): a datagram
	 * socket connected to itself, which unlike an eventfd has an inode
	 * of its own to tell it from the program's files.  The drain thread
	 * replaces one the program took: it fills the other slot, then
	 * points wake at it, so that a waker never reads a half-written one. */
	struct owned_fd wake_slot[2];
	struct owned_fd *_Atomic wake;
	struct ring_budget rings;	/* locked memory for the threads' rings */
	atomic_uint unprofiled;	/* threads that could not be profiled */
	atomic_uint short_lived;	/* threads that ended younger than RT_GROW_NS, in a row */
	atomic_uint timed;	/* threads drained on a timer (rt_thread.timed) */
	/* The drain thread keeps their pace, timer_ms, until timer_until
	 * (CLOCK_MONOTONIC ns) after the last of them: threads that start
	 * and end one after another need not wake it each. */
	atomic_uint_fast64_t timer_until;
	int timer_ms;		/* drain thread */
	bool fds_said;		/* the notice that the program took our
				 * descriptors was given; drain thread */
	uint64_t next_fd_check;	/* CLOCK_MONOTONIC ns; drain thread */
	pthread_t drain;
	atomic_bool stop;
	atomic_uint_fast64_t drain_cpu;	/* the drain thread's CPU time so far, ns */
	atomic_uint_fast64_t drain_switches;	/* and its context switches */
	atomic_uint_fast64_t sample_cost_ns;	/* charged a sample now (sample-cost.c) */
	uint64_t ring_cost_ns;	/* what writing a sample into a ring adds, measured;
				 * 0: the estimate (rt_ring_cost_ns) */
	struct cost_probe probe;
	struct act_state act;	/* thread activity; drain thread, agg_lock */
	struct wait_frames waits;	/* which frames are a runtime's waits; likewise */
	const struct rt_hooks *_Atomic hooks;	/* NULL until a layer sets them */
	uint8_t *bounce;	/* drain thread's buffer for wrapped records */
	atomic_int end;		/* enum rt_end */
	char end_reason[64];	/* for RT_END_ASKED: why the process ends ("" normal) */
	uint64_t end_asked;	/* CLOCK_MONOTONIC ns when it was asked */
	uint64_t started;	/* CLOCK_MONOTONIC ns at start-up */
	uint64_t next_checkpoint;	/* CLOCK_MONOTONIC ns, 0 before the first; drain thread */
	bool checkpoint_failing;	/* the last checkpoint failed (said once); drain thread */
	struct rt_checkpoint ckpt;
	struct owned_fd live;	/* flock'ed .HOST.PID.START.live, fd -1 when none */
	char file[384];		/* the profile's name as last written, "" before */
};

/* perf-thread.c: open the event list for thread tid (0 = the caller) and
 * map its ring buffer; a young thread (one the program just created while
 * its threads end young, rt_thread_begin) starts with a small ring, cheap
 * to map, and grows it if it lives on.
 * Returns the thread or NULL after reporting why.  These hand PAPI
 * threads (rt_state.opt.backend) to papi-thread.c. */
struct rt_thread *rt_thread_open(struct rt_state *rt, pid_t tid, bool young);
/* The ring the thread's events write now. */
static inline struct ring *rt_thread_ring(const struct rt_thread *t)
{
	return atomic_load_explicit(&t->ring, memory_order_acquire);
}
/* How far the kernel has written the thread's ring: it moves with every
 * sample.  The thread tags an interval of its time (t->tags, whose tag
 * its samples then carry to rt_hooks.tagged) when this moved during it,
 * so that the log grows with the samples, not with the intervals.  A few
 * loads; the thread itself (its ring's slots stay mapped while it lives). */
static inline uint64_t rt_thread_head(const struct rt_thread *t)
{
	return __atomic_load_n(atomic_load_explicit(&t->head, memory_order_acquire),
			       __ATOMIC_ACQUIRE);
}
/* A head that never moves, for a thread without a ring (threads.c). */
extern const __u64 rt_no_head;
/* Make r (NULL: none) the ring the thread's events write now. */
static inline void rt_thread_set_ring(struct rt_thread *t, struct ring *r)
{
	atomic_store_explicit(&t->head, r && r->meta ? &r->meta->data_head : &rt_no_head,
			      memory_order_release);
	atomic_store_explicit(&t->ring, r, memory_order_release);
}
/* Give a young thread that has lived RT_GROW_NS its full ring, as the
 * budget allows; the drain thread, agg_lock held, the old ring drained. */
#define RT_GROW_NS 20000000ull
void rt_thread_grow(struct rt_state *rt, struct rt_thread *t);
/* drain.c: a young thread is drained on a timer until RT_GROW_NS, then
 * polled with a grown ring (drain thread, agg_lock held). */
void rt_thread_come_of_age(struct rt_state *rt, struct rt_thread *t);
/* Close the thread's events and unmap its ring; the struct (and its
 * totals) stays, owned by whoever holds it. */
void rt_thread_close(struct rt_state *rt, struct rt_thread *t);
/* Sampling of the thread begins (perf events are opened enabled; PAPI
 * starts its event set on the calling thread, t), or ends for good. */
void rt_thread_start(struct rt_thread *t);
void rt_thread_stop(struct rt_thread *t);
/* The calling thread, t, is exiting: what its backend must stop (the
 * kernel ends a thread's perf events itself; PAPI's state is released). */
void rt_thread_exiting(struct rt_thread *t);
/* Whether every descriptor the thread holds is still its event; and
 * forget those that are not (the program closed or replaced them). */
bool rt_thread_fds_mine(const struct rt_thread *t);
void rt_thread_forget_fds(struct rt_thread *t);
/* The perf backend's event list opened for the calling thread, enabled,
 * with no ring buffer (the kernel drops the samples): fds gets
 * rt->events.n descriptors; the leaders sample every period events when
 * period is not 0, else as the run does.  0, or -errno with nothing left
 * open.  For switch-cost.c and sample-cost.c; close with
 * rt_events_close_bare(rt, fds, rt->events.n). */
int rt_events_open_bare(const struct rt_state *rt, int *fds, uint64_t period);
void rt_events_close_bare(const struct rt_state *rt, int *fds, int n);

/* switch-cost.c: how much longer a context switch takes for a thread that
 * carries the run's events than for one without (ns); 0 when it cannot be
 * measured (PAPI backend, events refused, no threads). */
uint64_t rt_switch_cost_ns(const struct rt_state *rt);
/* sample-cost.c: what one sample costs the sampled thread (ns): the
 * kernel's interrupt, measured, and its record written into the ring
 * (rt_ring_write_ns); 0 when it is not measured (PAPI backend, events
 * refused, a sampling event other than task-clock or cpu-clock).
 * rt_ring_cost_ns measures what writing the record (in dwarf mode with
 * the stack copied into it) adds, 0 when it cannot (no ring allowed
 * either); rt_ring_write_ns is rt->ring_cost_ns, else an estimate of the
 * stack's copy. */
uint64_t rt_sample_cost_ns(const struct rt_state *rt);
uint64_t rt_ring_cost_ns(const struct rt_state *rt);
uint64_t rt_ring_write_ns(const struct rt_state *rt);
/* The cost charged a sample from now on: cost, replaced along the run by
 * the drain thread's measurements when probe (and the events allow);
 * rt_cost_probe_step takes a pair when one is due (drain thread), and
 * rt_cost_probe_end closes its events.  rt_sample_cost_now reads it. */
void rt_cost_probe_start(struct rt_state *rt, uint64_t cost, bool probe);
void rt_cost_probe_step(struct rt_state *rt);
void rt_cost_probe_end(struct rt_state *rt);
/* A forked child's copy of the drain thread's: closed, cleared. */
void rt_cost_probe_forget(struct rt_state *rt);
uint64_t rt_sample_cost_now(const struct rt_state *rt);

/* host-cost.c: measure(rt), once per host and experiment by the first rank
 * there while the others wait (<output>/.NAME.<run>.<host>), unless an
 * earlier run of this host and boot kept it (--cost-cache); fresh: the
 * kept ones only when measure says 0 (it could not). */
uint64_t rt_cost_shared(const struct rt_state *rt, const char *name,
			uint64_t (*measure)(const struct rt_state *), bool fresh);
/* Run the calling thread on cpu only; false when the kernel refuses. */
bool rt_pin_to_cpu(int cpu);

/* threads.c: profile the calling thread (0 on success; young: the
 * program just created it, rt_thread_open; service: a library started it
 * for itself, runtime-code.h), or the threads
 * that already exist besides the caller; the real pthread_create for
 * threads of our own that must not be profiled. */
int rt_thread_begin(struct rt_state *rt, bool young, bool service);
/* The calling thread's struct, NULL when it is not profiled. */
struct rt_thread *rt_thread_self(void);
void rt_threads_open_existing(struct rt_state *rt);
int rt_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg);

/* aggregate.c: fold one ring-buffer record into the profile. */
void rt_aggregate_record(struct rt_state *rt, struct rt_thread *t,
			 const struct perf_event_header *h);
/* aggregate.c: tell the layer above the tags of t's samples that waited
 * for them (rt_thread_head), now logged. */
void rt_aggregate_settle(struct rt_state *rt, struct rt_thread *t);

/* aggregate.c: the frames of lookup addresses addrs[0..n) (innermost
 * first, as sym_unwind gives them) into frames[0..max), outermost first,
 * inline chains expanded; returns the count.  Drain thread only. */
int rt_resolve_path(struct rt_state *rt, const uint64_t *addrs, int n, uint32_t *frames, int max);
/* aggregate.c: whether lookup address addr lies in the C library's
 * start of a thread (runtime-code.h).  Drain thread only. */
bool rt_start_address(struct rt_state *rt, uint64_t addr);

/* drain.c: start and stop the drain thread; rt_drain_stop drains what is
 * left in every ring first. */
int rt_drain_start(struct rt_state *rt);
void rt_drain_stop(struct rt_state *rt);
/* Wake the drain thread (async-signal-safe). */
void rt_drain_wake(struct rt_state *rt);
/* Close the wake socket (a forked child's copy, or at the end). */
void rt_wake_close(struct rt_state *rt);
/* Fold the calling thread's pending records into the profile now, on the
 * calling thread (the critical path needs a segment's samples at its
 * end).  No-op for a thread that is not profiled. */
void rt_drain_self(struct rt_state *rt);
/* A young thread t ends: it folds what its ring holds, unmaps the ring
 * and closes its events itself, where the unmapping interrupts no other
 * core; the drain thread later only moves it to the retired.  agg_lock
 * held by the caller. */
void rt_thread_retire_self(struct rt_state *rt, struct rt_thread *t);
/* Samples of the calling thread that the kernel has taken and the drain
 * thread has not begun to fold (0 when that is not known,
 * ring_samples_pending).  Costs a few loads: for each wrapped MPI call. */
uint64_t rt_samples_pending_self(const struct rt_state *rt);

/* runtime.c: the process's state, NULL before start-up. */
struct rt_state *rt_current(void);
/* The hooks of the layer above (set once, at its start), and what the
 * runtime reads: NULL when none is set. */
static inline void rt_set_hooks(struct rt_state *rt, const struct rt_hooks *h)
{
	atomic_store(&rt->hooks, h);
}

static inline const struct rt_hooks *rt_hooks(struct rt_state *rt)
{
	return atomic_load(&rt->hooks);
}

/* runtime.c: end profiling in this process now and write the final
 * profile, partial with reason when not NULL (normal exit, exec,
 * MPI_Abort); nothing happens when it already ended or the caller is not
 * the process that started it.  From inside a signal handler of the
 * program (an exit there) the drain thread writes it (rt_end_async). */
void rt_finish(const char *reason);
/* rt_finish(NULL), handing the final profile (as written) to p, which the
 * caller then owns; false when profiling had ended already (p untouched).
 * For the MPI layer's merge at MPI_Finalize: the profile ends there. */
bool rt_finish_take(struct profile *p);

/* checkpoint.c: the profile's file.  rt_live_open takes the lock that says
 * the process runs (start-up); when --checkpoint says one is due,
 * rt_checkpoint_start writes a checkpoint into its temporary file and
 * returns true (drain thread, agg_lock held: the profile is read), and
 * rt_checkpoint_commit then makes it durable and puts it in place (the
 * drain thread, agg_lock not held: the disk may be slow); rt_write_final fills
 * and writes the final profile, partial with reason when it is not NULL or
 * "" (the caller stopped sampling and claimed the end), and
 * rt_end_written says it is there (RT_END_WRITTEN); rt_end_wait_peers,
 * between the two on the drain thread, lets the other ranks of a job
 * ended from outside write theirs before this one dies; rt_write_none,
 * instead of rt_write_final, leaves no profile (its checkpoint and lock
 * go).  rt_move_output moves the files to dir (ranks agreeing on rank 0's
 * directory at MPI_Init). */
void rt_live_open(struct rt_state *rt);
/* Whether the lock is still held through our descriptor; if the program
 * took that, the lock is taken again on a new one (drain thread). */
bool rt_live_check(struct rt_state *rt);
bool rt_checkpoint_start(struct rt_state *rt);
void rt_checkpoint_commit(struct rt_state *rt);
void rt_write_final(struct rt_state *rt, const char *reason);
void rt_write_none(struct rt_state *rt);
void rt_end_written(struct rt_state *rt);
void rt_end_wait_peers(struct rt_state *rt);
void rt_move_output(struct rt_state *rt, const char *dir);
/* Claim the end for the calling thread (RT_END_FINISHING); false when
 * another thread claimed it first, after waiting for its final profile. */
bool rt_end_claim(struct rt_state *rt);
/*
 * Ask the drain thread for the final profile (partial with reason, or as
 * the MPI layer says when NULL) and wait for it at most 2 s; when the end
 * was claimed already, only wait.  Async-signal-safe.
 */
void rt_end_async(struct rt_state *rt, const char *reason);

/* signals.c: our handlers for the fatal signals, behind the program's own
 * dispositions (start-up).  rt_in_program_handler: the calling thread runs
 * a handler of the program.  rt_lock/rt_unlock guard the locks that the
 * final write takes: a fatal asynchronous signal that arrives while the
 * thread holds one is handled when it lets go. */
void rt_signals_install(void);
bool rt_in_program_handler(void);
/* An alternate signal stack for the calling thread when it has none (our
 * handler then runs after a stack overflow), NULL otherwise; released at
 * the thread's exit by rt_altstack_end, unless the program replaced it. */
void *rt_altstack_begin(void);
void rt_altstack_end(void *stack);
void rt_lock(pthread_mutex_t *m);
void rt_unlock(pthread_mutex_t *m);

/* mpi-missed.c: at the end of a complete run, a notice when the program
 * loaded an MPI library that this runtime has no wrappers for
 * (cpperf-record chose it from the libraries the program it started
 * links). */
void rt_mpi_missed_notice(const struct rt_state *rt);

/* runtime.c: one "cpperf: " line on stderr unless quiet (never stdout). */
void rt_notice(const struct rt_state *rt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
