/*
 * cluster.h - MPI ranks grouped into classes by their activity graphs
 * (cluster.c; docs/graph.md): ranks whose graphs have the same nodes,
 * edges and messages with the same counts, and whose times are close,
 * make one class.  Pure functions over what the report keeps of each rank
 * (merge-graph.c fills it), so that tests and bench/cluster-bench.c can
 * call them on graphs made by hand.
 */
#ifndef CPPERF_REPORT_CLUSTER_H
#define CPPERF_REPORT_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rank-runs.h"

/* No such site, rank or class: a sender that left no graph, or whose
 * site its graph does not name. */
#define CL_NONE UINT32_MAX

/* A node: the rank's calls of one call site, and their time. */
struct cl_node {
	uint32_t site;		/* the MPI view's call site id less 1 */
	uint64_t calls, time_ns;
	/* MPI_Init or MPI_Finalize: outside the MPI region, their time is the
	 * job's start and end skew more than the rank's work, and counts in
	 * no distance */
	bool outside;
};

/* A computation edge: count times a thread's call at site from was
 * followed by one at site to, time_ns between them in all; or a
 * completion edge: count non-blocking requests started at site from were
 * completed at site to, time_ns after they started in all. */
struct cl_edge {
	uint32_t from, to;
	bool completion;	/* a completion edge, else a computation edge */
	uint64_t count, time_ns;
};

/* A call path sampled in a computation edge: the samples of the first
 * event whose leaf is node (of the report's tree). */
struct cl_path {
	uint32_t from, to;	/* the edge's sites */
	uint32_t node;
	uint64_t samples;
};

/* Messages the rank received at recv_site from send_rank's send_site. */
struct cl_msg {
	uint32_t recv_site;
	int64_t send_rank;
	uint32_t send_site;	/* CL_NONE when not known */
	uint64_t count, bytes, late_sender_ns;
};

/* One rank's activity graph. */
struct cl_rank {
	int64_t rank;
	/* its nodes' calls and times are its own; false for a rank of a
	 * merged profile, whose calls are what its edges imply, its times 0 */
	bool node_times;
	struct cl_node *nodes;	/* by site, one per site */
	uint32_t nnodes;
	struct cl_edge *edges;	/* by (completion, from, to), one each */
	uint32_t nedges;
	struct cl_path *paths;	/* by (from, to), most samples first */
	uint32_t npaths;
	struct cl_msg *msgs;	/* what it received, any order */
	uint32_t nmsgs;
};

/* A class of ranks: its representative is its lowest rank. */
struct cl_class {
	uint32_t rep;		/* index into the ranks */
	uint32_t size;
	struct rank_runs ranks;
};

/* A message seen from both ends: indices into the ranks. */
struct cl_link {
	uint32_t send;		/* CL_NONE: the sender is not among the ranks */
	uint32_t recv;
	const struct cl_msg *m;
};

struct cl_result {
	const struct cl_rank *ranks;	/* the input, by rank */
	uint32_t nranks;
	uint32_t *class_of;	/* [nranks] the class of each rank */
	struct cl_class *classes;	/* by lowest rank */
	uint32_t nclasses;
	struct cl_link *links;	/* every message, by sender (unknown last), receiver */
	uint32_t nlinks;
	uint32_t *sent;		/* [nranks + 1]: rank i sent links[sent[i] .. sent[i+1]) */
	double tol;		/* the tolerance they were made with, a fraction */
};

/*
 * Group nranks ranks (by ascending rank, their nodes and edges sorted as
 * struct cl_rank says) into classes.  Two ranks are alike when their
 * graphs have the same nodes (calls equal), the same edges (counts equal)
 * and the same messages (counts equal, each peer named as docs/graph.md
 * says: by its rank less the rank's own, or by its rank when the peer's
 * site exchanges messages with more than two ranks), and when the root of
 * the sum over nodes (but those outside) and computation edges of their times'
 * squared differences is at most tol (a fraction, 0.02 for 2 %) of the
 * larger of their total times.  Ranks are taken in order and each joins the first class whose
 * representative is alike, else starts one.  r keeps pointers into
 * ranks.  Returns 0, or -1 with a message in err when memory is short.
 */
int cluster_build(struct cl_result *r, const struct cl_rank *ranks, uint32_t nranks, double tol,
		  char *err, size_t errlen);
void cluster_release(struct cl_result *r);

/* The paths sampled in x's computation edge e: *n of them from the one
 * returned, most sampled first; their samples in all into *samples. */
const struct cl_path *cluster_edge_paths(const struct cl_rank *x, const struct cl_edge *e,
					 uint32_t *n, uint64_t *samples);

/* The index of rank among r's ranks, or CL_NONE. */
uint32_t cluster_rank_index(const struct cl_result *r, int64_t rank);

/* Messages between classes: from send_class's send_site to recv_class's
 * recv_site (CL_NONE: a sender not among the ranks, or its site not
 * known). */
struct cl_cmsg {
	uint32_t send_class, send_site, recv_class, recv_site;
	uint64_t count, bytes, late_sender_ns;
};

/*
 * The messages class c's representative received, and when sent is true
 * those it sent, each end named by class and site, summed by those four
 * (saturating) and sorted by them, into a new *out (the caller frees it)
 * of *n.  Returns 0, or -1 when memory is short.
 */
int cluster_messages(const struct cl_result *r, uint32_t c, bool sent, struct cl_cmsg **out,
		     uint32_t *n);

#endif
