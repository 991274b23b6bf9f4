/*
 * piggyback.h - the data cpperf attaches to every point-to-point message
 * and every collective (docs/mpi.md "Piggyback").
 *
 * A point-to-point message carries it in front of its data, encoded as
 * wire.h says (p2p.c), so every message is paired with its own.  A
 * collective starts a companion collective on the same communicator right
 * after the user's (a reduction with the merge operator below, a broadcast
 * from the root, a scan or a neighbour allgather), completed after the
 * user's call or when the user's request completes: MPI matches
 * collectives on a communicator in the order they are called, which the
 * program keeps the same on every rank, so companions match one for one.
 * No communicator of ours is made, none of the program's attribute
 * callbacks runs.
 *
 * The piggyback travels only between processes of one MPI_COMM_WORLD (one
 * launch of cpperf-record): a process that another world started or met
 * (MPI_Comm_spawn, MPI_Comm_connect, ...) may run without cpperf, and its
 * world numbers its ranks, times and layout its own way.  So it rides only
 * on the communicators whose members all belong to this process's
 * MPI_COMM_WORLD, which every member finds alike from the communicator's
 * groups (pmpi_pb_comm).
 */
#ifndef CPPERF_PMPI_PIGGYBACK_H
#define CPPERF_PMPI_PIGGYBACK_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "copy.h"
#include "pb.h"
#include "pb-rules.h"
#include "comms.h"
#include "wire.h"
#include "way.h"

/* --cp-trace: who took part in a collective, gathered beside the companion. */
struct pmpi_pb_who {
	int64_t rank;
	uint64_t event;
};

/* A collective's companion in progress. */
struct pmpi_pb_coll {
	bool heap;		/* allocated (a non-blocking collective's) */
	bool started;		/* the companion is under way */
	bool fused;		/* carried inside the user's call (allreduce.c): out is in */
	MPI_Request req;
	struct pmpi_comm_facts cf;	/* the user's communicator's */
	int root;
	bool is_root;		/* this rank is a reduce's or gather's root */
	enum pmpi_pb_dir dir;
	uint64_t t0;		/* entry of the user's call */
	uint64_t seq;		/* this rank's number of the collective */
	struct pmpi_pb *nbr;	/* PMPI_PB_NBR: one per in-neighbour */
	int nnbr;
	struct pmpi_pb_who me, *who;	/* --cp-trace: every rank's (rank, event) */
	int nwho;
	MPI_Request who_req;
	/* a non-blocking call that carries it (fused): out_bytes of data
	 * at out_at in out go to out_to when it completes, once */
	void *out_to;
	uint32_t out_at, out_bytes;
	/* a non-blocking call that carries it in blocks of ours (gather.c):
	 * they and what becomes of them at completion */
	struct pmpi_pb_room *room;
	/* a non-blocking exclusive scan that carries it: its own joins out
	 * at completion (pmpi_pb_coll_exclusive), once; first: rank 0's */
	bool exclusive, first;
	/* last, for pmpi_pb_coll_begin: a job without zeroing sets and moves
	 * only their first PMPI_PB_CORE bytes */
	struct pmpi_pb in, out;
};

struct pmpi_call;
struct rt_state;

/* piggyback.c: set up at MPI_Init, collective over MPI_COMM_WORLD (after
 * which wrappers may call the rest): on unless --no-piggyback; the header's
 * layout agreed between the ranks; which ranks share this host; whether
 * this process has a parent in another world. */
void pmpi_pb_start(bool on, int world_rank, int world_size, const struct rt_state *rt);
/* MPI_Finalize: report the check (CPPERF_PIGGYBACK_CHECK); no piggyback
 * after it. */
void pmpi_pb_finalize(void);
/* A communicator the program frees: its collective numbers start again. */
void pmpi_pb_comm_free(MPI_Comm comm);

/* piggyback.c: the piggyback travels (the job's analyses ride on it). */
extern bool pmpi_pb_on;

/* piggyback-coll.c: before a collective on comm, fill its piggyback; local
 * holds it for a blocking call, whose companion starts once the user's call
 * has returned; a non-blocking one (nonblocking) gets one allocated, whose
 * companion starts right after the user's call (pmpi_pb_coll_end), unless
 * the call carried the piggyback.  NULL when the piggyback does not
 * travel on comm. */
