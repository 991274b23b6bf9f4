/*
 * profile.h - one process's profile, in memory and on disk.
 *
 * This is the only thing the runtime (sampler/, symbolize/) and the report
 * tool (report/) share.  The runtime fills a struct profile and writes it
 * with profile_write(); cpperf report reads it back with profile_read().
 * The on-disk format is described in docs/format.md.  A file is written
 * under a temporary name and renamed into place, and it ends in a trailer
 * carrying its length and CRC-32, so a crash or a full disk never leaves a
 * file that profile_read() accepts as whole.
 */
#ifndef CPPERF_PROFILE_H
#define CPPERF_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include "cct.h"
#include "symtab.h"

#define PROFILE_VERSION 13
#define PROFILE_VERSION_MIN 7	/* versions 8 to 13 only added records */
#define PROFILE_VERSION_FOLDS 10	/* fold points (cp_folds ...; cp_prefix) */
#define PROFILE_VERSION_WAITS 11	/* wait states (mpi_wait, mpi_slot, mpi_pair, clock),
					 * activity graph (mpi_edge) */
#define PROFILE_VERSION_GRAPH 12	/* completion edges (mpi_done), the call
					 * paths of computation edges (mpi_edge_path) */
#define PROFILE_VERSION_ACT 13	/* thread activity (act, act_thread, act_node),
				 * the threads of MPI call sites (mpi_thread) */
#define PROFILE_SUFFIX ".cpprof"

struct prof_event {
	char *name;		/* as the user wrote it, e.g. "task-clock" */
	uint64_t period;	/* sampling period, 0 when frequency is used */
	uint64_t freq;		/* sampling frequency in Hz, 0 when period is used */
	uint32_t leader;	/* index of the group leader (own index if none) */
};

/*
 * Thread activity (docs/threads.md): what the samples of one event (the
 * profile's act_event) say of the process's threads at the time of each.
 * X(name) in record order; values in 1/PROF_ACT_UNIT samples of that event:
 * sequential and concurrent, samples of a working thread alone or with
 * others working; spin, samples in a runtime's wait; idle, the samples the
 * thread would have had while it was off its CPU; idle_blame, the other
 * threads' idleness at its working samples, idle / working threads each;
 * working, the working threads at its working samples (their sum).
 */
#define PROF_ACT_COLS(X) X(sequential) X(concurrent) X(spin) X(idle) X(idle_blame) X(working)

enum prof_act_col {
#define PROF_ACT_ENUM(k) PROF_ACT_##k,
	PROF_ACT_COLS(PROF_ACT_ENUM)
#undef PROF_ACT_ENUM
	PROF_ACTS
};
#define PROF_ACT_UNIT 1000

extern const char *const prof_act_names[PROF_ACTS];

/* A call-path node's activity (a node of the tree). */
struct prof_act_node {
	uint32_t node;
	uint64_t v[PROF_ACTS];
};


struct prof_thread {
	uint64_t tid;
	uint64_t *samples;	/* [nevents] */
	int64_t rank;		/* a merged profile's: the thread's rank; else 0 */
	uint64_t act[PROF_ACTS];	/* its activity (act_on) */
};

/* Message-size histogram buckets: bucket 0 counts empty messages, bucket k
 * (1 <= k < PROF_MPI_HIST) sizes in [2^(k-1), 2^k), the last also larger. */
#define PROF_MPI_HIST 32

/*
 * Wait states (docs/waits.md): the part of a call's blocked time that a
 * partner's lateness caused, in Scalasca's categories, measured at the
 * rank's own call sites.  X(name) in record order.  Late Receiver is the
 * sender's, measured by its receiver: it is a pair's (struct prof_mpi_pair).
 */
#define PROF_WAIT_KINDS(X) X(late_sender) X(late_sender_wrong_order) X(wait_nxn) \
	X(wait_barrier) X(late_broadcast) X(early_reduce)

enum prof_wait_kind {
#define PROF_WAIT_ENUM(k) PROF_WAIT_##k,
	PROF_WAIT_KINDS(PROF_WAIT_ENUM)
#undef PROF_WAIT_ENUM
	PROF_WAITS
};

