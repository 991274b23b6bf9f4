/*
 * piggyback.h - the data cpperf attaches to every point-to-point message
 * and every collective (docs/mpi.md "Piggyback"), and the hooks the generated
 * wrappers call to send and receive it.
 *
 * Transport (docs/mpi.md "Piggyback"): a separate message on a shadow
 * communicator, a PMPI_Comm_dup of each user communicator made when the
 * user's one is created.  A send first posts a standard-mode PMPI_Isend of
 * one struct pmpi_pb to the same destination with the same tag on the
 * shadow; a receive, once complete, receives one struct from
 * status.MPI_SOURCE with status.MPI_TAG on the shadow.  MPI's
 * non-overtaking rule per (source, tag, communicator) keeps the two streams
 * paired.  A collective starts a companion non-blocking collective on the
 * shadow before the user's call (a reduction with the merge operator
 * below, a broadcast from the root, a scan or a neighbour allgather) and
 * completes it after the user's call, or when the user's request completes.
 * The user's communicator never carries anything of ours, so matching,
 * probes, counts and statuses are the program's own.
 */
#ifndef CPPERF_PMPI_PIGGYBACK_H
#define CPPERF_PMPI_PIGGYBACK_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#define PMPI_PB_VERSION 4
#define PMPI_PB_SHARES 8	/* selected functions for critical-path shares */

/* flags */
#define PMPI_PB_F_COLL 1u	/* a collective's companion, not a message */
#define PMPI_PB_F_MISMATCH 2u	/* merged companions of different collectives */
#define PMPI_PB_F_CPFN 4u	/* carries zeroing data: fn, share, net */
#define PMPI_PB_F_HOSTS 8u	/* merged from ranks on different hosts */

/*
 * The piggyback, fixed size, sent as bytes (one contiguous datatype): all
 * ranks of a job run the same cpperf, so layout and byte order agree.
 * Fields of later issues travel as zero until then.
 */
struct pmpi_pb {
	uint16_t version;	/* PMPI_PB_VERSION */
	uint16_t flags;		/* PMPI_PB_F_* */
	int32_t rank;		/* sender's MPI_COMM_WORLD rank */
	int32_t site;		/* sender's call-site id, -1 when unknown */
	int32_t tag;		/* tag of the user's message (check mode) */
	uint64_t seq;		/* send sequence number of the sender; for a
				 * collective, its number on the communicator */
	uint64_t t_send;	/* CLOCK_MONOTONIC ns when the user's data left:
				 * the stamp, plus for a point-to-point send the
				 * shadow's own Isend (collective: the latest) */
	uint64_t bytes;		/* size of the user's message (check mode) */
	uint64_t event;		/* sender's critical-path event (collective:
				 * the winner's), 0 when it has no path yet */
	int64_t cp;		/* critical-path length at that event, ns */
	int64_t share[PMPI_PB_SHARES];	/* S_f: each selected function's time along cp */
	int64_t net[PMPI_PB_SHARES];	/* N_f: the path without that function */
	uint64_t fn[PMPI_PB_SHARES];	/* the selection: FNV-1a of the names, 0 unused */
	int64_t delay;		/* overhead-compensation delay x, ns, at t_send
				 * (merged: the least) */
	uint64_t t_free;	/* t_send - delay: when the data would have been
				 * ready without measurement (merged: the latest) */
	uint64_t host;		/* hash of the sender's host: t_free is comparable
				 * with local clocks only on the same host */
};

_Static_assert(sizeof(struct pmpi_pb) == 272, "piggyback layout changed: bump PMPI_PB_VERSION");

/* How a collective's companion moves the piggyback (mpi-api.def flags). */
enum pmpi_pb_dir {
	PMPI_PB_ALL,		/* every output depends on every input: allreduce */
	PMPI_PB_FROMROOT,	/* root to all: broadcast */
	PMPI_PB_TOROOT,		/* all to the root: reduce */
	PMPI_PB_PREFIX,		/* lower ranks to higher: scan */
	PMPI_PB_NBR,		/* topology neighbours: neighbour allgather */
};

/* --cp-trace: who took part in a collective, gathered beside the companion. */
struct pmpi_pb_who {
	int64_t rank;
	uint64_t event;
};

