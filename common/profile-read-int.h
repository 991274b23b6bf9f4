/*
 * profile-read-int.h - the parser state and field readers (profile-fields.c)
 * that the record parsers of profile-read.c, profile-read-mpi.c and
 * profile-read-cp.c share.  Every reader takes the next space-separated field of the current
 * line; on error it writes "line N: ..." into the parser's message and
 * returns -1.
 */
#ifndef CPPERF_PROFILE_READ_INT_H
#define CPPERF_PROFILE_READ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "profile-int.h"

#define PR_ROOT_SEEN (UINT64_C(1) << 63)

struct parser {
	struct profile *p;
	size_t lineno;
	enum prof_section section;
	uint64_t seen;		/* bit i: prof_scalars[i] read; PR_ROOT_SEEN */
	uint64_t version;	/* the file's format version */
	int tree_ready;
	uint32_t argv_alloc, events_alloc, threads_alloc;
	uint32_t sites_alloc, peers_alloc, colls_alloc, slots_alloc, pairs_alloc, edges_alloc;
	uint32_t edge_paths_alloc;
	struct idset sites, peers, colls, slots, pairs, edges, edge_paths;	/* the MPI records so far */
	uint32_t wait_sites;	/* the last mpi_wait record's site + 1 */
	uint32_t thread_sites;	/* the last mpi_thread record's site + 1 */
	uint32_t cp_links_alloc, cp_segs_alloc, cp_evs_alloc, cp_edges_alloc, cp_prefix_alloc;
	struct idset cp_segs;	/* the cp_seg records so far, once out of order */
	int cp_segs_hashed;	/* cp_segs holds them: they came out of order */
	int cp_allowed;		/* bit t: a record with trace t was allowed (the
				 * scalars that decide it come before, once) */
	uint32_t cp_fns_alloc, cp_points_alloc;
	uint64_t mranks_read;	/* merged profiles: m_rank records so far */
	uint32_t m_nodes, m_sites, fn_alloc;	/* m_node and m_site records so far */
	uint32_t kept_node;	/* the last m_kept record's node */
	uint32_t act_nodes_alloc;
	int head_only;		/* stop before the first record after the header */
	size_t last_kind;	/* the kind of the last record read (profile-read.c) */
	const char *body_end;	/* the end of the records: bounds what is left */
	const char *buf, *line_at;	/* if line_at: the line an error is on is
					 * counted from buf only then */
	char *err;
	size_t errlen;
};

/* The unread fields of the current line. */
struct cursor {
	const char *p, *end;
};

/* Record an error for the current line; returns -1. */
int pr_err(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Take the next field into *tok and *n. */
int pr_field(struct parser *ps, struct cursor *c, const char *what,
	     const char **tok, size_t *n);
/* The line must have no field left. */
int pr_done(struct parser *ps, const struct cursor *c);
/* The n characters at s as a canonical decimal (no sign, no leading zero)
 * into *v: 0, else -1 (nothing recorded). */
int pr_digits(const char *s, size_t n, uint64_t *v);
/* Canonical decimals: unsigned, signed. */
int pr_u64(struct parser *ps, struct cursor *c, const char *what, uint64_t *v);
int pr_i64(struct parser *ps, struct cursor *c, const char *what, int64_t *v);
/* An index below limit. */
int pr_index(struct parser *ps, struct cursor *c, const char *what,
	     uint64_t limit, uint32_t *v);
/* A record's own index, which must equal want. */
int pr_seq(struct parser *ps, struct cursor *c, const char *what, uint32_t want);
/* A %-encoded string, decoded into a new *out the caller frees. */
int pr_str(struct parser *ps, struct cursor *c, const char *what, char **out);
/* Exactly n counts into dst, then the end of the line. */
int pr_counts(struct parser *ps, struct cursor *c, uint64_t *dst, uint32_t n);
/* Refuse record key in a file older than version, which brought it. */
int pr_since(struct parser *ps, const char *key, int version);
/* Whether scalar record key has been read. */
int pr_scalar_seen(const struct parser *ps, const char *key);
/* Room for one more element of size elem in *array (count used, *alloc
 * allocated); growth is bounded by the number of lines. */
int pr_grow(struct parser *ps, void **array, uint32_t count,
	    uint32_t *alloc, size_t elem);

/* The MPI records (profile-read-mpi.c). */
int rec_mpi_site(struct parser *ps, struct cursor *c);
int rec_mpi_peer(struct parser *ps, struct cursor *c);
int rec_mpi_coll(struct parser *ps, struct cursor *c);
int rec_mpi_thread(struct parser *ps, struct cursor *c);
int rec_mpi_wait(struct parser *ps, struct cursor *c);
int rec_mpi_slot(struct parser *ps, struct cursor *c);
int rec_mpi_pair(struct parser *ps, struct cursor *c);
int rec_mpi_edge(struct parser *ps, struct cursor *c);
int rec_mpi_done(struct parser *ps, struct cursor *c);
int rec_mpi_edge_path(struct parser *ps, struct cursor *c);

/* The thread activity's records (profile-read-act.c). */
int rec_act(struct parser *ps, struct cursor *c);
int rec_act_thread(struct parser *ps, struct cursor *c);
int rec_act_node(struct parser *ps, struct cursor *c);

/* The critical-path records (profile-read-cp.c). */
int rec_cp_link(struct parser *ps, struct cursor *c);
int rec_cp_seg(struct parser *ps, struct cursor *c);
int rec_cp_prefix(struct parser *ps, struct cursor *c);
int rec_cp_ev(struct parser *ps, struct cursor *c);
int rec_cp_edge(struct parser *ps, struct cursor *c);
int rec_cp_fn(struct parser *ps, struct cursor *c);
int rec_cp_point(struct parser *ps, struct cursor *c);
/* After the last record: the rules of cp_fn_how and cp_fn_start, which
 * depend on the number of cp_fn records, and those of the cut and the fold
 * point, which depend on the links and segments. */
int pr_cp_finish(struct parser *ps);

/* The record is of a merged profile (merged) or of a rank's (!merged). */
int pr_merged_only(struct parser *ps, const char *key, bool merged);
/* r, a field called what, is a rank of the job: 0 <= r, and r < size
 * when size > 0. */
int pr_rank_of_job(struct parser *ps, int64_t r, const char *what);
int rec_merged(struct parser *ps, struct cursor *c);
int rec_m_thread(struct parser *ps, struct cursor *c);
int rec_m_pair(struct parser *ps, struct cursor *c);
int rec_m_rank(struct parser *ps, struct cursor *c);
int rec_m_node(struct parser *ps, struct cursor *c);
int rec_m_site(struct parser *ps, struct cursor *c);
int rec_m_fn(struct parser *ps, struct cursor *c);
int rec_m_kept(struct parser *ps, struct cursor *c);

/* A cp_link line [s, end) amid cp_link records, if it is nothing but three
 * canonical numbers: the commonest line of a long run, without the
 * generic line's checks (digits and spaces need none).  Returns 0 or -1 as
 * rec_cp_link, or PR_NOT_FAST for any other line, which the generic path
 * then reads. */
#define PR_NOT_FAST 2
int rec_cp_link_fast(struct parser *ps, const char *s, const char *end);
/* pr_merged_start: the rows of a merged profile, once the header is read;
 * pr_merged_finish: the rules of a merged profile after the last record. */
int pr_merged_start(struct parser *ps);
int pr_merged_finish(struct parser *ps);

#endif