struct prof_mpi_waits {
	uint64_t ns[PROF_WAITS];	/* measured, ns */
	uint64_t comp_ns[PROF_WAITS];	/* the same in compensated time (comp_on) */
};

/* The kinds' names, "late_sender" ..., and with "_comp" (their compensated
 * values): the record fields', the report's keys. */
extern const char *const prof_wait_names[PROF_WAITS];
extern const char *const prof_wait_comp_names[PROF_WAITS];

/* One MPI call site: an MPI function called from one call path. */
struct prof_mpi_site {
	char *function;		/* "MPI_Send" */
	uint32_t *frames;	/* call path, outermost first, ids into syms.frames */
	uint32_t nframes;
	uint64_t calls;
	uint64_t bytes_sent, bytes_recv;
	uint64_t time_ns;	/* inside the call */
	uint64_t blocked_ns;	/* of that, waiting for a partner */
	uint64_t hist[PROF_MPI_HIST];	/* sizes of the messages it sent or received */
	struct prof_mpi_waits waits;	/* its wait states (since version 11) */
	/* the threads that called it, at most (a merged profile: in any one
	 * rank), and the calls of the processes' main threads (since version
	 * 13; before, 1 and calls) */
	uint64_t threads, main_calls;
};

/* Whether site s has an mpi_thread record: other threads than one, the
 * main thread, called it (0 threads: not known, as none). */
static inline bool prof_mpi_site_threaded(const struct prof_mpi_site *s)
{
	return s->threads > 1 || (s->threads == 1 && s->main_calls != s->calls);
}

/* A slot of the rank's call-site table (what the piggyback names a site
 * by) and the site it became: a receiver's pair names the sender's site
 * by its slot.  Several slots may make one site. */
struct prof_mpi_slot {
	uint32_t slot;
	uint32_t site;		/* index into mpi_sites */
	int64_t rank;		/* a merged profile's: the slot's rank; else 0 */
};

/* Messages one sender's call site sent to one receiving site of this rank
 * (docs/waits.md "What is measured"), and the wait states they caused. */
struct prof_mpi_pair {
	uint32_t site;		/* the receiving site, index into mpi_sites */
	int64_t send_rank;	/* the sender's world rank ... */
	uint32_t send_slot;	/* ... and its site's slot (its mpi_slot records) */
	uint64_t count, bytes;
	/* Late Sender at the receiving site; Late Receiver at the sending
	 * one (a synchronous send that waited for this receive); measured and
	 * compensated, ns */
	uint64_t late_sender_ns, late_sender_comp_ns;
	uint64_t late_receiver_ns, late_receiver_comp_ns;
	int64_t rank;		/* a merged profile's: the receiving rank; else 0 */
};

/* The activity graph's edges (docs/graph.md). */
enum prof_edge_kind {
	/* a thread's time from the exit of a call of one site to the entry
	 * of its next call, of another (or the same) site: mpi_edge */
	PROF_EDGE_COMPUTE,
	/* non-blocking requests started at one site and completed at
	 * another (or the same), and the time between: mpi_done */
	PROF_EDGE_COMPLETE,
};

struct prof_mpi_edge {
	uint32_t from, to;	/* indices into mpi_sites */
	uint64_t count, time_ns;
	int64_t rank;		/* a merged profile's: the edge's rank; else 0 */
	uint8_t kind;		/* enum prof_edge_kind */
};

/* A call path sampled in a computation edge: the samples of the first
 * event whose leaf is node, taken in the edge's computation. */
struct prof_mpi_edge_path {
	uint32_t edge;		/* index into mpi_edges, a PROF_EDGE_COMPUTE one */
	uint32_t node;		/* of the tree */
	uint64_t samples;
};

/* Point-to-point messages this rank sent to one peer (a world rank). */
struct prof_mpi_peer {
	int64_t peer;
	uint64_t count, bytes;
	int64_t src;		/* a merged profile's: the sender; else 0 */
};

