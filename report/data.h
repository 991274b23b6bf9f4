/*
 * data.h - the merged experiment that every part of `cpperf report` reads:
 * events, processes and threads, the symbol table and the call-path tree,
 * MPI ranks, call sites and matrix, what the critical-path walk needs of
 * each rank, cpperf's own samples and each rank's samples by function.
 *
 * The report library is one header per unit, in the order the command
 * uses them:
 *   experiment.h  find an experiment directory, read one run's profiles and
 *                 merge them (exp_*);
 *   merge.h       fold one profile at a time into a struct rep_data, with
 *                 merge-mpi.h (mpi_merge_*), merge-waits.h (waits_merge_*),
 *                 merge-cp.h (cpath_merge_*), compensation.h (comp_merge_*)
 *                 and spread.h (spread_*) for their parts;
 *   tree.h        inclusive totals, sorted children and a walk (tree_*);
 *   flat.h        self and total per function (flat_*);
 *   cpath.h       the critical path: walk, reference, profile (cpath_*);
 *   cluster.h     the ranks' activity graphs and their classes (cluster_*),
 *                 kept while merging by merge-graph.h (graph_merge_*);
 *   compensation.h  compensated times and the tree without the tool (comp_*);
 *   model.h       what a report shows, built once from the experiment
 *                 (rep_model_*): the options, trees, flat profile, path,
 *                 classes, thread activity;
 *   render.h      the driver, rep_render: the model, then its renderer,
 *                 which only writes it (text.h, out-json.h, folded.h,
 *                 out-graphml.h, out-html.h; show.h their shared helpers);
 *   diff.h        two experiments' models side by side (rep_diff);
 *   rank-runs.h   sets of ranks kept and printed as runs (rank_runs_*);
 *   outfile.h     -o FILE written atomically (of_*), its temporary removed
 *                 by a signal that ends the command (tmp-guard.h, tmp_guard_*).
 * Library functions never print and never exit: they return -1 with a
 * message in the caller's buffer, and cli/cmd-report.c reports it once.
 */
#ifndef CPPERF_REPORT_DATA_H
#define CPPERF_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/cct.h"
#include "../common/idset.h"
#include "../common/link-pack.h"
#include "../common/profile.h"
#include "../common/symtab.h"
#include "cluster.h"
#include "rank-runs.h"

struct rep_event {
	char *name;
	uint64_t period;	/* 0 when sampled by frequency */
	uint64_t freq;
};

struct rep_thread {
	int64_t pid;
	int64_t rank;		/* -1 when not an MPI process */
	char *host;
	uint64_t tid;
	uint64_t *samples;	/* [nevents], in the merged event order */
	uint64_t act[PROF_ACTS];	/* its activity (rep_act), PROF_ACT_UNIT */
};

/* One process: its MPI rank and time split.  For an MPI rank the times
 * are over its MPI region, exit of MPI_Init to entry of MPI_Finalize (or
 * the end of a partial profile), so that MPI time is part of the wall;
 * for another process, over its profile. */
struct rep_rank {
	int64_t rank;		/* -1 when not an MPI process */
	int64_t pid;
	char *host;
	uint64_t wall_ns, cpu_ns;
	uint64_t mpi_ns, blocked_ns;	/* sums over the process's call sites but
					 * MPI_Init and MPI_Finalize */
	uint64_t process_wall_ns, process_cpu_ns;	/* over the whole profile */
	/* Overhead compensation (profile.h); all zero when comp_on is false. */
	bool comp_on;
	struct prof_overhead ovh;
	uint64_t comp_wall_ns;	/* exit of MPI_Init to entry of MPI_Finalize */
	uint64_t comp_delay_ns;	/* final delay x */
	uint64_t comp_wait_ns, comp_wait_comp_ns;	/* W and W' */
	/* A sample's cost measured along the run (profile.h). */
	uint64_t sample_probes, sample_probes_busy;
	uint64_t sample_cost_lo_ns, sample_cost_hi_ns;
	int64_t clock_offset_ns, clock_drift_ns;	/* against rank 0's (profile.h) */
};

/* One MPI call site of the experiment: a function called from one call
 * path (merged frame ids), summed over the ranks. */
