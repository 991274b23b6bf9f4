/*
 * pmpi.h - what the generated MPI wrappers (build/gen/pmpi-wrappers.c, from
 * pmpi/mpi-api.def) call: the hand-written logic of the MPI layer.
 *
 * A wrapper opens a struct pmpi_call with pmpi_enter, calls the PMPI (or
 * the library's Fortran pmpi_xxx_) function, hands the call's facts over
 * (bytes, peers, requests) and closes it with pmpi_leave, which adds them
 * to the call site's statistics.  Wrappers may run on any thread at once
 * (MPI_THREAD_MULTIPLE); everything here is thread-safe, and the common path
 * allocates nothing.  The piggyback transport's hooks are in piggyback.h.
 */
#ifndef CPPERF_PMPI_H
#define CPPERF_PMPI_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "../sampler/rt.h"
#include "p2p.h"

/* A handle (a pointer in Open MPI, an int in MPICH) as a hash key. */
#define PMPI_HKEY(h) ((uint64_t)(uintptr_t)(h))

/* generated: "MPI_Send", ... indexed by the wrappers' function number */
extern const unsigned pmpi_fn_count;
extern const char *const pmpi_fn_names[];

/* call flags, from the table */
#define PMPI_CALL_BLOCK 1u	/* all its time counts as blocked */
#define PMPI_CALL_TESTBLOCK 2u	/* blocked when it completed a request */
#define PMPI_CALL_INIT 4u	/* MPI_Init*: entered before MPI is up */

/* One MPI call in progress; lives on the wrapper's stack. */
struct pmpi_call {
	uint64_t t0;		/* CLOCK_MONOTONIC at entry */
	uint64_t t_done;	/* when a receive or collective it made completed,
				 * 0 before */
	const void *ra;		/* the caller's return address: the call site */
	unsigned fn, flags;
	int site;		/* index in the site table, -1 until looked up */
	uint64_t event;		/* critical-path event number, 0 when none */
	bool completed;		/* a Test* call completed something */
	uint64_t sent, recv;	/* bytes */
	int64_t peer;		/* world rank a point-to-point send went to, -1 none */
	uint64_t peer_bytes;	/* its size */
	unsigned nsizes;	/* message sizes for the histogram */
	uint64_t sizes[2];
	int64_t comm_size;	/* collectives: size of the communicator, else -1 */
	bool timed;		/* its own work is timed (call.c) */
	uint64_t own_ns;	/* that work before t0 */
};

/* call.c: begin a call; false means "just call PMPI" (not profiling, MPI
 * not initialised, or already inside a wrapper of this thread, e.g. the
 * MPI library's Fortran binding calling the C function).  Cannot fail. */
bool pmpi_enter(struct pmpi_call *c, unsigned fn, unsigned flags, const void *ra);
/* End the call: time, blocked time, bytes, peers into its site. */
void pmpi_leave(struct pmpi_call *c);
/* Wrappers record from now on (at MPI_Init, when profiling). */
void pmpi_calls_start(int world_size);
/* Wrappers only pass on from now on (profiling ended at MPI_Finalize). */
void pmpi_calls_stop(void);
/* The MPI library gave a thread level below MPI_THREAD_MULTIPLE: one
 * thread at a time calls MPI, so what only wrappers share needs no lock
 * (call.c, set at MPI_Init). */
extern bool pmpi_one_thread;

/* A lock that only wrappers take: none then.  A locked instruction right
 * after an MPI call waits for the call's stores to the lines its peer
 * polls, as long as a shared-memory message's latency. */
static inline void pmpi_lock(pthread_mutex_t *m)
{
	if (!pmpi_one_thread)
		pthread_mutex_lock(m);
}

static inline void pmpi_unlock(pthread_mutex_t *m)
{
	if (!pmpi_one_thread)
		pthread_mutex_unlock(m);
}

/* *x += v for a count that only wrappers change; the new value. */
static inline int64_t pmpi_add(int64_t *x, int64_t v)
{
	int64_t n;

	if (!pmpi_one_thread)
		return __atomic_add_fetch(x, v, __ATOMIC_RELAXED);
	n = __atomic_load_n(x, __ATOMIC_RELAXED) + v;
	__atomic_store_n(x, n, __ATOMIC_RELAXED);
	return n;
}
/* The call's site index (looked up on first use), -1 when the table is full. */
int pmpi_site(struct pmpi_call *c);
/* Add a received message of `bytes` to a site (a receive completed later
 * than the call that started it), and a persistent send's message started
 * now.  peer < 0: no peer. */
void pmpi_site_recv(int site, uint64_t bytes);
void pmpi_site_send(int site, uint64_t bytes, int64_t peer);
/* stats.c: the tables for a job of world_size ranks; a call's time dt,
 * bytes and peer into its site (*fresh: the site is new, its path to be
 * captured). */