/* Collective calls of one function on communicators of one size. */
struct prof_mpi_coll {
	char *function;
	int64_t comm_size;
	uint64_t calls, bytes, time_ns;
};

/*
 * Critical path (docs/format.md "Critical path", docs/critical-path.md).
 * A rank's events are its wrapped MPI calls in order of entry: event 0 is
 * MPI_Init (or Init_thread), whose exit starts every rank's path at length
 * 0; the last event is MPI_Finalize.  Segment e (e >= 1) is the rank's time
 * between the exit of event e-1 and the entry of event e; at the entry of e
 * the path length grows by that segment's length, and at the exit of e it
 * becomes a remote rank's length when a message or collective brought a
 * strictly longer one (a link).
 */
struct prof_cp_link {		/* a completion where the remote path won */
	uint64_t event;		/* at the exit of this local event ... */
	int64_t rank;		/* ... the path came from this world rank's */
	uint64_t from;		/* event `from` (its entry, its segment included) */
};

struct prof_cp_seg {		/* samples of one segment under one tree node */
	uint64_t seg;
	uint32_t node;		/* call-path tree node id (0: root) */
	uint64_t *counts;	/* [nevents], like the node's self counts */
};

struct prof_cp_prefix {		/* the path up to the last fold point: samples under */
	uint32_t node;		/* one call-path tree node */
	uint64_t *counts;	/* [nevents], like the node's self counts */
};

struct prof_cp_event {		/* --cp-trace: every event */
	uint64_t event;
	uint64_t seg_ns;	/* length of segment `event` as the path took it */
	uint64_t t_entry, t_exit;	/* CLOCK_MONOTONIC ns */
};

struct prof_cp_edge {		/* --cp-trace: every dependency of an event's exit */
	uint64_t event;		/* local event */
	int64_t rank;		/* sender (world rank) */
	uint64_t from;		/* sender's event */
};

/*
 * Critical-path zeroing (--cp-functions, --cp-auto; docs/critical-path.md
 * "Zeroing"): for each selected function f the rank keeps a net length
 * N_f, its longest path with f's time removed, and a share S_f, f's time
 * along the path that L follows.
 */
#define PROF_CP_FNS 8

enum prof_cp_how {		/* how a rank started zeroing */
	PROF_CP_FN_NONE,	/* never: no function selected or none reached it */
	PROF_CP_FN_INIT,	/* at the exit of event 0 (--cp-functions) */
	PROF_CP_FN_ENTRY,	/* at the entry of event cp_fn_start (--cp-auto's decider) */
	PROF_CP_FN_MERGE,	/* at the exit of cp_fn_start, by a piggyback that had started */
};

struct prof_cp_fn {
	char *name;		/* function name, as in frame records */
	uint64_t net_ns;	/* N_f at the entry of the rank's last event */
	uint64_t share_ns;	/* S_f at the entry of the rank's last event */
};

struct prof_cp_point {		/* --cp-interval: the run's path length so far */
	uint64_t t_ns;		/* since the exit of event 0 on the monitor rank */
	uint64_t length_ns;
};

/*
 * Measured overhead and parallel compensation (docs/compensation.md;
 * Malony, Shende, Morris, Wolf): MPI ranks with the piggyback on.  The
 * rank's own overhead o is the sum of the sources below; its delay x is
 * how much later than without measurement its next event happens, carried
 * on every message and merged at every receive and collective.
 */
/*
 * The overhead sources, one line each: X(NAME, COUNT, COST, HOW).  NAME_ns
 * in struct prof_overhead is what the source charged; COUNT the count it
 * is made of and COST the cost of one (members, or none); HOW what the
 * text report says of it.  The profile's scalars, the sum o, the text rows
 * and the JSON keys are made from this list.
 */
#define PROF_OVH_SOURCES(X) \
	X(sample, samples, sample_cost_ns, "samples x kernel cost measured in the run (median)") \
	X(wrapper, calls, call_cost_ns, "calls x their own work, timed on a few of them (median)") \
	X(piggyback, none, none, "measured (headers, data behind them, collective companions)") \
	X(drain, none, none, "measured (the drain thread, and unwinding on the rank's thread)") \
	X(inject, none, none, "measured (CPPERF_INJECT_*)") \
	X(switch, switches, switch_cost_ns, "context switches (the drain thread's, and waits' turns on shared cores) x cost calibrated at MPI_Init") \
	X(contention, none, none, "not charged (waits for a CPU)")

