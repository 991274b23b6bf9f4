/*
 * report.h - the library behind `cpperf report`.
 *
 * The pieces, in the order the command uses them:
 *   experiment.c  find the newest experiment directory, read every profile
 *                 in it and merge them (exp_*);
 *   merge.c       fold one profile at a time into a struct rep_data: one
 *                 symbol table, one call-path tree, per-thread totals
 *                 (merge_*);
 *   merge-mpi.c   the MPI part of that: per-process time split, call sites
 *                 merged by call path, communication matrix, collectives
 *                 (mpi_*);
 *   merge-cp.c    keep per rank what the critical-path walk needs
 *                 (cpath_merge_*);
 *   compensate.c  overhead compensation: the samples of cpperf's own
 *                 runtime kept while merging, the compensated per-rank
 *                 times and the profile without the tool's samples
 *                 (comp_*);
 *   callpath.c    inclusive totals and sorted children of the merged tree,
 *                 and a depth-first walk over it (tree_*);
 *   flat.c        self and total per function, recursion counted once
 *                 (flat_*);
 *   critpath.c    the critical path: the walk over the links, the
 *                 --reference recomputation, the path's tree and functions
 *                 (cpath_*);
 *   text.c, text-mpi.c, text-cp.c, text-comp.c, out-json.c,
 *   out-json-mpi.c, out-json-cp.c, folded.c, out-html.c   the renderers
 *                 (rep_text_*, rep_json*, rep_folded, rep_html), driven by
 *                 report.c (rep_render);
 *   outfile.c     -o FILE written atomically (of_*).
 * Library functions never print and never exit: they return -1 with a
 * message in the caller's buffer, and cli/cmd-report.c reports it once.  The
 * tests in tests/unit/test-report.c call these functions directly.
 */
#ifndef CPPERF_REPORT_H
#define CPPERF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../common/idset.h"
#include "../common/profile.h"

/* ---- merged experiment (merge.c) ---- */

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
};

/* One MPI call site of the experiment: a function called from one call
 * path (merged frame ids), summed over the ranks. */