void pmpi_activate(int world_size);
void pmpi_stats_add(struct pmpi_call *c, uint64_t dt, bool *fresh);

/* datatypes.c: a datatype's size (-1 when MPI refuses it); with the
 * layout, also whether count elements of it lie in one piece (*contig),
 * at *at bytes from the buffer's address.  The predefined ones are read
 * at MPI_Init (pmpi_types_start). */
void pmpi_types_start(void);
int64_t pmpi_type_size(MPI_Datatype type);
int64_t pmpi_type_layout(MPI_Datatype type, int count, bool *contig, MPI_Aint *at);
/* Whether MPI defines predefined operator op on type: a predefined
 * datatype without padding of a group op takes (MPI 4.0, 6.9.2); never a
 * derived datatype, which MPI refuses, nor one the table lacks. */
bool pmpi_op_defined_on(MPI_Op op, MPI_Datatype type);

/* stats.c: facts of a call.  Counts and types are read only here. */
uint64_t pmpi_bytes(int count, MPI_Datatype type);
uint64_t pmpi_bytes_v(const int *counts, MPI_Datatype type, int n);
uint64_t pmpi_bytes_w(const int *counts, const MPI_Datatype *types, int n);
void pmpi_sent(struct pmpi_call *c, int count, MPI_Datatype type, int dest, MPI_Comm comm);
void pmpi_received(struct pmpi_call *c, const MPI_Status *st);
/* Bytes of a received message from its status; 0 for MPI_PROC_NULL or a
 * cancelled request. *msg says whether there was a message at all. */
uint64_t pmpi_status_bytes(const MPI_Status *st, bool *msg);
void pmpi_coll(struct pmpi_call *c, MPI_Comm comm, uint64_t sent, uint64_t recv);
void pmpi_rma(struct pmpi_call *c, uint64_t sent, uint64_t recv);

/* comms.c: facts about communicators, cached per handle. */
enum pmpi_peers { PMPI_PEERS_N, PMPI_PEERS_NIN, PMPI_PEERS_NOUT };
/* Peers a collective exchanges with: the size (remote size of an
 * intercommunicator), or the neighbour in/out degree of a topology. */
int pmpi_npeers(MPI_Comm comm, enum pmpi_peers kind);
int pmpi_comm_rank(MPI_Comm comm);
int pmpi_comm_size(MPI_Comm comm);
bool pmpi_comm_inter(MPI_Comm comm);
/* Does every member of comm (both groups of an intercommunicator)
 * belong to this process's MPI_COMM_WORLD?  Asked of MPI once per
 * communicator, from its groups: local calls, no message.  False for
 * MPI_COMM_NULL. */
bool pmpi_comm_in_world(MPI_Comm comm);
/* World rank of rank r of comm's peer group (the remote group of an
 * intercommunicator), -1 when it has none (MPI_PROC_NULL, another world). */
int64_t pmpi_world_rank(MPI_Comm comm, int r);
/* Root significance of a rooted collective (see mpi-api.def). */
bool pmpi_is_root(MPI_Comm comm, int root);
bool pmpi_is_leaf(MPI_Comm comm, int root);
bool pmpi_is_nonroot(MPI_Comm comm, int root);
/* Drop what is cached about a communicator being freed. */
void pmpi_comm_forget(MPI_Comm comm);

/* requests.c: point-to-point requests (p2p.h), whose buffers live until
 * they complete; a non-blocking collective's piggyback companion,
 * completed with req; MPI_Start (before the call). */
void pmpi_req_track_side(struct pmpi_call *c, MPI_Request req, enum p2p_kind kind,
			 const struct p2p_side *d, MPI_Comm comm, int peer, int tag);
struct pmpi_pb_coll;
void pmpi_req_track_coll(struct pmpi_call *c, MPI_Request req, struct pmpi_pb_coll *x);
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
	bool used;
	bool persistent;
	bool claimed;		/* a completion call holds it (see pmpi_reqs_before) */
	bool active;		/* persistent: started and not completed */
	unsigned char kind;	/* enum p2p_kind, or a collective */
	MPI_Request req;
	uint64_t serial;	/* tells entries of one recycled handle apart */
	int site;
	int tag;		/* point-to-point: the message's tag */
	int64_t peer;		/* persistent send: world rank */
	MPI_Comm comm;		/* point-to-point: the communicator (a persistent
				 * send restamps its check block from it) */
	struct p2p_side side;	/* point-to-point: the buffers MPI was given */
	struct pmpi_pb_coll *coll;	/* non-blocking collective: the companion */
};
/* The tracked requests of a Wait or Test call, copied before the call:
 * once MPI has completed a request it may hand its handle to another
 * thread's new request before this call's wrapper looks at it.  Small
 * calls use the arrays inside. */