struct prof_overhead {
	uint64_t samples;	/* samples of the rank's threads charged below */
	uint64_t sample_ns;	/* taking them: samples x sample_cost_ns */
	uint64_t sample_cost_ns;	/* the kernel's cost of one sample, measured */
	uint64_t calls;		/* wrapped MPI calls charged below */
	uint64_t wrapper_ns;	/* the wrappers' own work, estimated per call */
	uint64_t call_cost_ns;	/* wrapper_ns / calls, rounded down */
	uint64_t piggyback_ns;	/* the collectives' piggyback companions: measured */
	uint64_t drain_ns;	/* samples folded on the rank's own thread: measured */
	uint64_t inject_ns;	/* CPPERF_INJECT_SAMPLE_NS / _MPI_NS: busy time added */
	uint64_t switches;	/* context switches of the drain thread charged below */
	uint64_t switch_ns;	/* switches x switch_cost_ns */
	uint64_t switch_cost_ns;	/* extra cost of one context switch of a profiled
				 * thread, calibrated at MPI_Init */
	uint64_t contention_ns;	/* 0: waits for a CPU are not charged; kept for the
				 * layout */
};

/*
 * Merged profiles (--merge=mpi; docs/format.md "Merged profiles"): the
 * profiles of `merged` ranks reduced into one at MPI_Finalize.  The tree,
 * the call sites (their wait states too) and the collectives are summed;
 * threads, point-to-point pairs, slots, site pairs and activity-graph
 * edges keep their rank (and their sites are the merged profile's); each
 * rank keeps a row of what the report shows per rank (struct prof_rank);
 * and every tree node, call site and function
 * keeps its spread over the ranks (struct prof_spread), a rank without it
 * counting 0.
 */
struct prof_spread {
	uint32_t ranks;		/* ranks that have it */
	uint64_t min, max;	/* over those ranks */
	int64_t max_rank;	/* the lowest rank holding max; -1 when max is 0 */
};

/* The values of a prof_rank row, in record order: X(field). */
#define PROF_RANK_VALUES(X) \
	X(start_ns) X(end_ns) X(cpu_ns) X(mpi_wall_ns) X(mpi_cpu_ns) X(mpi_ns) \
	X(blocked_ns) X(cp_events) X(cp_length_ns) X(cp_wall_ns) X(comp_on) \
	X(comp_wall_ns) X(comp_delay_ns) X(comp_wait_ns) X(comp_wait_comp_ns)
/* ...and those version 9 added after them, before the overhead words. */
#define PROF_RANK_VALUES_9(X) \
	X(comp_sample_probes) X(comp_sample_probes_busy) X(comp_sample_cost_lo_ns) \
	X(comp_sample_cost_hi_ns)

struct prof_rank {
	int64_t rank, pid;
	char *host;
#define PROF_RANK_FIELD(f) uint64_t f;
	PROF_RANK_VALUES(PROF_RANK_FIELD)
	PROF_RANK_VALUES_9(PROF_RANK_FIELD)
#undef PROF_RANK_FIELD
	/* mpi_ns, blocked_ns: its call sites' time and blocked time, but
	 * MPI_Init's and MPI_Finalize's (prof_mpi_region_time) */
	int64_t clock_offset_ns, clock_drift_ns;	/* since version 11 */
	struct prof_overhead ovh;
};

/* Self samples of the first event in one function (the frames of one name
 * in one module), over the ranks: sum and spread. */
struct prof_fn_spread {
	uint32_t frame;		/* one frame of the function */
	uint64_t sum;
	struct prof_spread s;
};

/*
 * A rank whose own call-path tree a merged profile keeps: every rank of a
 * job of up to PROF_KEEP_ALL ranks; of a larger one rank 0 and the ranks
 * that compute most and least (MPI region less time in MPI, the lower rank
 * on a tie), the ranks whose trees the report's page shows.  The reduction
 * keeps them in every subtree, so the choice does not depend on its order.
 */