struct pmpi_pb_coll *pmpi_pb_coll_open(struct pmpi_call *c, struct pmpi_pb_coll *local,
					bool nonblocking, const struct pmpi_comm_facts *cf,
					int root, enum pmpi_pb_dir dir, enum pmpi_way quick);
static inline struct pmpi_pb_coll *pmpi_pb_coll_begin(struct pmpi_call *c,
						      struct pmpi_pb_coll *local,
						      bool nonblocking,
						      const struct pmpi_comm_facts *cf, int root,
						      enum pmpi_pb_dir dir, enum pmpi_way quick)
{
	/* inline: without the piggyback a collective costs no call here */
	return quick || pmpi_pb_on ?
	       pmpi_pb_coll_open(c, local, nonblocking, cf, root, dir, quick) : NULL;
}
/* After the user's call (rc): a blocking collective's companion completes
 * now; a non-blocking one is handed to requests.c with the user's request
 * *req and completes with it (pmpi_pb_coll_finish). */
void pmpi_pb_coll_end(struct pmpi_call *c, struct pmpi_pb_coll *x, int rc, MPI_Request *req,
		      enum pmpi_pb_dir dir, enum pmpi_way quick);
/* x completed, of direction dir (x->dir; a wrapper passes its own, a
 * constant): its companion's end, the units' merges, x freed when on the
 * heap.  From pmpi_pb_coll_end, or from the request of a non-blocking
 * collective (requests.c). */
void pmpi_pb_coll_finish(struct pmpi_pb_coll *x, struct pmpi_call *c, enum pmpi_pb_dir dir,
			 enum pmpi_way quick);
/* A non-blocking call that carried the piggyback, seen complete: its data
 * given to the program, the first time only (the buffer is the
 * program's from then on). */
void pmpi_pb_coll_data_out(struct pmpi_pb_coll *x);
/* An exclusive scan that carried the piggyback: x->out made what the
 * ranks before it sent and its own, as a scan's (the first rank receives
 * none: its own alone); pbb bytes of it. */
void pmpi_pb_coll_exclusive(struct pmpi_pb_coll *x, bool first, size_t pbb);
/* gather.c: a non-blocking call's blocks seen complete: their data to
 * the program and their piggybacks to x->out, the first time only; and
 * freed, when x is. */
void pmpi_pb_room_out(struct pmpi_pb_coll *x);
void pmpi_pb_room_free(struct pmpi_pb_coll *x);
/* A room of bytes for x that MPI reads until x's request completes,
 * freed with x: nothing becomes of its blocks (a reduce-scatter's, whose
 * result arrives in x's own buffers). */
unsigned char *pmpi_pb_room_keep(struct pmpi_pb_coll *x, size_t bytes);
/* A quick collective (call.h; mpi-api.def's quick) is blocking: whether
 * x is on the heap, as its steps read it, which the compiler then knows. */
static inline bool pmpi_pb_coll_heap(const struct pmpi_pb_coll *x, enum pmpi_way quick)
{
	return !quick && x->heap;
}
/* At MPI_Init, the piggyback on: make the companions' merge operator;
 * at MPI_Finalize: free it. */
int pmpi_pb_coll_start(void);
void pmpi_pb_coll_stop(void);

/* piggyback.c, for p2p.c and piggyback-coll.c */
extern bool pmpi_pb_checking;
/* The job's header layout (wire.h); len 0 when messages carry none. */
extern struct wire_layout pmpi_wire;
/* One struct pmpi_pb in a companion: its first pmpi_pb_bytes bytes
 * (PMPI_PB_CORE, or all of it when the job zeroes), its extent the
 * struct's. */
extern MPI_Datatype pmpi_pb_type;
extern size_t pmpi_pb_bytes;
/* The same, a constant when quick (call.h: the core alone). */
static inline size_t pmpi_pb_size(enum pmpi_way quick)
{
	return quick ? PMPI_PB_CORE : pmpi_pb_bytes;
}
/* Does the piggyback travel on comm (its messages' headers, its
 * collectives' companions): on, and comm within MPI_COMM_WORLD.  Until a
 * communicator of this process spans worlds (pmpi_pb_comm_born), every
 * one is, and that costs the load of pmpi_wire.by_comm beside
 * pmpi_wire.len; from then on each communicator is asked (comms.c). */
