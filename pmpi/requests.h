/*
 * requests.h - the requests cpperf tracks until they complete, and the
 * snapshot a Wait or Test call takes of them (requests.c).
 */
#ifndef CPPERF_PMPI_REQUESTS_H
#define CPPERF_PMPI_REQUESTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "call.h"
#include "p2p.h"

/* Point-to-point requests (p2p.h), whose buffers live until they
 * complete: an entry taken before the call that makes the request, for
 * its side to be laid out in place (its `side`, in the entry's room when
 * small), then tracked with the request the call made, or dropped when
 * it made none (its side's buffers released first).  A non-blocking
 * collective's piggyback companion, completed with req; MPI_Start
 * (before the call). */
struct pmpi_tracked;
struct pmpi_tracked *pmpi_req_new(void);
struct p2p_room pmpi_req_room(struct pmpi_tracked *t);
void pmpi_req_track(struct pmpi_call *c, struct pmpi_tracked *t, MPI_Request req,
		    enum p2p_kind kind, MPI_Comm comm, int peer, int tag);
/* Free t: its entry, or the copy it is (freed.h). */
void pmpi_req_drop(struct pmpi_tracked *t);
struct pmpi_pb_coll;
/* A non-blocking collective's request *req, x its piggyback's; without
 * memory to track it, completed now (the call waited for, when it
 * carries the piggyback inside it: *req is MPI_REQUEST_NULL then). */
void pmpi_req_track_coll(struct pmpi_call *c, MPI_Request *req, struct pmpi_pb_coll *x);
void pmpi_req_start(struct pmpi_call *c, int n, const MPI_Request *reqs);
/* MPI_Request_free: a request freed while active whose buffers MPI may
 * still use is kept (freed.c) and the program gets MPI_REQUEST_NULL. */
int pmpi_x_request_free(MPI_Request *req);
/* MPI_Request_get_status: a receive it sees complete gets its count
 * corrected and its data unpacked (p2p.c) before the program looks. */
int pmpi_x_request_get_status(MPI_Request req, int *flag, MPI_Status *st);
/* A tracked request: what its completion does (requests.c's own; here
 * for the size of a snapshot). */
struct pmpi_tracked {
	bool persistent;
	bool claimed;		/* a completion call holds it (see pmpi_reqs_before) */
	bool active;		/* persistent: started and not completed */
	bool alone;		/* a copy outside any entry (pmpi_req_drop frees it) */
	unsigned char kind;	/* enum p2p_kind, or a collective */
	MPI_Request req;
	int site;
	int tag;		/* point-to-point: the message's tag */
	int64_t peer;		/* persistent send: world rank */
	MPI_Comm comm;		/* point-to-point: the communicator (a persistent
				 * send restamps its check block from it) */
	struct p2p_side side;	/* point-to-point: the buffers MPI was given */
	struct pmpi_pb_coll *coll;	/* non-blocking collective: the companion */
};
/* The tracked requests of a Wait or Test call, claimed before the call:
 * once MPI has completed a request it may hand its handle to another
 * thread's new request before this call's wrapper looks at it, and a
 * claimed entry is the claimer's alone.  Small calls use the arrays
 * inside. */
#define PMPI_SNAP_SMALL 16
struct pmpi_snap {
	int n;			/* requests, 0 when none is tracked */
	int many;		/* statuses is an array (else one status) */
	bool skip;		/* statuses could not be kept: count nothing */
	struct pmpi_tracked **ent;	/* per request its claimed entry, NULL untracked */
	MPI_Status *st;		/* our statuses when the caller ignores them */
	void *fst;		/* Fortran statuses likewise (fortran.c) */
	struct pmpi_tracked *small_ent[PMPI_SNAP_SMALL];
	MPI_Status small_st[PMPI_SNAP_SMALL];
};
/* Before a completion call: claim the tracked requests among reqs[0..n)
 * (no other call may take them until released); when there
 * are some and the caller passed MPI_STATUS(ES)_IGNORE, point *statuses at
 * statuses of our own (many: one per request, else one). */
void pmpi_reqs_before(struct pmpi_snap *s, int n, const MPI_Request *reqs,
		      MPI_Status **statuses, int many);
/* After it: count the receives it completed (from index, flag, outcount and
 * indices, NULL when the call has none), release the claims and the
 * snapshot.  Always call it, whatever rc. */
void pmpi_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, int rc, MPI_Status *statuses,
		     const int *index, const int *flag, const int *outcount, const int *indices);
/* pmpi_reqs_after with the base of index and indices (1: Fortran). */
void pmpi_reqs_complete(struct pmpi_call *c, struct pmpi_snap *s, int rc, MPI_Status *statuses,
			const int *index, const int *flag, const int *outcount,
			const int *indices, int base);

#endif