#define PROF_KEEP_ALL 16
struct prof_kept {
	int64_t rank;
	uint64_t *self;		/* [tree.nnodes * nevents]: its self counts */
};

/* struct prof_overhead as the words a record carries */
#define PROF_OVH_WORDS ((uint32_t)(sizeof(struct prof_overhead) / sizeof(uint64_t)))

struct profile {
	char **argv;		/* command line of the profiled image */
	uint32_t argc;
	char *host;
	int64_t pid;
	int64_t rank;		/* MPI rank, -1 when not an MPI process */
	int64_t size;		/* MPI size, 0 when not an MPI process */
	uint64_t start_ns, end_ns;	/* CLOCK_REALTIME */
	char *backend;		/* "perf" or "papi" */
	char *call_graph;	/* "dwarf", "fp" or "none" */
	char *run;		/* the run's identity, shared by all its processes */
	char *partial;		/* why the profile ends early ("signal SIGTERM",
				 * "checkpoint", ...); NULL or "" when whole */

	struct prof_event *events;
	uint32_t nevents;

	uint64_t samples;	/* samples taken (all events) */
	uint64_t lost;		/* samples the kernel dropped (ring buffer full) */
	uint64_t throttled;	/* throttle records seen */
	uint64_t unwind_complete, unwind_truncated;
	uint64_t unwind_ns;	/* drain thread CPU time folding records: decoding,
				 * unwinding, resolving, adding samples */
	uint64_t drain_cpu_ns;	/* CPU time of the drain thread, all of it */
	uint64_t checkpoints;	/* checkpoints written before this file */
	uint64_t checkpoint_ns;	/* drain thread time spent writing them */

	struct prof_thread *threads;
	uint32_t nthreads;

	struct symtab syms;
	struct cct tree;	/* tree.nevents == nevents */

	/* Thread activity (since version 13; docs/threads.md): act_on 1 when
	 * the samples of event act_event were classified, a thread counting
	 * as working within act_window_ns of its samples; then the threads'
	 * act and these nodes hold it. */
	uint64_t act_on, act_event, act_window_ns;
	struct prof_act_node *act_nodes;	/* by increasing node, none all 0 */
	uint32_t nact_nodes;

	/* MPI processes only (rank >= 0); all zero/NULL otherwise, except
	 * cpu_ns, which any process may fill. */
	char *mpi_library;	/* MPI_Get_library_version's first line */
	uint64_t cpu_ns;	/* process CPU time, user + system */
	/* The MPI region: exit of MPI_Init to entry of MPI_Finalize, or to
	 * end_ns when the process ended without it; 0 when not reached. */
	uint64_t mpi_wall_ns;	/* its wall time */
	uint64_t mpi_cpu_ns;	/* process CPU time in it */
	struct prof_mpi_site *mpi_sites;
	uint32_t nmpi_sites;
	struct prof_mpi_peer *mpi_peers;
	uint32_t nmpi_peers;
	struct prof_mpi_coll *mpi_colls;
	uint32_t nmpi_colls;
	/* Wait states (since version 11): the slots of the call-site table,
	 * the pairs of sites that sent this rank messages, and the clocks:
	 * this rank's offset to rank 0's clock as measured at MPI_Init (0 on
	 * rank 0's host), and how far it had moved by MPI_Finalize (0 when
	 * not measured again). */
	struct prof_mpi_slot *mpi_slots;
	uint32_t nmpi_slots;
	struct prof_mpi_pair *mpi_pairs;
	uint32_t nmpi_pairs;
	struct prof_mpi_edge *mpi_edges;	/* no two with one (from, to, kind[, rank]) */
	uint32_t nmpi_edges;
	struct prof_mpi_edge_path *mpi_edge_paths;	/* no two with one (edge, node) */
	uint32_t nmpi_edge_paths;
	int64_t clock_offset_ns, clock_drift_ns;