static inline bool pmpi_pb_comm(MPI_Comm comm)
{
	return pmpi_wire.len &&
	       (!__atomic_load_n(&pmpi_wire.by_comm, __ATOMIC_RELAXED) || pmpi_comm_in_world(comm));
}

/* After a call made comm, which may span worlds (the parent of a spawned
 * process at MPI_Init, MPI_Comm_spawn, MPI_Comm_accept,
 * MPI_Intercomm_create, ...; mpi-api.def's comm.new): when it does, each
 * communicator is asked from now on.  A process joins a communicator that
 * spans worlds only through such a call or by making it from one it
 * belongs to already, so every member has seen one born.  Local calls
 * only. */
void pmpi_pb_comm_born(MPI_Comm comm);

/*
 * Blocking collectives that carry the piggyback inside them when every
 * rank can (x->fused then, x->out the merged piggyback), else make the
 * user's call alone (x's companion follows); x is NULL for a call not
 * profiled.  Every rank decides alike: the communicator (pmpi_pb_coll_fusable),
 * then what MPI makes the same on all ranks (the data's
 * size; for reductions the datatype and operator), up to
 * PMPI_PB_FUSED_MAX bytes of data.
 */
#define PMPI_PB_FUSED_MAX 1024
/* Whether data of `bytes` fit behind a piggyback of pbb bytes in its own
 * struct, in the room of the fields it does not move (the zeroing block
 * of a job that moves the core alone, pb.h): then x->in and x->out are
 * the fused call's buffers, no copy of the piggyback either way. */
static inline bool pmpi_pb_fits_behind(size_t pbb, uint64_t bytes)
{
	return pbb + bytes <= sizeof(struct pmpi_pb);
}
/* comm's facts when a call on it may carry the piggyback (an
 * intracommunicator it travels on), else NULL: x's when the call is
 * profiled (x exists only where the piggyback travels), else looked up
 * into own; with own NULL (a non-blocking call, which goes plain when
 * not profiled) x's alone.  MPI_COMM_NULL goes plain: MPI's error then
 * names the program's own arguments. */
static inline const struct pmpi_comm_facts *
pmpi_pb_coll_fusable(const struct pmpi_pb_coll *x, MPI_Comm comm, enum pmpi_way quick,
		     struct pmpi_comm_facts *own)
{
	const struct pmpi_comm_facts *f = own;

	/* quick: on, on every communicator (call.h) */
	if (x)
		f = &x->cf;
	else if (own && comm != MPI_COMM_NULL && (quick || (pmpi_pb_on && pmpi_pb_comm(comm))))
		*own = pmpi_comm_facts(comm);
	else
		return NULL;
	return f->inter ? NULL : f;
}
/* piggyback-coll.c: MPI_Barrier and MPI_Ibarrier, as the companion's
 * allreduce alone. */