struct rep_site {
	char *function;
	uint32_t *frames;	/* outermost first */
	uint32_t nframes;
	uint64_t calls, bytes_sent, bytes_recv, time_ns, blocked_ns;
	uint64_t hist[PROF_MPI_HIST];
	/* the threads that called it in one rank, at most, and the calls of
	 * the ranks' main threads */
	uint64_t threads, main_calls;
	struct prof_spread time_spread;	/* of time_ns over the MPI ranks */
	struct prof_mpi_waits waits;	/* its wait states */
	/* Late Receiver: what its sends waited for late receives, found in
	 * the receivers' pairs (merge-waits.c); measured, compensated */
	uint64_t late_receiver_ns, late_receiver_comp_ns;
	uint32_t merge_id;	/* its index before mpi_merge_finish sorted the sites */
};

/* Point-to-point messages rank src sent to rank dst. */
struct rep_pair {
	int64_t src, dst;
	uint64_t count, bytes;
};

/* One collective on communicators of one size, summed over the ranks. */
struct rep_coll {
	char *function;
	int64_t comm_size;
	uint64_t calls, bytes, time_ns;
};

struct rep_mpi {
	int64_t size;		/* ranks in the job, 0 when no process is MPI */
	char *library;		/* of the lowest rank; NULL when none says */
	int64_t library_rank;
	uint8_t *seen;		/* [size / 8 + 1] bit per rank already merged */
	struct rep_rank *ranks;	/* one per process, by (rank, pid) after finish */
	uint32_t nranks, ranks_alloc;
	struct rep_site *sites;	/* by time descending after finish */
	uint32_t nsites, sites_alloc;
	struct rep_pair *pairs;	/* by (src, dst) after finish; no zero pair */
	uint32_t npairs, pairs_alloc;
	struct rep_coll *colls;	/* by (comm_size, function) after finish */
	uint32_t ncolls, colls_alloc;
	struct idset site_set, coll_set;
	uint64_t time_ns;	/* all call sites' time, MPI_Init and MPI_Finalize too */
};

/* ---- wait states (merge-waits.c, docs/waits.md) ---- */

/* A sender's call site that no profile names: its rank left none, or its
 * slot is not in it. */
#define REP_NO_SITE UINT32_MAX

/* Slot slot of rank's call-site table became merged call site site. */
struct rep_slot {
	int64_t rank;
	uint32_t slot, site;
};

/* Messages from one call site to another, summed over the ranks, and the
 * wait states they caused: Late Sender at the receiving site, Late
 * Receiver at the sending one; measured and compensated. */
struct rep_site_pair {
	uint32_t send_site, recv_site;	/* indices into mpi.sites; send_site
					 * may be REP_NO_SITE */
	uint64_t count, bytes;
	uint64_t late_sender_ns, late_sender_comp_ns;
	uint64_t late_receiver_ns, late_receiver_comp_ns;
};

/* A profile's pair while merging: its sender, a slot of a rank's table,
 * is named once every profile is read. */
struct rep_msg {
	int64_t send_rank;
	uint32_t send_slot;
	struct rep_site_pair v;
};

/* A sender's call site and the Late Sender time it caused. */
struct rep_culprit {
	uint32_t site;		/* index into mpi.sites */
	uint64_t late_sender_ns, late_sender_comp_ns;
};

struct rep_waits {
	bool present;		/* a profile has wait-state data */
	struct rep_slot *slots;	/* by (rank, slot) after finish */
	uint32_t nslots, slots_alloc;
	struct rep_msg *msgs;	/* until finish */
	uint32_t nmsgs, msgs_alloc;
	struct rep_site_pair *pairs;	/* by (send_site, recv_site) after finish */
	uint32_t npairs;
	struct rep_culprit *culprits;	/* by Late Sender time caused, descending */
	uint32_t nculprits;
};

/* ---- critical path, kept per rank while merging (merge-cp.c) ---- */

/* Samples of one segment under one node of the merged tree; its counts
 * are counts[i * nevents ...] of the rank (merged event order). */
struct rep_cp_seg {
	uint64_t seg;
	uint32_t node;
};