/* A collective's companion in progress. */
struct pmpi_pb_coll {
	bool heap;		/* allocated (a non-blocking collective's) */
	bool started;		/* the companion is under way */
	MPI_Request req;
	MPI_Comm comm, sh;	/* the user's communicator and its shadow */
	int root;
	enum pmpi_pb_dir dir;
	uint64_t t0;		/* entry of the user's call */
	uint64_t seq;		/* this rank's number of the collective */
	struct pmpi_pb in, out;
	struct pmpi_pb *nbr;	/* PMPI_PB_NBR: one per in-neighbour */
	int nnbr;
	struct pmpi_pb_who me, *who;	/* --cp-trace: every rank's (rank, event) */
	int nwho;
	MPI_Request who_req;
	bool inter, is_root;	/* intercommunicator; this rank is a reduce's root */
	int myrank;		/* in the communicator, -1 for an intercommunicator */
};

struct pmpi_call;

/* piggyback.c: set up at MPI_Init (after which wrappers may call the rest):
 * on unless --no-piggyback; shadows of MPI_COMM_WORLD and MPI_COMM_SELF. */
void pmpi_pb_start(bool on, int world_rank);
/* MPI_Finalize: complete our sends, report the check (CPPERF_PIGGYBACK_CHECK). */
void pmpi_pb_finalize(void);
/* A communicator the program made (MPI_COMM_NULL ignored): make its shadow,
 * a collective over comm like the call that made it; and the one it frees. */
void pmpi_pb_comm_new(MPI_Comm comm);
void pmpi_pb_comm_free(MPI_Comm comm);
/* Before a point-to-point send of count x type to dest (not MPI_PROC_NULL). */
void pmpi_pb_send(struct pmpi_call *c, int count, MPI_Datatype type, int dest, int tag,
		  MPI_Comm comm);
/* The same for a send started by call c (MPI_Start) from another site. */
void pmpi_pb_send_at(const struct pmpi_call *c, int site, int count, MPI_Datatype type, int dest,
		     int tag, MPI_Comm comm);
/* After a receive on comm completed with status st (any status: nothing
 * for MPI_PROC_NULL, a cancelled request or an inactive persistent one).
 * c is the call that completed it (its entry time: late-sender wait). */
void pmpi_pb_recv(const struct pmpi_call *c, MPI_Comm comm, const MPI_Status *st);
/* Matched probes: the communicator of a message, kept until its Mrecv. */
void pmpi_pb_message(MPI_Message msg, MPI_Comm comm);
MPI_Comm pmpi_pb_message_comm(MPI_Message msg);

/* piggyback-coll.c: before a collective on comm, fill its piggyback; local
 * holds it for a blocking call, whose companion starts once the user's call
 * has returned; a non-blocking one (nonblocking) gets one allocated and its
 * companion starts now.  NULL when there is none (off, no shadow). */
struct pmpi_pb_coll *pmpi_pb_coll_begin(struct pmpi_call *c, struct pmpi_pb_coll *local,
					 bool nonblocking, MPI_Comm comm, int root,
					 enum pmpi_pb_dir dir);
/* After the user's call (rc): a blocking collective's companion completes
 * now; a non-blocking one is handed to requests.c with the user's request
 * *req and completes with it (pmpi_pb_coll_finish). */
void pmpi_pb_coll_end(struct pmpi_call *c, struct pmpi_pb_coll *x, int rc, const MPI_Request *req);
void pmpi_pb_coll_finish(struct pmpi_pb_coll *x, const struct pmpi_call *c);
/* At MPI_Finalize: free the merge operator. */
void pmpi_pb_coll_stop(void);

/* piggyback.c, for piggyback-coll.c */
extern bool pmpi_pb_on, pmpi_pb_checking;
extern MPI_Datatype pmpi_pb_type;	/* one struct pmpi_pb, contiguous bytes */
/* The shadow of comm and the next collective number on it; false when
 * comm has none. */
bool pmpi_pb_shadow(MPI_Comm comm, MPI_Comm *shadow, uint64_t *coll_seq);
/* Fill a piggyback with this rank's current values for call c, whose data
 * will leave lead ns from now. */
void pmpi_pb_fill(struct pmpi_pb *pb, const struct pmpi_call *c, int site, uint64_t lead);
/* Check mode: count a received piggyback, and one that did not match. */
void pmpi_pb_count(bool coll, bool mismatch);

#endif