int pmpi_x_barrier(struct pmpi_pb_coll *x, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_ibarrier(struct pmpi_pb_coll *x, MPI_Comm comm, MPI_Request *req);
/* bcast.c: MPI_Bcast of [piggyback | data]; MPI_Ibcast of it in x's
 * own buffers when the data fit behind the piggyback, with its
 * companion's after it otherwise. */
int pmpi_x_bcast(struct pmpi_pb_coll *x, void *buf, int count, MPI_Datatype type, int root,
		 MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_ibcast(struct pmpi_pb_coll *x, void *buf, int count, MPI_Datatype type, int root,
		  MPI_Comm comm, MPI_Request *req);
/* allreduce.c: MPI_Allreduce, MPI_Reduce, MPI_Scan, MPI_Exscan,
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter of [piggyback | data]
 * with an operator of ours. */
int pmpi_x_allreduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		     MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_reduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_scan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_exscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_reduce_scatter_block(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
				MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_reduce_scatter(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, const int *counts,
			  MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick);
/* MPI_Iallreduce, MPI_Ireduce, MPI_Iscan and MPI_Iexscan of [piggyback |
 * data] in x's own buffers when the data fit behind the piggyback, with
 * their companion's after them otherwise. */
int pmpi_x_iallreduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		      MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int pmpi_x_ireduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req);
int pmpi_x_iscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int pmpi_x_iexscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req);
/* MPI_Ireduce_scatter_block and MPI_Ireduce_scatter of [piggyback | data]
 * blocks kept until completion, the result in x's own buffers when it
 * fits behind the piggyback. */
int pmpi_x_ireduce_scatter_block(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
				 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int pmpi_x_ireduce_scatter(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf,
			   const int *counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			   MPI_Request *req);
/* At MPI_Finalize: free its datatypes and operator. */
void pmpi_x_allreduce_stop(void);
/* gather.c: MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall and
 * MPI_Allgatherv of [piggyback | data] blocks of up to PMPI_PB_FUSED_MAX
 * bytes of data, all of a call's within PMPI_PB_GATHER_ROOM bytes (on
 * the stack; their non-blocking forms' on the heap, x->room). */
#define PMPI_PB_GATHER_ROOM 4096
int pmpi_x_gather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_scatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_allgather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_alltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_allgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		      void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
		      MPI_Comm comm, enum pmpi_way quick);
int pmpi_x_igather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
		   MPI_Request *req);
int pmpi_x_iscatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		    void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
		    MPI_Request *req);
int pmpi_x_iallgather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		      void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int pmpi_x_ialltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int pmpi_x_iallgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		       void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
		       MPI_Comm comm, MPI_Request *req);

/* The next collective number on comm, the piggyback on; false when the
 * piggyback does not travel on comm (the same on every member). */
bool pmpi_pb_coll_seq(MPI_Comm comm, uint64_t *seq, enum pmpi_way quick);
/* Fill a piggyback with this rank's current values for call c, whose data
 * leave at t_send: the tool's work since the call's entry is delay. */
void pmpi_pb_fill(struct pmpi_pb *pb, const struct pmpi_call *c, int site, uint64_t t_send,
		  enum pmpi_way quick);
/* The same written as a header at hdr, when the job's is the core alone
 * (pmpi_wire.len == WIRE_CORE): no struct pmpi_pb on the way.  quick: as
 * call.h says. */
void pmpi_pb_stamp_core(unsigned char *hdr, const struct pmpi_call *c, int site, uint64_t t_send,
			enum pmpi_way quick);
/* The piggyback of a call not profiled: this rank's, saying nothing else. */
void pmpi_pb_fill_none(struct pmpi_pb *pb, uint64_t t_send);
/* The first pbb bytes of this rank's piggyback for a collective that
 * carries it inside, at d: x's, or one that says nothing for a call not
 * profiled (x NULL). */
static inline void pmpi_pb_coll_put(unsigned char *d, const struct pmpi_pb_coll *x, size_t pbb)
{
	struct pmpi_pb none;

	if (x) {
		pmpi_copy_mostly(d, &x->in, pbb, PMPI_PB_CORE);
		return;
	}
	pmpi_pb_fill_none(&none, 0);	/* a whole struct: more than d may hold */
	memcpy(d, &none, pbb);
}
/* This rank in MPI_COMM_WORLD; whether a world rank runs on this host;
 * how many do (1 when the piggyback is off). */
int pmpi_pb_rank(void);
bool pmpi_pb_same_host(int rank);
int pmpi_pb_host_ranks(void);
/* Check mode: does pb belong to the message of bytes received with
 * status st (its sender's rank in the communicator, tag and size); count a
 * received piggyback, and one that did not match. */
bool pmpi_pb_matches(const struct pmpi_pb *pb, const MPI_Status *st, uint64_t bytes);
void pmpi_pb_count(bool coll, bool mismatch);
/* A received piggyback of call c: was its sender late (its send started
 * after c was entered)?  Counted per rank in check mode, which prints it. */
void pmpi_pb_late(const struct pmpi_call *c, const struct pmpi_pb *pb);

#endif
