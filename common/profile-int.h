/*
 * profile-int.h - what the profile writer (profile-write.c) and reader
 * (profile-read.c) share and nobody else needs: the record sections in
 * file order and the table of single-valued ("scalar") records, so the two
 * sides cannot disagree about a key, its type or its place.  The format
 * itself is described in docs/format.md.
 */
#ifndef CPPERF_PROFILE_INT_H
#define CPPERF_PROFILE_INT_H

#include <stddef.h>
#include <stdint.h>
#include "idset.h"
#include "profile.h"

#define PROF_MAGIC "cpperf-profile"
#define PROF_TRAILER "end"

/* Sections in the order they must appear in a file. */
enum prof_section {
	PS_MAGIC,
	PS_META,	/* argv, host, pid, ... call_graph */
	PS_EVENT,
	PS_COUNTER,	/* samples, lost, ... */
	PS_MODULE,
	PS_FRAME,
	PS_THREAD,
	PS_ROOT,
	PS_NODE,
	PS_ACT,		/* thread activity: act, act_thread, act_node */
	PS_ACT_THREAD,
	PS_ACT_NODE,
	PS_MPI_SITE,
	PS_MPI_PEER,
	PS_MPI_COLL,
	PS_MPI_THREAD,	/* mpi_thread */
	PS_MPI_WAIT,	/* wait states: mpi_wait, mpi_slot, mpi_pair, */
	PS_MPI_SLOT,
	PS_MPI_PAIR,
	PS_MPI_EDGE,	/* the activity graph: mpi_edge, mpi_done, */
	PS_MPI_EDGE_PATH,	/* mpi_edge_path */
	PS_CP_LINK,	/* critical path: cp_link, cp_seg, cp_ev, cp_edge, */
	PS_CP_SEG,
	PS_CP_PREFIX,	/* cp_prefix, */
	PS_CP_EV,
	PS_CP_EDGE,
	PS_CP_FN,	/* zeroing: cp_fn, */
	PS_CP_POINT,	/* the length series: cp_point */
	PS_M_RANK,	/* merged profiles: m_rank, m_node, m_site, m_fn, m_kept */
	PS_M_NODE,
	PS_M_SITE,
	PS_M_FN,
	PS_M_KEPT,
	PS_LAST = PS_M_KEPT,
};

enum prof_kind { PK_STR, PK_I64, PK_U64 };

/* A record that appears exactly once and holds one field of struct profile
 * at offset: a char * (PK_STR), an int64_t or a uint64_t.  A uint64_t is
 * at most max (UINT64_MAX when any value goes).  A file of a version
 * before since has none (its field is 0). */
struct prof_scalar {
	const char *key;
	enum prof_section section;
	enum prof_kind kind;
	size_t offset;
	uint64_t max;
	unsigned since;		/* the format version that added it (0: all) */
};

#define PROF_NSCALARS 60
extern const struct prof_scalar prof_scalars[PROF_NSCALARS];

/* Add record i (sites, peers or collectives of p) to s.  Returns the index
 * of an earlier record of s equal to it (same function and call path; same
 * peer; same function and communicator size), i when it is new, or
 * UINT32_MAX when memory is short. */
uint32_t prof_mpi_site_dup(struct idset *s, const struct profile *p, uint32_t i);
uint32_t prof_mpi_peer_dup(struct idset *s, const struct profile *p, uint32_t i);
uint32_t prof_mpi_coll_dup(struct idset *s, const struct profile *p, uint32_t i);

/* Add slot or pair record i of p to s.  Returns the index of an earlier
 * record of s with the same key (rank and slot; rank, site, sender rank
 * and sender slot), i when it is new, or UINT32_MAX when memory is short. */
uint32_t prof_mpi_slot_dup(struct idset *s, const struct profile *p, uint32_t i);
uint32_t prof_mpi_pair_dup(struct idset *s, const struct profile *p, uint32_t i);
/* The same for edge record i: its key is (from, to), and its rank. */
uint32_t prof_mpi_edge_dup(struct idset *s, const struct profile *p, uint32_t i);
uint32_t prof_mpi_edge_path_dup(struct idset *s, const struct profile *p, uint32_t i);

/* The values of an mpi_pair record after its key, in record order: X(field). */
#define PROF_PAIR_VALUES(X) X(count) X(bytes) X(late_sender_ns) X(late_sender_comp_ns) \
	X(late_receiver_ns) X(late_receiver_comp_ns)

/* Whether peer is a valid destination in a job of size ranks: 0 <= peer,
 * and peer < size when size > 0. */
int prof_mpi_peer_ok(int64_t peer, int64_t size);

/* Check p's MPI records as the reader would (frames and sites in range,
 * peers and senders valid, no duplicates; edges' sites too).  Returns NULL, or a
 * description written into why. */
const char *prof_mpi_check(const struct profile *p, char *why, size_t n);

/* Add critical-path segment record i of p to s.  Returns the index of an
 * earlier record with the same (seg, node), i when it is new, or
 * UINT32_MAX when memory is short. */