	/* Critical path; cp_events == 0 when not computed (not MPI, or
	 * --no-piggyback), and then every table below is empty. */
	uint64_t cp_events;	/* events of the rank, MPI_Init to MPI_Finalize */
	uint64_t cp_length_ns;	/* path length at the entry of the last event */
	uint64_t cp_wall_ns;	/* exit of event 0 to entry of the last event */
	uint64_t cp_trace;	/* 1: cp_ev and cp_edge records are complete */
	uint64_t cp_budget;	/* bytes of path records the rank could keep, 0 no limit */
	uint64_t cp_cut;	/* 0: every link and segment kept; else the first
				 * event whose link and segment are (older ones
				 * were dropped past cp_budget; segments stay with
				 * cp_trace) */
	struct prof_cp_link *cp_links;	/* at most one per event, by event */
	uint32_t ncp_links;
	struct prof_cp_seg *cp_segs;	/* no two with the same (seg, node) */
	uint32_t ncp_segs;
	/* Fold points (docs/critical-path.md "Fold points"): the path up to
	 * the last was resolved during the run and its samples summed by
	 * node (cp_prefix); links and, without cp_trace, segments up to the
	 * rank's event of that fold point were dropped.  All 0 without one. */
	uint64_t cp_folds;	/* fold points resolved */
	uint64_t cp_fold_event;	/* the rank's event of the last */
	uint64_t cp_fold_ns;	/* the path's length there */
	int64_t cp_gap_rank;	/* with cp_gap_event not 0: a fold's walk met */
	uint64_t cp_gap_event;	/* records this rank had dropped past its budget
				 * before this event, and the prefix starts there */
	struct prof_cp_prefix *cp_prefix;	/* by increasing node */
	uint32_t ncp_prefix;
	struct prof_cp_event *cp_evs;	/* --cp-trace: events 1.. in order */
	uint32_t ncp_evs;
	struct prof_cp_edge *cp_edges;	/* --cp-trace */
	uint32_t ncp_edges;
	uint64_t cp_fn_how;	/* enum prof_cp_how */
	uint64_t cp_fn_start;	/* event of PROF_CP_FN_ENTRY/MERGE, else 0 */
	struct prof_cp_fn *cp_fns;	/* selection order; empty when how is NONE */
	uint32_t ncp_fns;
	struct prof_cp_point *cp_points;	/* monitor rank (0) only */
	uint32_t ncp_points;

	/* Overhead and compensation; all zero when not computed (not MPI, or
	 * --no-piggyback: then comp_on is 0). */
	uint64_t comp_on;	/* 1: the fields below are measured */
	struct prof_overhead ovh;
	uint64_t comp_wall_ns;	/* measured: exit of MPI_Init to entry of MPI_Finalize */
	uint64_t comp_delay_ns;	/* x at the entry of MPI_Finalize */
	uint64_t comp_wait_ns;	/* time waited in receives and collectives (w) */
	uint64_t comp_wait_comp_ns;	/* the same, parallel-compensated (w') */
	/* A sample's cost measured along the run by the drain thread's
	 * pairs (sampler/sample-cost.c): pairs kept and rejected (the thread
	 * was switched out), and the quartiles of the kept ones, 0 while
	 * too few; since version 9. */
	uint64_t comp_sample_probes, comp_sample_probes_busy;
	uint64_t comp_sample_cost_lo_ns, comp_sample_cost_hi_ns;

	/* Merged profiles only (merged > 0); empty otherwise.  Its own rank
	 * is -1, its identity rank 0's, its counters the sums. */
	uint64_t merged;	/* ranks merged into it */
	struct prof_rank *mranks;	/* [merged], by rank */
	struct prof_spread *node_spread;	/* [tree.nnodes * nevents] */
	struct prof_spread *site_spread;	/* [nmpi_sites], of time_ns */
	struct prof_fn_spread *fn_spread;
	uint32_t nfn_spread;
	struct prof_kept *kept;	/* [nkept], by rank */
	uint32_t nkept;
};