/* What the walk needs of one rank (docs/critical-path.md). */
struct rep_cp_rank {
	int64_t rank;
	uint64_t events;	/* cp_events: event 0 = MPI_Init ... events-1 */
	uint64_t length_ns;	/* path length at the entry of the last event */
	uint64_t wall_ns;
	bool trace;		/* recorded with --cp-trace */
	uint64_t budget;	/* cp_budget */
	uint64_t cut;		/* cp_cut: 0, or links and segments from here on */
	/* Fold points (docs/critical-path.md "Fold points"): the path up to
	 * the last, resolved during the run, and the rank's samples on it. */
	uint64_t folds;		/* cp_folds: 0 for none */
	uint64_t fold_event;	/* cp_fold_event: the walk takes segments after it */
	uint64_t fold_ns;	/* cp_fold_ns */
	int64_t gap_rank;	/* cp_gap_rank, cp_gap_event */
	uint64_t gap_event;
	uint32_t *prefix_nodes;	/* cp_prefix: merged node ids, one may repeat */
	uint64_t *prefix_counts;	/* [nprefix * nevents] */
	uint32_t nprefix;
	struct link_pack links;	/* by event, at most one per event */
	struct rep_cp_seg *segs;	/* by (seg, node), no duplicates */
	uint32_t nsegs;
	uint64_t *counts;	/* [nsegs * nevents] */
	uint64_t *seg_ns;	/* --cp-trace: [events], seg_ns[e] for e >= 1 */
	struct prof_cp_edge *edges;	/* --cp-trace: by event, file order kept */
	uint32_t nedges;
	uint64_t fn_how;	/* enum prof_cp_how: how the rank started zeroing */
	uint64_t fn_start;	/* event of PROF_CP_FN_ENTRY/MERGE, else 0 */
	uint64_t *fn_net;	/* [c->nfns] N_f at the last entry; NULL when NONE */
	uint64_t *fn_share;	/* [c->nfns] S_f at the last entry; NULL when NONE */
};

struct rep_cpath {
	uint32_t nevents;	/* counts per segment */
	uint64_t *samples;	/* [nevents] all ranks' segment counts summed:
				 * they fit (cpath_merge_add refuses more) */
	struct rep_cp_rank *ranks;	/* by rank after cpath_merge_finish */
	uint32_t nranks, alloc;
	/* Zeroing: the selection all ranks that started agree on, by index;
	 * a real name replaces a "#<hash>" one (a rank that never sampled f). */
	char *fn_names[PROF_CP_FNS];
	int64_t fn_rank[PROF_CP_FNS];	/* the rank that gave fn_names[i] */
	uint32_t nfns;		/* 0: no rank started zeroing */
	/* --cp-interval: the monitor rank's series, file order. */
	struct prof_cp_point *points;
	uint32_t npoints;
	int64_t points_rank;
};

/* Samples of cpperf's own runtime (leaf frame in a module whose basename
 * starts with "libcpperf") taken by ranks with compensation data: one
 * entry per (profile, node), counts[i * nevents ...] in merged event order.
 * --compensate=local|parallel subtracts them from the tree. */
struct rep_tool {
	uint32_t *nodes;	/* merged tree node ids; a node may repeat */
	uint64_t *counts;	/* [n * nevents] */
	uint32_t n, alloc;
};

/* How a checkpoint's writer is doing (docs/format.md "Runs and partial
 * profiles"), from its .live lock. */
enum rep_live {
	REP_LIVE_NONE,		/* not a checkpoint */
	REP_LIVE_RUNNING,	/* the lock is held: the process still runs */
	REP_LIVE_DEAD,		/* the lock is free: it died without a final profile */
	REP_LIVE_UNKNOWN,	/* no lock file (another host's, or none was made) */
};

/* A process whose profile ends early. */
struct rep_partial {
	int64_t rank;		/* -1 when not an MPI process */
	int64_t pid;
	char *host;
	char *reason;		/* the profile's: "checkpoint", "signal SIGTERM", ... */
	uint64_t covered_ns;	/* start to end of the profile */
	enum rep_live live;
};

/* Profiles of another run in the directory, left out of the report. */
struct rep_run {
	char *id;
	uint32_t nprofiles;
	uint64_t start_ns;	/* the latest start among them */
};