#define PMPI_SNAP_SMALL 16
struct pmpi_snap {
	int n;			/* requests, 0 when none is tracked */
	int many;		/* statuses is an array (else one status) */
	bool skip;		/* statuses could not be kept: count nothing */
	struct pmpi_tracked *ent;	/* per request; .used when tracked */
	MPI_Status *st;		/* our statuses when the caller ignores them */
	void *fst;		/* Fortran statuses likewise (fortran.c) */
	struct pmpi_tracked small_ent[PMPI_SNAP_SMALL];
	MPI_Status small_st[PMPI_SNAP_SMALL];
};
/* Before a completion call: claim the tracked requests among reqs[0..n)
 * (no other call may take them until released) and copy them; when there
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

/* freed.c: point-to-point requests freed while active, kept (false: no
 * memory) until MPI completes them, tested at the end of every profiled
 * call; at MPI_Finalize, tested once more and freed in MPI. */
bool pmpi_freed_keep(const struct pmpi_tracked *t);
void pmpi_freed_poll(void);
void pmpi_freed_at_finalize(void);

/* init.c: after MPI_Init*: rank, size, library, experiment directory,
 * run. */
void pmpi_init_done(struct pmpi_call *c);
/* At MPI_Init*'s exit, once the tool's own start is over: the MPI region
 * starts. */
void pmpi_region_start(void);
/* The entry of MPI_Finalize: the region ends, the piggyback stops; with
 * --merge=mpi the profile ends and the ranks reduce theirs (reduce.h). */
void pmpi_finalize_enter(void);
/* The region's wall and CPU time into p (up to now when it has not
 * ended); returns whether MPI_Finalize was reached (true when MPI_Init
 * was not). */
bool pmpi_region_fill(struct profile *p);
/* MPI_Abort: write the final profile now, partial "MPI_Abort(CODE)" (the
 * process will not exit normally). */
void pmpi_abort(int errorcode);

/* fortran.c: the Fortran bindings' conventions. */
#ifdef MPI_F_STATUS_SIZE
#define PMPI_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define PMPI_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))
#endif
/* `use mpi_f08`'s MPI_STATUS(ES)_IGNORE: Open MPI's is mpif.h's; MPICH's
 * is an object of its own.  TYPE(MPI_Status) has the layout of mpif.h's
 * status in both, so the same conversions serve. */
#ifdef MPICH
#define PMPI_F08_STATUS_IGNORE ((MPI_Fint *)MPI_F08_STATUS_IGNORE)
#define PMPI_F08_STATUSES_IGNORE ((MPI_Fint *)MPI_F08_STATUSES_IGNORE)
#define PMPI_F08_INDEX_BASE pmpi_f08_index_base()
/* What MPICH's mpi_f08 numbers the first request in the index its Waitany,
 * Testany, Waitsome and Testsome return: 0 before MPICH 4.1, which fixed
 * it to Fortran's 1. */
int pmpi_f08_index_base(void);
#else
#define PMPI_F08_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define PMPI_F08_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#define PMPI_F08_INDEX_BASE 1
#endif
/* The MPI library's own definition of name, found past this library (it
 * has no PMPI name for mpi_f08's procedures under MPICH); exits with a
 * message when there is none. */
void (*pmpi_f08_next(const char *name))(void);
/* static void pNAME PARAMS: calls the library's NAME with ARGS (looked up
 * once) */
#define PMPI_F08_NEXT(name, params, args)						\
	static void p##name params							\
	{										\
		static void (*next_) params;						\
		void (*fn_) params = __atomic_load_n(&next_, __ATOMIC_RELAXED);		\
											\
		if (!fn_) {								\
			fn_ = (void (*) params)pmpi_f08_next(#name);			\
			__atomic_store_n(&next_, fn_, __ATOMIC_RELAXED);		\
		}									\
		fn_ args;								\
	}
/* A Fortran buffer argument as C sees it: MPI_IN_PLACE for the library's
 * Fortran MPI_IN_PLACE sentinel, else buf. */
const void *pmpi_f_buf(const void *buf);
/* A Fortran status into st; returns st. */
const MPI_Status *pmpi_f_status(const MPI_Fint *fst, MPI_Status *st);
void pmpi_f_req_start(struct pmpi_call *c, MPI_Fint n, const MPI_Fint *freqs);
/* ignore: the binding's MPI_STATUS(ES)_IGNORE, which stands for none */
void pmpi_f_reqs_before(struct pmpi_snap *s, MPI_Fint n, const MPI_Fint *freqs,
			MPI_Fint **fstatuses, int many, const MPI_Fint *ignore);
/* base: what the binding numbers the first request (index, indices) */
void pmpi_f_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, MPI_Fint rc, MPI_Fint *fstatuses,
		       const MPI_Fint *index, const MPI_Fint *flag, const MPI_Fint *outcount,
		       const MPI_Fint *indices, int base);

#endif