/* Add p's samples (the self counts of its tree) of each event e into
 * sum[emap ? emap[e] : e].  Returns 0, or -1 when a sum would pass
 * 2^64 - 1, with a message naming path and the event (sum is then partly
 * added): no run takes that many samples, and every total and share of a
 * report rests on these sums. */
int prof_count_samples(const struct profile *p, const uint32_t *emap, uint64_t *sum,
		       const char *path, char *err, size_t errlen);
/* A rank's time in MPI calls and blocked in them over its MPI region:
 * all its call sites but MPI_Init's and MPI_Finalize's (each sum saturates
 * at 2^64 - 1). */
void prof_mpi_region_time(const struct profile *p, uint64_t *mpi_ns, uint64_t *blocked_ns);
/* A rank's row as a merged profile keeps it; r->host points into p. */
void prof_rank_row(const struct profile *p, struct prof_rank *r);
/* A merged profile's row of rank r, or NULL. */
const struct prof_rank *prof_rank_find(const struct profile *p, int64_t r);
/* Kept tree k of merged profile m as that rank's own profile into out: its
 * tree (the nodes where it has samples), m's symbols and events, and its
 * row's identity, times and overhead; no MPI records or critical path.
 * Returns 0, or -1 (memory short, or k not a kept tree; out is empty). */
int profile_kept_rank(const struct profile *m, uint32_t k, struct profile *out);
/* Whether fn is MPI_Init, MPI_Init_thread or MPI_Finalize. */
int prof_mpi_outside_region(const char *fn);

/* The spread's minimum over all n ranks of its profile (0 when some lack
 * it). */
static inline uint64_t prof_spread_min(const struct prof_spread *s, uint64_t n)
{
	return s->ranks < n ? 0 : s->min;
}

/* The spread of one rank's value v. */
static inline struct prof_spread prof_spread_one(uint64_t v, int64_t rank)
{
	return (struct prof_spread){ 1, v, v, v ? rank : -1 };
}

/* Fold b into a (both over disjoint sets of ranks). */
void prof_spread_add(struct prof_spread *a, const struct prof_spread *b);

/* Whether w has a wait state that is not 0. */
bool prof_waits_any(const struct prof_mpi_waits *w);
/* Whether p holds wait-state data (docs/waits.md): a site's wait state,
 * a slot, a pair or a clock offset or drift (of a merged profile's rows
 * too). */
bool prof_has_waits(const struct profile *p);
/* Add b's wait states into a, each sum saturating at 2^64 - 1. */
void prof_waits_add(struct prof_mpi_waits *a, const struct prof_mpi_waits *b);

/* p's activity nodes re-keyed by nmap (old node -> new), those that now
 * share a node summed (profile-act.c).  Cannot fail. */
void prof_act_map(struct profile *p, const uint32_t *nmap);
/* s's activity added to d's, its nodes d's nmap[node]; s's event and
 * window become d's when d has none.  0, or -1 when memory is short. */
int prof_act_merge(struct profile *d, const struct profile *s, const uint32_t *nmap);

/* The oldest format version that holds p, which profile_write writes:
 * PROFILE_VERSION_ACT with thread activity, PROFILE_VERSION_GRAPH with
 * completion edges or edges' call paths, PROFILE_VERSION_WAITS with
 * wait-state data or activity-graph edges, PROFILE_VERSION_FOLDS with
 * fold points, 9 otherwise (readers of version 9 read it). */
uint64_t profile_version(const struct profile *p);

/* Initialise to an empty profile (no events, empty tables). */
void profile_init(struct profile *p);
/* Free everything the profile owns; leaves it as after profile_init(). */
void profile_release(struct profile *p);
/* Free the MPI call sites, peers, collectives, slots, pairs and edges only
 * (a checkpoint fills them anew each time). */
void profile_release_mpi(struct profile *p);
/* Free the critical-path records and zero the critical-path scalars: the
 * profile has no path (a merged profile's, whose path stays in the ranks'
 * files). */
void profile_release_cp(struct profile *p);

/* A profile's permissions unless the writer asks for others: it holds the
 * command line, secrets passed as arguments included; and a profile shared
 * with the owner's group (cpperf-record --group-readable). */