uint32_t prof_cp_seg_dup(struct idset *s, const struct profile *p, uint32_t i);

/* The rules of the critical-path records (docs/format.md), shared by the
 * reader (profile-read-cp.c) and prof_cp_check: an event number that a
 * record may name (1 <= event < cp_events), a sender rank inside the job
 * (0 <= rank < size; a pair's sender too) and a sender event (from >= 1). */
int prof_cp_event_ok(const struct profile *p, uint64_t event);
int prof_cp_rank_ok(const struct profile *p, int64_t rank);
int prof_cp_from_ok(uint64_t from);

/* The rules of the zeroing records (docs/format.md "Critical path"),
 * shared the same way: a cp_fn's net or share length is at most
 * cp_length_ns; prof_cp_fn_dup returns the index of an earlier cp_fn
 * record of p with the same name as record i, or i (there are at most
 * PROF_CP_FNS, so a linear scan); a cp_point may follow prev when neither
 * its time nor its length is smaller. */
int prof_cp_fn_ns_ok(const struct profile *p, uint64_t ns);
uint32_t prof_cp_fn_dup(const struct profile *p, uint32_t i);
int prof_cp_point_ok(const struct prof_cp_point *prev, const struct prof_cp_point *pt);

/* Check the scalars cp_fn_how and cp_fn_start against cp_events and the
 * number of cp_fn records, the rules that the reader can only apply once
 * the whole file is read: how NONE exactly when there is no cp_fn record,
 * otherwise cp_events > 0; start 0 for NONE and INIT, 1 <= start <
 * cp_events for ENTRY and MERGE.  Returns NULL, or a description written
 * into why. */
const char *prof_cp_fn_how_check(const struct profile *p, char *why, size_t n);

/* Check cp_cut against cp_events and the records (docs/format.md): 0
 * without a path; otherwise at most cp_events, no link of an earlier event
 * and, without cp_trace, no segment before it.  Returns NULL, or a
 * description written into why. */
const char *prof_cp_cut_check(const struct profile *p, char *why, size_t n);

/* Check the fold-point scalars against cp_events, size and the records
 * (docs/format.md): all 0 and no cp_prefix record without a fold point;
 * otherwise cp_fold_event an event of the rank, a gap's rank in the job,
 * no link of an event up to cp_fold_event, nor, without cp_trace, a
 * segment, and cp_cut 0 or past cp_fold_event.  Returns NULL, or a description written into why. */
const char *prof_cp_fold_check(const struct profile *p, char *why, size_t n);

/* Check p's critical-path records as the reader would (none when
 * cp_events is 0, events in range and in order, cp_ev and cp_edge only
 * with cp_trace, ranks in the job, nodes in the tree, no duplicate
 * (seg, node); cp_fn records as prof_cp_fn_how_check and the rules above
 * say, at most PROF_CP_FNS of them; cp_point records in order).  Returns
 * NULL, or a description written into why. */
const char *prof_cp_check(const struct profile *p, char *why, size_t n);

/* Check what a merged profile's records must agree on (docs/format.md
 * "Merged profiles"), and that a rank's profile has none of them.
 * Returns NULL, or a description written into why. */
const char *prof_merged_check(const struct profile *p, char *why, size_t n);

/* The kept trees of merged profiles (profile-kept.c).  prof_kept_start
 * keeps p's own tree as rank's (p becoming a merged profile);
 * prof_kept_merge folds s's kept trees into d's, whose tree had
 * old_nnodes nodes before s's were mapped into it through nmap, and keeps
 * those the rule keeps.  Each returns 0, or -1 when memory is short. */
int prof_kept_start(struct profile *p, int64_t rank);
int prof_kept_merge(struct profile *d, const struct profile *s, const uint32_t *nmap,
		    uint32_t old_nnodes);

/* Check the overhead and compensation scalars (docs/format.md "Overhead
 * and compensation"), which the reader can only apply once the whole file
 * is read: comp_on is 0 or 1; with 0 every other comp_ and ovh_ scalar is
 * 0; with 1 the process is an MPI rank (rank >= 0), ovh_switch_ns =
 * ovh_switches x ovh_switch_cost_ns exactly, ovh_sample_ns >=
 * ovh_samples x ovh_sample_cost_ns and ovh_wrapper_ns >= ovh_calls x
 * ovh_call_cost_ns (the costs are means, rounded down), the products not
 * overflowing, comp_sample_cost_lo_ns <= comp_sample_cost_hi_ns.  Neither
 * comp_delay_ns nor comp_wait_comp_ns is bounded: a delay can come from
 * another rank's larger overhead, and a receiver more delayed than its
 * sender waits longer once compensated (w' = w + x - x_s > w).  Returns
 * NULL, or a description naming the record written into why. */
const char *prof_comp_check(const struct profile *p, char *why, size_t n);

/* Check p as the reader would: events' leaders, frames' modules, the
 * tree, the thread activity, the scalars' bounds, then the records above.
 * Returns NULL, or a description written into why. */
const char *prof_check(const struct profile *p, char *why, size_t n);

#endif