struct rep_site {
	char *function;
	uint32_t *frames;	/* outermost first */
	uint32_t nframes;
	uint64_t calls, bytes_sent, bytes_recv, time_ns, blocked_ns;
	uint64_t hist[PROF_MPI_HIST];
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
	struct prof_cp_link *links;	/* by event, at most one per event */
	uint32_t nlinks;
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

struct rep_spread {
	struct rep_rank_self *ranks;	/* in merge order */
	uint32_t n, alloc;
};

struct flat;
/* Keep p's self samples by merged frame (fmap, emap as in merge_add) and
 * the name of its file; nothing for a process that is not an MPI rank.
 * Returns 0, or -1 when memory is short. */
int spread_add(struct rep_spread *s, const struct profile *p, const char *file,
	       const uint32_t *fmap, const uint32_t *emap);
/* Each function's rank_* fields of f from s (fn_of_frame: flat_build's
 * map).  Returns 0, or -1 when memory is short. */
int spread_functions(const struct rep_spread *s, struct flat *f, const uint32_t *fn_of_frame);
void spread_release(struct rep_spread *s);

struct rep_data {
	char *dir;		/* the experiment directory, as given */
	char *run;		/* the run reported */
	struct rep_run *other_runs;	/* newest first */
	uint32_t nother_runs;
	struct rep_partial *partial;	/* by rank, then pid */
	uint32_t npartial;
	int64_t *missing;	/* ranks of the job without a profile, ascending */
	uint32_t nmissing;
	uint32_t nprocs;
	char **argv;		/* command of the first process (lowest rank, pid) */
	uint32_t argc;
	int64_t argv_rank, argv_pid;
	char *call_graph;	/* of the first process */
	struct rep_event *events;	/* the first profile's order */
	uint32_t nevents;
	uint64_t samples, lost, throttled, unwind_complete, unwind_truncated;
	uint64_t unwind_ns, drain_cpu_ns;
	uint64_t checkpoints, checkpoint_ns;	/* written before the files, and their cost */
	struct rep_thread *threads;	/* sorted by rank, pid, tid by merge_finish */
	uint32_t nthreads, threads_alloc;
	struct symtab syms;
	struct cct tree;
	char **names;		/* [syms.nframes] demangled, set by merge_finish */
	struct rep_mpi mpi;
	struct rep_cpath cpath;	/* empty when no rank computed a critical path */
	struct rep_tool tool;	/* empty without compensation data */
	struct rep_spread spread;	/* empty when not MPI */
};

/* Initialise an empty merge.  Returns 0, or -1 when memory is short. */
int merge_init(struct rep_data *d);
void merge_release(struct rep_data *d);

/*
 * Fold profile p (read from the file called name, used in messages) into d:
 * its modules and frames are re-interned into d->syms, its nodes replayed
 * into d->tree, its threads appended.  Events are matched by name; every
 * profile must have the same set.  Time is linear in p's size.  Returns 0, or
 * -1 with a message in err (d stays valid but partly merged).
 */
int merge_add(struct rep_data *d, const struct profile *p, const char *name,
	      char *err, size_t errlen);

/* Demangle every frame name once and sort the threads.  Call after the last
 * merge_add.  Returns 0, or -1 when memory is short. */
int merge_finish(struct rep_data *d, char *err, size_t errlen);

/* ---- MPI data (merge-mpi.c) ---- */

/* Largest MPI job size accepted (the matrix has size x size cells). */
#define REP_MPI_MAX_SIZE (INT64_C(1) << 20)

/*
 * Fold p's MPI data into m: its rank entry, its call sites (frames mapped
 * through fmap, p's frame id -> merged id), its peers as matrix pairs, its
 * collectives.  Fails, with a message naming the file name, when p's size
 * differs from earlier ranks', its rank is out of range or already merged,
 * or it has peers without a rank.  Returns 0 or -1 (memory, bad data).
 */
int mpi_merge_add(struct rep_mpi *m, const struct profile *p, const uint32_t *fmap,
		  const char *name, char *err, size_t errlen);
/* Sort ranks, sites, pairs and collectives.  Cannot fail. */
void mpi_merge_finish(struct rep_mpi *m);
void mpi_merge_release(struct rep_mpi *m);

/* ---- critical-path data (merge-cp.c) ---- */

/*
 * Keep what the critical-path walk needs of p (a rank with cp_events > 0;
 * nothing is kept otherwise): its links, lengths and trace records, and its
 * segment samples with node ids mapped through nmap (p's node -> merged
 * node) and counts through emap (p's event -> merged event of nevents);
 * its zeroing results (how, start, N_f and S_f per selected function) and
 * its series of path lengths.  Memory is O(links + segments) per rank, plus
 * O(events + edges) with --cp-trace.  Fails, naming the file, on a segment
 * or link outside the rank's events, a node outside p's tree, a trace that
 * does not cover the events, data from a process without a rank, zeroing
 * records that contradict themselves (unknown how, a start outside the
 * events, functions without a start or a start without functions), a
 * selection that differs from an earlier rank's (naming both ranks), or a
 * second rank with a series.  Returns 0 or -1.
 */
int cpath_merge_add(struct rep_cpath *c, const struct profile *p, const uint32_t *nmap,
		    const uint32_t *emap, uint32_t nevents, const char *name,
		    char *err, size_t errlen);
/* Sort the ranks.  Cannot fail. */
void cpath_merge_finish(struct rep_cpath *c);
void cpath_merge_release(struct rep_cpath *c);

/* ---- overhead compensation (compensate.c) ---- */

/* --compensate: the zero value is the default. */
enum rep_comp { REP_COMP_PARALLEL, REP_COMP_LOCAL, REP_COMP_NONE };

#define REP_TOOL_MODULE "libcpperf"	/* basename prefix of cpperf's runtime */

/*
 * Keep the samples of cpperf's own runtime that p (a profile with comp_on)
 * took: every node of p's tree with self counts whose frame's module
 * basename starts with REP_TOOL_MODULE, node ids mapped through nmap and
 * counts through emap into d->tool.  Nothing is kept when comp_on is 0.
 * Returns 0, or -1 when memory is short.
 */
int comp_merge_add(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
		   const uint32_t *emap, char *err, size_t errlen);
void comp_merge_release(struct rep_tool *t);

/* The mode's name: "parallel", "local" or "none". */
const char *comp_mode_name(enum rep_comp m);
/* Whether any process of d has compensation data (comp_on). */
bool comp_present(const struct rep_data *d);
/* Total overhead o of a rank: sample + wrapper + piggyback + drain + inject. */
uint64_t comp_overhead_ns(const struct prof_overhead *o);
/* Compensated walls of r: comp_wall - delay (parallel), comp_wall - overhead
 * (local); 0 when what is removed exceeds the wall.  Meaningful only when
 * r->comp_on. */
uint64_t comp_wall_parallel_ns(const struct rep_rank *r);
uint64_t comp_wall_local_ns(const struct rep_rank *r);
/* The wall and blocked time the rank table shows under mode m: measured
 * when m is REP_COMP_NONE or the rank has no compensation data; else the
 * compensated wall, and for parallel the compensated wait W'. */
uint64_t comp_rank_wall_ns(const struct rep_rank *r, enum rep_comp m);
uint64_t comp_rank_blocked_ns(const struct rep_rank *r, enum rep_comp m);
struct cpath_result;
/* The critical path's length in compensated time into *ns: its length
 * less what mode m removes from the rank where it ends (final delay, or
 * overhead); false when m is REP_COMP_NONE or that rank has no
 * compensation data. */
bool comp_cp_length_ns(const struct rep_data *d, const struct cpath_result *r, enum rep_comp m,
		       uint64_t *ns);

/* d's tree without the tool's samples, sharing d->tree's structure. */
struct comp_tree {
	struct cct tree;	/* read-only: parent, frame, slots are d->tree's */
	uint64_t *self;		/* owned: the counts with the tool's removed */
	uint64_t *removed;	/* [nevents] samples removed per event */
};

/*
 * Under m (local or parallel) with tool samples in d, fill t with d's tree
 * minus d->tool and return 1; otherwise (REP_COMP_NONE, or nothing to
 * remove) return 0 and leave t empty.  Node ids are d->tree's.  Returns -1
 * when memory is short.  comp_tree_release frees what t owns.
 */
int comp_tree_build(struct comp_tree *t, const struct rep_data *d, enum rep_comp m,
		    char *err, size_t errlen);
void comp_tree_release(struct comp_tree *t);

/* Index of the event called name, or -1 with err listing the events. */
int rep_event_index(const struct rep_data *d, const char *name,
		    char *err, size_t errlen);

/* ---- experiment directories (experiment.c) ---- */

/* Find the newest (by mtime) directory named cpperf-* in parent and write its
 * path to out.  Returns 0, or -1 with a message when there is none. */
int exp_find_newest(const char *parent, char *out, size_t outlen,
		    char *err, size_t errlen);

/*
 * Read the *.cpprof files of dir that belong to one run (files whose name
 * starts with '.' are temporaries and skipped) and merge them into d,
 * which this function initialises: run when not NULL, else the newest run
 * (the one whose latest process started last); the other runs are listed
 * in d.  Of two files of one process (its name changed when MPI_Init gave
 * it a rank) the later is read.  Partial profiles, and the ranks of the
 * job that left none, are listed in d too.  Returns 0, or -1 with a
 * message naming the directory or the file that is wrong (or the runs
 * there when run is not one of them); d is then released.
 */
int exp_load(struct rep_data *d, const char *dir, const char *run, char *err, size_t errlen);
/* Read the one profile at path into d, which this function initialises
 * (a rank's own view).  Returns 0, or -1 with a message; d is then
 * released. */
int exp_load_file(struct rep_data *d, const char *path, char *err, size_t errlen);
/* Whether some checkpoint of d was written by a process that still runs. */
bool exp_live(const struct rep_data *d);

/* ---- call-path tree analysis (callpath.c) ---- */

struct tree_view {
	const struct cct *cct;
	uint32_t nevents;
	uint64_t *total;	/* [nnodes * nevents] inclusive counts */
	uint32_t *first;	/* [nnodes + 1] offsets into kids */
	uint32_t *kids;		/* children of each node, by total descending */
};

/* Compute inclusive totals and children lists of t (sorted by the total of
 * event sort_event, then by node id).  Linear apart from the sorts.  Returns
 * 0, or -1 when memory is short. */
int tree_build(struct tree_view *cp, const struct cct *t, uint32_t sort_event,
	       char *err, size_t errlen);
void tree_release(struct tree_view *cp);

static inline const uint64_t *tree_total(const struct tree_view *cp, uint32_t node)
{
	return cp->total + (size_t)node * cp->nevents;
}

/*
 * Visit the tree depth first, children in sorted order, starting with the
 * root at depth 0.  enter returns 1 to descend into the node's children, 0 to
 * skip them, or a negative value to stop the walk (tree_walk then returns that
 * value).  leave, when not NULL, is called for every node entered, after its
 * children.  Uses no recursion; returns 0, or -1 when memory is short.
 */
typedef int (*tree_visit)(void *ctx, uint32_t node, uint32_t depth);
int tree_walk(const struct tree_view *cp, tree_visit enter, tree_visit leave, void *ctx);

/* ---- flat profile (flat.c) ---- */

/* One function: (demangled name, module).  Strings belong to rep_data. */
struct flat_fn {
	const char *name;
	uint32_t module;	/* index into syms.modules or SYMTAB_NO_MODULE */
	const char *file;	/* of the first frame seen */
	uint32_t line;
	uint64_t *self;		/* [nevents] */
	uint64_t *total;	/* [nevents]: samples with the function on the path */
	/* over the nranks MPI ranks (0 when not MPI), the function's self
	 * samples of the first event: min, mean, max and the (lowest) rank
	 * of the max, -1 when no rank has any (spread.c) */
	uint32_t nranks;
	uint64_t rank_min, rank_max;
	double rank_mean;
	int64_t rank_max_at;
};

struct flat {
	struct flat_fn *fns;	/* sorted by self of sort_event desc, then name */
	uint32_t nfns;
	uint32_t nevents;
	uint64_t *all;		/* [nevents] all samples (the root's total) */
	uint64_t *counts;	/* storage for self and total */
};

/* Build the flat profile of d from cp, built over d->tree or over a tree
 * of d's frames with other counts (the critical path's).  Totals count
 * a sample once per function even under recursion.  Returns 0, or -1 when
 * memory is short. */
int flat_build(struct flat *f, const struct rep_data *d, const struct tree_view *cp,
	       uint32_t sort_event, char *err, size_t errlen);
void flat_release(struct flat *f);

/* ---- the critical path (critpath.c) ---- */

/* Segments from..to (inclusive) of one rank, on the path in that order. */
struct cpath_run {
	int64_t rank;
	uint64_t from, to;
};

/* One function's share of the path (event 0 of the experiment). */
struct cpath_fn {
	const char *name;	/* belongs to rep_data */
	uint32_t module;
	uint64_t samples;	/* self samples taken on the path */
	double cp_time;		/* seconds: length x samples / all path samples */
	double cp_pct, cpu_pct;	/* of the path's samples; of all samples */
};

/* Zeroing of one selected function: the path if f took no time. */
struct cpath_zero {
	const char *name;	/* the selection's name; belongs to rep_data */
	uint64_t net_ns;	/* max over ranks of N_f (L for a rank that never started) */
	uint64_t saving_ns;	/* length - net_ns (0 if net_ns were larger) */
	double saving_pct;	/* 100 x saving / length */
	uint64_t share_ns;	/* S_f of the rank where the path ends */
	double cp_time;		/* seconds: the walk's CP time (self) of functions so named */
};

struct cpath_result {
	bool reference;		/* computed from the --cp-trace records */
	int64_t end_rank;	/* the rank where the path ends */
	uint64_t length_ns;
	uint64_t wall_ns;	/* max over ranks of cp_wall_ns */
	struct cpath_run *runs;	/* earliest first */
	uint32_t nruns;
	struct cct tree;	/* path samples; node ids are d->tree's */
	struct tree_view cp;	/* over tree, children by total of event 0 */
	struct cpath_fn *fns;	/* by samples desc, then name */
	uint32_t nfns;
	uint64_t all;		/* path samples of event 0 */
	struct cpath_zero *zero;	/* selection order; NULL when nothing selected */
	uint32_t nzero;
};

#define CPATH_NEED_TRACE "--reference needs a recording made with cpperf-record --cp-trace"

/* Whether any rank of c computed a critical path. */
static inline bool cpath_present(const struct rep_cpath *c)
{
	return c->nranks > 0;
}

/*
 * The online path: start at the rank with the largest cp_length_ns (lowest
 * rank on ties) and follow its links back to MPI_Init.  Fills length_ns,
 * wall_ns, end_rank and runs of r (which this initialises), and the online
 * zeroing (net, saving and share per selected function; cp_time is left 0
 * for cpath_build).  Steps are
 * bounded by the events of all ranks, so a cycle ends with an error; a link
 * to a missing rank or past a rank's events too.  Returns 0 or -1 with a
 * message naming the rank and event (r is then released).
 */
int cpath_walk(const struct rep_cpath *c, struct cpath_result *r,
	       char *err, size_t errlen);

/*
 * The reference path: recompute every rank's lengths from the --cp-trace
 * records (no recursion; ranks advance while their dependencies are known)
 * and walk back the winning dependencies; with a selection, N_f and S_f are
 * recomputed over the same graph by the rules of docs/critical-path.md
 * "Zeroing".  fn_mask[node] (nmask nodes of the merged tree, from
 * cpath_fn_masks) has bit i set when the node's call path holds a frame of
 * selected function i; NULL counts no function time anywhere.  Fails with
 * CPATH_NEED_TRACE when a rank has no trace, or with a message naming a
 * rank and event on a cycle, a missing rank, an event past a rank's events,
 * or a rank recorded as started by a merge at an event no started sender
 * reaches.  Fills r as cpath_walk does, with reference set.  Returns 0 or -1.
 */
int cpath_reference(const struct rep_cpath *c, const uint8_t *fn_mask, uint32_t nmask,
		    struct cpath_result *r, char *err, size_t errlen);

/*
 * The node masks of the selection of d->cpath: *mask gets d->tree.nnodes
 * bytes, bit i set when the node or one of its ancestors is a frame whose
 * function name (as recorded, or demangled) equals fn_names[i].  *mask is
 * NULL when nothing is selected.  Returns 0 or -1 (memory).
 */
int cpath_fn_masks(const struct rep_data *d, uint8_t **mask, char *err, size_t errlen);

/*
 * Walk (online or reference, as asked) and build the path's profile: the
 * segment samples of every run summed into a tree shaped like d->tree, its
 * totals, and the per-function table (f is d's flat profile, for cpu_pct).
 * Returns 0 or -1 with a message; r is released on failure.
 */
int cpath_build(struct cpath_result *r, const struct rep_data *d, const struct flat *f,
		bool reference, char *err, size_t errlen);
void cpath_release(struct cpath_result *r);

/* ---- rendering (report.c, text.c, out-json.c, folded.c) ---- */

enum rep_format { REP_TEXT, REP_JSON, REP_FOLDED, REP_HTML };
/* REP_CP_REFERENCE: --view=cp --reference, or JSON with --reference. */
enum rep_view { REP_FLAT, REP_CALLPATH, REP_MPI, REP_CP, REP_CP_REFERENCE,
		REP_COMPENSATION };

#define REP_TEXT_MIN_PCT 0.5	/* text's default pruning threshold */
#define REP_HTML_MIN_PCT 0.01	/* the page's: its size stays bounded */

struct rep_opts {
	enum rep_format format;
	enum rep_view view;
	const char *event;	/* NULL: the first event */
	double min_pct;		/* < 0: the format's default */
};

/* Render d as o asks onto out, compensated as comp says (--compensate).
 * Returns 0, 2 when o->event is unknown (err lists the events), or -1 with
 * a message (memory, write error, a view the experiment has no data for). */
int rep_render_comp(const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, FILE *out, char *err, size_t errlen);
/* rep_render_comp with the default, REP_COMP_PARALLEL. */
int rep_render(const struct rep_data *d, const struct rep_opts *o, FILE *out,
	       char *err, size_t errlen);

/* Percentage part/whole*100, 0 when whole is 0. */
double rep_pct(uint64_t part, uint64_t whole);
/* The last path component of a module path ("" for no module). */
const char *rep_module_name(const struct rep_data *d, uint32_t module);
const char *rep_module_path(const struct rep_data *d, uint32_t module);

/* removed: when not NULL, the samples per event --compensate took out of
 * f or cp (the header says how many of the shown event). */
int rep_text_flat(FILE *out, const struct rep_data *d, const struct flat *f,
		  uint32_t event, double min_pct, const uint64_t *removed);
int rep_text_callpath(FILE *out, const struct rep_data *d, const struct tree_view *cp,
		      uint32_t event, double min_pct, const uint64_t *removed);
/* The call-path tree under the column titles, pruned below min_pct of
 * event; a note for what was hidden.  Returns 0 or -1 (memory). */
int rep_text_tree(FILE *out, const struct rep_data *d, const struct tree_view *cp,
		  uint32_t event, double min_pct);
struct json_w;
/* JSON of the whole report; cpr, when not NULL, is the critical path
 * ("critical_path" is then filled, else written empty, with cp_why saying
 * why when not NULL); comp is the --compensate mode ("compensation", the
 * "ranks" times); filtered says cp and f had the tool's samples removed
 * ("callpath" then leaves out nodes left without counts); page leaves out
 * what the HTML page does not show and what grows with the run's length
 * ("threads", the runs of "path"). */
int rep_json(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	     const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
	     double min_pct, enum rep_comp comp, bool filtered, bool page);
/* The page of the whole report (out-html.c): rep_json's data for a page,
 * arguments alike, in one self-contained HTML file. */
int rep_html(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	     const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
	     double min_pct, enum rep_comp comp, bool filtered);
/* A call-path tree as JSON at the writer's position (the "callpath"
 * shape); skip_zero leaves out nodes without counts below the root. */
int rep_json_tree(struct json_w *w, const struct rep_data *d, const struct tree_view *cp,
		  double min_pct, bool skip_zero);
/* "critical_path" (out-json-cp.c), its tree pruned like "callpath"; r
 * NULL writes it empty, "unavailable" saying why (why, or no data); runs
 * false leaves "path" empty.
 * Returns 0 or -1 (memory). */
int rep_json_cpath(struct json_w *w, const struct rep_data *d,
		   const struct cpath_result *r, const char *why, double min_pct,
		   enum rep_comp comp, bool runs);
/* Text --view=cp (text-cp.c): length, path, functions, zeroing, series,
 * tree. */
int rep_text_cpath(FILE *out, const struct rep_data *d, const struct cpath_result *r,
		   uint32_t event, double min_pct, enum rep_comp comp);
/* The MPI keys of the JSON report (out-json-mpi.c): inside "experiment",
 * and the top-level "ranks" (wall and blocked as comp says, plus the
 * compensation keys) and "mpi". */
void rep_json_mpi_experiment(struct json_w *w, const struct rep_data *d);
/* "rank": the MPI rank, null for a process outside the job (-1). */
void rep_json_rank(struct json_w *w, int64_t rank);
void rep_json_mpi(struct json_w *w, const struct rep_data *d);
/* Text --view=mpi: per-rank time (wall and blocked as comp says), top call
 * sites, matrix, collectives; on an experiment without MPI data one line
 * saying so. */
int rep_text_mpi(FILE *out, const struct rep_data *d, enum rep_comp comp);
/* Text --view=compensation (text-comp.c): per rank the measured, local-
 * and parallel-compensated walls, overhead, delay, waits; the overhead
 * sources summed over the ranks.  d must have compensation data. */
int rep_text_comp(FILE *out, const struct rep_data *d);
/* The first header lines of text output: directory and command. */
void rep_text_intro(FILE *out, const struct rep_data *d);
/* Print s with control characters as '?', then pad to width. */
void rep_put_clean(FILE *out, const char *s, int width);
int rep_folded(FILE *out, const struct rep_data *d, const struct tree_view *cp,
	       uint32_t event);

/* ---- -o FILE (outfile.c) ---- */

struct outfile {
	FILE *f;		/* where to write */
	char *path;		/* NULL for stdout */
	char *tmp;		/* temporary name beside path */
};

/* Open path for writing through a temporary file in the same directory
 * (NULL or "-" means stdout).  Returns 0, or -1 with a message naming path. */
int of_open(struct outfile *o, const char *path, char *err, size_t errlen);
/* Flush, close and rename into place.  Returns 0, or -1 with a message (the
 * temporary is then removed). */
int of_commit(struct outfile *o, char *err, size_t errlen);
/* Drop the output: close and remove the temporary. */
void of_abort(struct outfile *o);

#endif