#define PROFILE_MODE 0600
#define PROFILE_GROUP_MODE 0640

/*
 * Write p to dir/name atomically (temporary file, fsync, rename), the file
 * with permissions mode whatever the umask (profile_write: PROFILE_MODE).
 * Returns 0, or -1 with a message in err (which the caller reports) and no
 * file left.
 */
int profile_write_mode(const struct profile *p, const char *dir, const char *name, mode_t mode,
		       char *err, size_t errlen);
int profile_write(const struct profile *p, const char *dir, const char *name,
		  char *err, size_t errlen);

/* profile_write in two steps, for a writer that must hold a lock while p
 * is read but not while the disk catches up: profile_write_start writes p
 * into the temporary file, profile_write_commit makes it durable (fsync)
 * and renames it into place.  Each returns 0, or -1 with a message in err
 * and no file left; a started write must be committed. */
struct profile_out;
int profile_write_start(const struct profile *p, const char *dir, const char *name, mode_t mode,
			struct profile_out **out, char *err, size_t errlen);
int profile_write_commit(struct profile_out *o, char *err, size_t errlen);
/* The temporary file profile_write uses for dir/name in this process,
 * dir/.name.tmp.PID, in a new string (the caller frees it); NULL when
 * memory is short. */
char *profile_tmp_path(const char *dir, const char *name);

/* The bytes profile_write would write, into a buffer the caller frees.
 * Returns 0, or -1 with a message in err. */
int profile_write_mem(const struct profile *p, char **buf, size_t *len, char *err, size_t errlen);

/* Write the call paths of p (not merged) that have less than share of its
 * samples of every event as one "[rare paths]" node under their closest
 * caller with more (profile-prune.c).  Returns how many nodes were rare,
 * or -1 when memory is short (p is then unchanged).  share <= 0: none. */
int profile_prune(struct profile *p, double share);

/*
 * Merging profiles (profile-merge.c; docs/format.md "Merged profiles").
 * profile_to_merged turns a rank's finished profile into a merged profile
 * of that one rank (its critical-path records go: the path is walked from
 * the ranks' own files); profile_merge folds merged profile src into dst,
 * the two over disjoint ranks of one job recorded with the same events.
 * Each returns 0, or -1 with a message in err; dst is then still a valid
 * profile, partly merged.
 */
int profile_to_merged(struct profile *p, char *err, size_t errlen);
int profile_merge(struct profile *dst, const struct profile *src, char *err, size_t errlen);

/*
 * Read a profile from a buffer or a file.  Returns 0 and fills p (which must
 * be profile_init'ed), or -1 with a message in err saying what is wrong and
 * where (byte offset or line); p is then released.  Never crashes on hostile
 * input: this is the fuzz target's entry point.  profile_read and
 * profile_read_head open path only when it is a regular file (a FIFO, a
 * device or a socket is refused, without blocking: regfile_open).
 */
int profile_parse(struct profile *p, const char *buf, size_t len,
		  char *err, size_t errlen);
int profile_read(struct profile *p, const char *path, char *err, size_t errlen);

/* Only the header records (argv ... partial: who wrote the file, when,
 * and whether it is whole) from the first PROFILE_HEAD_MAX bytes, without
 * the trailer's check: for choosing files before reading them whole.
 * Returns 0, or -1 with a message naming path (p is then released). */
#define PROFILE_HEAD_MAX (256 * 1024)
int profile_read_head(struct profile *p, const char *path, char *err, size_t errlen);
/* The same on the first len bytes of a file in buf (a fuzz target too). */
int profile_parse_head(struct profile *p, const char *buf, size_t len, char *err, size_t errlen);

/* profile_parse() with flags.  PROFILE_PARSE_NO_CHECKSUM still requires a
 * well-formed trailer but ignores its length and CRC-32: only for the fuzz
 * target, so mutated inputs reach the record parser. */
#define PROFILE_PARSE_NO_CHECKSUM 1u
int profile_parse_flags(struct profile *p, const char *buf, size_t len,
			unsigned flags, char *err, size_t errlen);

#endif