/* ---- the spread of functions over ranks (spread.c) ---- */

struct rep_frame_count {
	uint32_t frame;		/* merged frame id */
	uint64_t count;
};

/* One MPI rank's self samples of the first event, by frame (ascending),
 * and the profile they came from. */
struct rep_rank_self {
	int64_t rank;
	char *file;
	uint32_t n;
	struct rep_frame_count *v;
};

/* A rank whose own tree a merged profile keeps (profile.h): the file and
 * the index of the tree in it. */
struct rep_kept {
	int64_t rank;
	char *file;
	uint32_t index;
};

struct rep_spread {
	struct rep_rank_self *ranks;	/* in merge order */
	uint32_t n, alloc;
	struct rep_kept *kept;	/* of merged profiles, in merge order */
	uint32_t nkept;
	/* a merged profile's function spreads, frames mapped to the merged
	 * symbol table */
	struct prof_fn_spread *fns;
	uint32_t nfns;
	uint32_t merged_ranks;	/* the ranks those are over */
};
/* ---- thread activity (merge-act.c, docs/threads.md) ---- */

struct rep_act {
	bool on;		/* a profile has it */
	uint32_t event;		/* the merged event its samples are of */
	uint64_t window_ns;	/* the first profile's */
	bool mixed;		/* profiles classified different events: the
				 * others' are left out */
	/* [cap * PROF_ACTS] per node of the merged tree, PROF_ACT_UNIT; a node
	 * at or past cap has none */
	uint64_t *node;
	uint32_t cap;
};

/* ---- activity graphs, kept per rank while merging (merge-graph.c) ---- */

struct rep_graph {
	bool present;		/* a profile has activity-graph edges */
	/* Every MPI rank's graph, by rank after graph_merge_finish; its sites
	 * index mpi.sites, in merge order until then.  Until then too a
	 * message's send_site is the sender's slot (the slots are waits'). */
	struct cl_rank *ranks;
	uint32_t nranks, ranks_alloc;
};

struct rep_data {
	char *dir;		/* the experiment directory, as given */
	char *run;		/* the run reported */
	struct rep_run *other_runs;	/* newest first */
	uint32_t nother_runs;
	struct rep_partial *partial;	/* by rank, then pid */
	uint32_t npartial;
	struct rank_runs missing;	/* ranks of the job without a profile */
	uint32_t nprocs;
	char **argv;		/* command of the first process (lowest rank, pid) */
	uint32_t argc;
	int64_t argv_rank, argv_pid;
	char *call_graph;	/* of the first process */
	struct rep_event *events;	/* the first profile's order */
	uint32_t nevents;
	uint64_t *event_samples;	/* [nevents] the tree's counts summed: they
					 * fit (merge_add refuses more) */
	uint64_t samples, lost, throttled, unwind_complete, unwind_truncated;
	uint64_t unwind_ns, drain_cpu_ns;
	uint64_t checkpoints, checkpoint_ns;	/* written before the files, and their cost */
	struct rep_thread *threads;	/* sorted by rank, pid, tid by merge_finish */
	uint32_t nthreads, threads_alloc;
	struct symtab syms;
	struct cct tree;
	/* [tree.nnodes * nevents] each node's self counts over the MPI ranks
	 * (a rank without the node counts 0: prof_spread_min) */
	struct prof_spread *node_spread;
	size_t node_spread_n;
	uint64_t merged_ranks;	/* ranks read from a merged profile (--merge=mpi) */
	char **names;		/* [syms.nframes] demangled, set by merge_finish
				 * (frame-names.h) */
	bool raw_addresses;	/* frames without symbols keep their addresses */
	bool debuginfod;	/* ... or are named by debuginfod's debug files */
	struct rep_mpi mpi;
	struct rep_waits waits;	/* empty without wait-state data */
	struct rep_cpath cpath;	/* empty when no rank computed a critical path */
	struct rep_tool tool;	/* empty without compensation data */
	struct rep_spread spread;	/* empty when not MPI */
	struct rep_graph graph;	/* empty when not MPI */
	struct rep_act act;	/* empty without thread activity */
};

#endif
