/*
 * p2p.h - the point-to-point piggyback (p2p.c): what the generated
 * wrappers call instead of the PMPI send, receive and probe functions, and
 * what requests.c calls when a request it follows starts or completes.
 * Every function takes the profiled call (NULL when the call is not
 * profiled: the message still carries its header) and otherwise the
 * arguments of the MPI function it stands for.
 */
#ifndef CPPERF_PMPI_P2P_H
#define CPPERF_PMPI_P2P_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "piggyback.h"
#include "wire.h"

/* Data up to this size is copied behind the header; larger data travels
 * in place through a derived datatype (docs/mpi.md "Piggyback"). */
#define PMPI_P2P_SMALL 4096

/* One side (send or receive) of a message as the transport hands it to
 * MPI, and the user's buffer behind it. */
struct p2p_side {
	void *ubuf;		/* the user's buffer, count and datatype */
	int count;
	MPI_Datatype type;
	int64_t tsize;		/* size of one element */
	uint64_t bytes;		/* size of the user's data */
	void *contig;		/* where the data lies when contiguous, else NULL */
	bool packed;		/* copied behind the header (else a struct datatype) */
	bool unpacked;		/* its data are in the user's buffer already
				 * (MPI_Request_get_status saw it complete) */
	unsigned char *hdr;	/* the header; the packed data follows it */
	void *heap;		/* what the side allocated (hdr's memory), or NULL */
	bool kept;		/* hdr's memory outlives the call: a request's
				 * entry, or the heap (else the call's stack) */
	void *mbuf;		/* what MPI gets */
	int mcount;
	MPI_Datatype mtype;
	bool own_type;		/* mtype was made for this side alone (else kept
				 * by wrap-types.c or predefined) */
	uint64_t t_post;	/* a receive's: when it was posted, 0 unknown */
};

/* Memory a side's header, and its data when packed, may take: a call's
 * stack, or a request's entry, which outlives the call (kept).  A side
 * that does not fit takes the heap. */
struct p2p_room {
	unsigned char *at;
	size_t size;
	bool kept;
};
/* stack must be an array: the size of a pointer would send every side to
 * the heap (0, or a compile error for a pointer). */
#define P2P_IS_ARRAY(a) \
	(0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))]))
#define P2P_ON_STACK(stack) ((struct p2p_room){ (stack), sizeof(stack) + P2P_IS_ARRAY(stack), false })

enum p2p_send { P2P_STANDARD, P2P_BUFFERED, P2P_SYNCHRONOUS, P2P_READY };
/* What requests.c follows for a point-to-point request. */
enum p2p_kind { P2P_SEND, P2P_PSEND, P2P_RECV, P2P_PRECV };

extern int (*const pmpi_p2p_send_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm);
extern int (*const pmpi_p2p_isend_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm,
					MPI_Request *);
extern int (*const pmpi_p2p_init_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm,
				       MPI_Request *);

struct pmpi_call;

/* Arguments MPI refuses before it matches or sends anything: the call
 * goes to MPI as the program made it, which returns its error (a header
 * sent for it would be a message the program never sent). */
static inline bool pmpi_p2p_refused(int count, MPI_Datatype type)
{
	return count < 0 || type == MPI_DATATYPE_NULL;
}

/* Whether a message of count elements of type to or from peer on comm
 * carries a header.  When quick (call.h) every communicator does, and
 * the arguments are left to pmpi_x_send_headed and pmpi_x_recv_headed,
 * which find most calls' small (so not refused) first. */
static inline bool pmpi_p2p_headed(MPI_Comm comm, int peer, int count, MPI_Datatype type,
				   enum pmpi_way quick)
{
	return peer != MPI_PROC_NULL &&
	       (quick || (pmpi_pb_comm(comm) && !pmpi_p2p_refused(count, type)));
}

/* MPI_Send, Bsend, Ssend, Rsend; their I and _init forms.  The test
 * for a header in the wrapper: a call without one costs no other.
 * quick: as call.h says. */
int pmpi_x_send_headed(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		       MPI_Datatype type, int dest, int tag, MPI_Comm comm, enum pmpi_way quick);
static inline int pmpi_x_send(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
			      MPI_Datatype type, int dest, int tag, MPI_Comm comm, enum pmpi_way quick)
{
	if (!pmpi_p2p_headed(comm, dest, count, type, quick))
		return pmpi_p2p_send_fn[how](buf, count, type, dest, tag, comm);
	return pmpi_x_send_headed(c, how, buf, count, type, dest, tag, comm, quick);
}
int pmpi_x_isend(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		 MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req);
int pmpi_x_send_init(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		     MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req);
/* MPI_Recv, MPI_Mrecv; MPI_Irecv, Imrecv (msg) and Recv_init (persistent). */
int pmpi_x_recv_headed(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, int src,
		       int tag, MPI_Comm comm, MPI_Status *st, enum pmpi_way quick);
static inline int pmpi_x_recv(struct pmpi_call *c, void *buf, int count, MPI_Datatype type,
			      int src, int tag, MPI_Comm comm, MPI_Status *st, enum pmpi_way quick)
{
	if (!pmpi_p2p_headed(comm, src, count, type, quick))
		return PMPI_Recv(buf, count, type, src, tag, comm, st);
	return pmpi_x_recv_headed(c, buf, count, type, src, tag, comm, st, quick);
}
int pmpi_x_mrecv(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, MPI_Message *msg,
		 MPI_Status *st);
int pmpi_x_irecv(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, int src, int tag,
		 MPI_Comm comm, MPI_Message *msg, bool persistent, MPI_Request *req);
/* MPI_Sendrecv, and MPI_Sendrecv_replace (replace: sbuf is rbuf). */
int pmpi_x_sendrecv(struct pmpi_call *c, const void *sbuf, int scount, MPI_Datatype stype,
		    int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype, int src,
		    int rtag, MPI_Comm comm, MPI_Status *st, bool replace);
/* After MPI_Probe, Iprobe, Mprobe, Improbe on comm returned rc: the
 * status's count without the header; a matched message (msg, NULL for
 * the others) known to have none when comm carries none.  Returns rc. */
int pmpi_x_probe(int rc, const int *flag, MPI_Status *st, MPI_Comm comm, const MPI_Message *msg);
/* MPI_Buffer_attach and detach: the program's buffer, grown by a header
 * per message it can hold. */
int pmpi_x_buffer_attach(void *buf, int size);
int pmpi_x_buffer_detach(void *addr, int *size);

/* Did a receive that returned rc get a message: on success, and on a
 * truncation, where Open MPI delivers what fits and MPICH nothing (the
 * header room stays empty: wire_present). */
bool pmpi_p2p_delivered(int rc);
/* requests.c's side: a receive completed with status st (its count is
 * corrected, its data unpacked, its piggyback merged into call c); a
 * persistent send restamped before its start; a side's memory freed. */
void pmpi_p2p_arrived(struct pmpi_call *c, const struct p2p_side *d, MPI_Status *st);
/* A receive seen complete before its completion call (st as MPI gave
 * it): the count corrected, the data unpacked once (d->unpacked). */
void pmpi_p2p_seen(struct p2p_side *d, MPI_Status *st);
void pmpi_p2p_restamp(struct pmpi_call *c, struct p2p_side *d, int site, int tag, MPI_Comm comm);
void pmpi_p2p_release(struct p2p_side *d);

#endif
