/*
 * p2p.c - the piggyback of point-to-point messages (docs/mpi.md
 * "Piggyback"): every message the program sends carries the header of
 * wire.h in front of its data, and every receive takes it off, on the
 * communicators the piggyback travels on (pmpi_pb_comm: those within
 * MPI_COMM_WORLD).
 *
 * A side of a message up to PMPI_P2P_SMALL bytes of data is copied into a
 * bounce buffer behind the header and travels as bytes (unless it is
 * non-contiguous and moves after its call: enum p2p_copy); a larger one
 * travels as a derived datatype (the header block, then the user's data in
 * place), so MPI moves the data without a copy of ours: for contiguous
 * data a byte layout the thread keeps for reuse (wrap-types.c), else a
 * struct of the user's count x datatype made for the call.  All give the
 * same bytes in the same order, so any receive takes any send.  Pairing
 * is exact because the header is part of the message: whatever the
 * matching and completion order, probes, wildcards and cancels.  Statuses
 * are corrected to the user's byte count (MPI_Status_set_elements_x),
 * probes' included, since the header's length is one for the whole job.
 *
 * Non-blocking and persistent calls hand their buffers to requests.c,
 * which calls back here when the request completes or starts.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../sampler/rt.h"
#include "analyses-lock.h"
#include "call.h"
#include "facts.h"
#include "datatypes.h"
#include "comms.h"
#include "requests.h"
#include "piggyback.h"
#include "p2p.h"
#include "copy.h"
#include "here.h"
#include "p2p-side.h"
#include "status.h"
#include "wire.h"
#include "pb-units.h"
#include "own-cost.h"

/* --- sending */

static bool layout_sampled(const struct p2p_side *d)
{
	return d->packed && !d->kept && d->contig && d->bytes <= P2P_SAMPLED_COPY;
}

/* This rank's piggyback for a message of bytes from site with tag on
 * comm, of call c (NULL: a call not profiled), stamped t, written into the
 * header at hdr by way of a struct pmpi_pb. */
__attribute__((noinline))
static void stamp_full(unsigned char *hdr, const struct pmpi_call *c, int site, int tag,
		       MPI_Comm comm, uint64_t bytes, uint64_t t)
{
	struct pmpi_pb pb;

	if (c)
		pmpi_pb_fill(&pb, c, site, t, false);
	else
		pmpi_pb_fill_none(&pb, t);
	if (pmpi_wire.check) {
		pb.tag = tag;
		pb.bytes = bytes;
		pb.source = pmpi_comm_rank(comm);
	}
	wire_encode(&pmpi_wire, &pb, hdr);
}

/* The same, straight into the header when it is the core alone (always
 * when quick, as call.h says). */
static inline void stamp(unsigned char *hdr, const struct pmpi_call *c, int site, int tag,
			 MPI_Comm comm, uint64_t bytes, uint64_t t, enum pmpi_way quick)
{
	if (c && (quick || pmpi_wire.len == WIRE_CORE))
		pmpi_pb_stamp_core(hdr, c, site, t, quick);
	else
		stamp_full(hdr, c, site, tag, comm, bytes, t);
}

/* A send side d of call c, stamped at t: timed up to its stamp, or its
 * sampled cost, which takes in its header's encoding. */
static void charge_stamped(const struct pmpi_call *c, const struct p2p_side *d, uint64_t t,
			   enum pmpi_way quick)
{
	if (!c)
		return;
	if (layout_sampled(d))
		pmpi_cost_piggyback_drawn(&pmpi_here.sent_cost, &(struct cost_mark){ c->t0 }, c->timed, quick);
	else
		pmpi_cost_piggyback_to(&(struct cost_mark){ c->t0 }, t, quick);
}

/* The payload packed behind the side's header, then the header stamped
 * with *t: the data are ready and leave now.  A sampled layout leaves
 * when its call was entered and the layout's estimated cost had passed
 * (the layout, the copy into the bounce buffer, is delay).  With
 * `charge`, the work so far charged too, in the same step. */
static int side_stamp(struct p2p_side *d, const struct pmpi_call *c, int site, int tag,
		      MPI_Comm comm, uint64_t *t, bool charge)
{
	int rc = d->packed ? p2p_pack(d, d->hdr + pmpi_wire.len) : MPI_SUCCESS;

	if (rc != MPI_SUCCESS)
		return rc;
	*t = c && layout_sampled(d) ? c->t0 + pmpi_here.sent_cost.est : rt_now_ns();
	if (!c) {	/* the full header's stamp, which takes the lock itself */
		stamp(d->hdr, c, site, tag, comm, d->bytes, *t, PMPI_SLOW);
		return MPI_SUCCESS;
	}
	PMPI_ANALYSES_STEP(PMPI_SLOW, held, {
		stamp(d->hdr, c, site, tag, comm, d->bytes, *t, held);
		if (charge)
			charge_stamped(c, d, *t, held);
	});
	return MPI_SUCCESS;
}

static int site_of(struct pmpi_call *c)
{
	return c ? pmpi_site(c) : -1;
}

/* Just before MPI gets a profiled call's buffers: the piggyback's work
 * since the call's entry (the layout, the data copied behind the header,
 * the stamp) is the rank's overhead, timed, since it grows with the data.
 * A send charges it with its stamp (charge_stamped). */
static void charge_layout(const struct pmpi_call *c)
{
	if (c)
		pmpi_cost_piggyback(&(struct cost_mark){ c->t0 });
}

/* A receive's layout is timed where it allocated or took a datatype.  A
 * small one's bounce buffer is on the stack, a few stores, less than the
 * clock read (10 ns) that would time it, or in its request's entry (a
 * non-blocking receive's), whose cost is sampled as a small send's; its
 * data are copied, and charged, when it arrives (charge_taken). */
static bool recv_layout_timed(const struct p2p_side *d)
{
	return (d->kept && d->bytes > P2P_SAMPLED_COPY) || !d->packed;
}

static void charge_recv_layout(const struct pmpi_call *c, const struct p2p_side *d)
{
	if (recv_layout_timed(d))
		charge_layout(c);
	else if (c && d->kept)
		pmpi_cost_piggyback_drawn(&pmpi_here.posted_cost, &(struct cost_mark){ c->t0 },
					  c->timed, PMPI_SLOW);
}

/* A send side of call c: laid out and stamped at *t, and charged with
 * `charge`. */
static int side_send(struct p2p_side *d, struct pmpi_call *c, const void *buf, int count,
		     MPI_Datatype type, int tag, MPI_Comm comm, struct p2p_room room,
		     enum p2p_copy how, uint64_t *t, bool charge)
{
	int rc = p2p_side_make(d, buf, count, type, room, how);

	if (rc == MPI_SUCCESS &&
	    (rc = side_stamp(d, c, site_of(c), tag, comm, t, charge)) != MPI_SUCCESS)
		pmpi_p2p_release(d);
	return rc;
}

/*
 * The common message: a few contiguous bytes of a predefined datatype, in
 * a blocking call that is profiled.  Its layout is the one side_make
 * gives it (copied behind the header, a sampled cost), made without a
 * side: the header and the data on the stack, one copy each way.
 */

/* The bytes of count elements of type at buf when they take that path,
 * else -1: a predefined datatype (never MPI_DATATYPE_NULL) and a count
 * not negative, arguments MPI does not refuse (pmpi_p2p_refused).  Data
 * at MPI_BOTTOM (absolute addresses, or a null buffer that MPI refuses)
 * go the general way. */
static int64_t small_bytes(const void *buf, int count, MPI_Datatype type)
{
	int64_t size = pmpi_type_named_size(type), bytes = (int64_t)count * size;

	if (!size || (uint64_t)bytes > P2P_SAMPLED_COPY)	/* a negative count too */
		return -1;
	return buf != MPI_BOTTOM || !count ? bytes : -1;
}

/* Flattened, as arrival_end: the charge of its sampled cost is inline,
 * a function's frame less on every small send. */
__attribute__((flatten))
static int send_small(struct pmpi_call *c, enum p2p_send how, const void *buf, int64_t bytes,
		      int dest, int tag, MPI_Comm comm, enum pmpi_way quick)
{
	unsigned char m[WIRE_MAX + P2P_SAMPLED_COPY];
	unsigned len = quick ? WIRE_CORE : pmpi_wire.len;
	int site;

	if (bytes)
		pmpi_copy(m + len, buf, (size_t)bytes);
	site = pmpi_site(c);	/* a site's first call captures its path: not under the lock */
	PMPI_ANALYSES_STEP(quick, held, {	/* the stamps and the charge */
		stamp(m, c, site, tag, comm, (uint64_t)bytes, c->t0 + pmpi_here.sent_cost.est, held);
		pmpi_cost_piggyback_drawn(&pmpi_here.sent_cost, &(struct cost_mark){ c->t0 },
					  c->timed, held);
	});
	return pmpi_p2p_send_fn[how](m, (int)(len + (unsigned)bytes), MPI_BYTE, dest, tag, comm);
}

/* Any other blocking send: its side laid out.  Out of line: a wrapper
 * that inlines its whole call (mpi-api.def's hot) inlines the small one. */
__attribute__((noinline))
static int send_sided(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		      MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned char stack[WIRE_MAX + PMPI_P2P_SMALL];
	struct p2p_side d;
	uint64_t t;
	int rc;

	rc = side_send(&d, c, buf, count, type, tag, comm, P2P_ON_STACK(stack), P2P_COPY_SMALL, &t,
		       true);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = pmpi_p2p_send_fn[how](d.mbuf, d.mcount, d.mtype, dest, tag, comm);
	pmpi_p2p_release(&d);
	return rc;
}

int pmpi_x_send_headed(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		       MPI_Datatype type, int dest, int tag, MPI_Comm comm, enum pmpi_way quick)
{
	int64_t small;

	if (c && how == P2P_SYNCHRONOUS)
		c->flags |= PMPI_CALL_SYNC;
	if (c && (small = small_bytes(buf, count, type)) >= 0) {
		c->bytes = (uint64_t)small;
		c->flags |= PMPI_CALL_SIZED;
		return send_small(c, how, buf, small, dest, tag, comm, quick);
	}
	if (quick && pmpi_p2p_refused(count, type))	/* pmpi_p2p_headed left it */
		return pmpi_p2p_send_fn[how](buf, count, type, dest, tag, comm);
	return send_sided(c, how, buf, count, type, dest, tag, comm);
}

/* After the call that made request *req of t's side returned rc: the
 * request table keeps the side's buffers until the request completes, or
 * they go now with the entry. */
static int side_to_request(int rc, struct pmpi_call *c, MPI_Request *req, enum p2p_kind kind,
			   struct pmpi_tracked *t, MPI_Comm comm, int peer, int tag)
{
	p2p_side_untype(&t->side);
	if (rc == MPI_SUCCESS) {
		pmpi_req_track(c, t, *req, kind, comm, peer, tag);
	} else {
		pmpi_p2p_release(&t->side);
		pmpi_req_drop(t);
	}
	return rc;
}

/* Flattened, as the small sends: a frame less for each step of a
 * non-blocking send's side (its layout, stamp, charge, request). */
__attribute__((flatten))
int pmpi_x_isend(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		 MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
	struct pmpi_tracked *t;
	uint64_t at;
	int rc;

	if (!pmpi_p2p_headed(comm, dest, count, type, false))
		return pmpi_p2p_isend_fn[how](buf, count, type, dest, tag, comm, req);
	if (c && how == P2P_SYNCHRONOUS)
		c->flags |= PMPI_CALL_SYNC;
	t = pmpi_req_new();
	rc = side_send(&t->side, c, buf, count, type, tag, comm, pmpi_req_room(t), P2P_COPY_SMALL,
		       &at, true);
	if (rc != MPI_SUCCESS) {
		pmpi_req_drop(t);
		return rc;
	}
	rc = pmpi_p2p_isend_fn[how](t->side.mbuf, t->side.mcount, t->side.mtype, dest, tag, comm,
				    req);
	return side_to_request(rc, c, req, P2P_SEND, t, comm, dest, tag);
}

int pmpi_x_send_init(struct pmpi_call *c, enum p2p_send how, const void *buf, int count,
		     MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
	struct pmpi_tracked *t;
	int rc;

	if (!pmpi_p2p_headed(comm, dest, count, type, false)) {
		rc = pmpi_p2p_init_fn[how](buf, count, type, dest, tag, comm, req);
		if (rc == MPI_SUCCESS && c && dest != MPI_PROC_NULL) {
			t = pmpi_req_new();
			t->side = p2p_side_plain(buf, count, type);
			pmpi_req_track(c, t, *req, P2P_PSEND, comm, dest, tag);
		}
		return rc;
	}
	t = pmpi_req_new();
	rc = p2p_side_make(&t->side, buf, count, type, pmpi_req_room(t), P2P_COPY_LATER);
	if (rc != MPI_SUCCESS) {
		pmpi_req_drop(t);
		return rc;
	}
	rc = pmpi_p2p_init_fn[how](t->side.mbuf, t->side.mcount, t->side.mtype, dest, tag, comm,
				   req);
	return side_to_request(rc, c, req, P2P_PSEND, t, comm, dest, tag);
}

void pmpi_p2p_restamp(struct pmpi_call *c, struct p2p_side *d, int site, int tag, MPI_Comm comm)
{
	uint64_t t;

	if (d->hdr)
		side_stamp(d, c, site, tag, comm, &t, false);
}

/* --- receiving */

/* The user's byte count in a status that counted the header too. */
static inline uint64_t status_fix(MPI_Status *st, enum pmpi_way quick)
{
	return (uint64_t)pmpi_status_take(st, quick ? WIRE_CORE : (MPI_Count)pmpi_wire.len, quick);
}

/* Did a message arrive with this status (not a cancelled receive, an
 * MPI_PROC_NULL one or an inactive persistent one)? */
static bool status_has_message(const MPI_Status *st)
{
	return st->MPI_SOURCE != MPI_PROC_NULL && st->MPI_SOURCE != MPI_ANY_SOURCE &&
	       !pmpi_status_cancelled(st);
}

/* Charge the work on a message that arrived at m for call c (NULL: not
 * profiled) and copied n bytes out of the bounce buffer. */
static void charge_taken(const struct pmpi_call *c, const struct cost_mark *m, uint64_t n,
			 enum pmpi_way quick)
{
	if (n > P2P_SAMPLED_COPY)
		pmpi_cost_piggyback_way(m, quick);
	else if (c)
		pmpi_cost_piggyback_drawn(&pmpi_here.taken_cost, m, c->timed, quick);
	else
		pmpi_cost_piggyback_sampled(&pmpi_here.taken_cost, m, quick);
}

/* A message with a header arrived for call c (NULL: not profiled) with
 * status st: its wait ends now (*m), the status tells the user's bytes. */
static inline uint64_t arrival_begin(struct pmpi_call *c, MPI_Status *st, struct cost_mark *m,
				     enum pmpi_way quick)
{
	*m = pmpi_cost_mark();	/* the user's receive completed: its wait ends */
	if (c)
		c->t_done = m->t;	/* and the call's, as far as its statistics go */
	return status_fix(st, quick);
}

/* The rest of its arrival, its n bytes given to the user (copied: those
 * copied out of a bounce buffer, 0 when they came in place): its header
 * hdr merged, the work since m charged.  t_post: when the receive was
 * posted, 0 unknown.  Flattened: what it calls in other files (the
 * analyses' merges, the charge of its sampled cost) is inlined too, which
 * the link-time optimizer does not do for a function called from several
 * places; every received message comes here. */
__attribute__((flatten))
static void arrival_end(struct pmpi_call *c, const unsigned char *hdr, const struct cost_mark *m,
			uint64_t n, uint64_t copied, uint64_t t_post, const MPI_Status *st,
			enum pmpi_way quick)
{
	struct pmpi_pb pb;
	bool merge = wire_decode(quick ? &WIRE_CORE_LAYOUT : &pmpi_wire, hdr, m->t, &pb) && c;

	PMPI_ANALYSES_STEP(quick, held, {	/* the merges and the charge */
		if (merge) {
			pb_units_recv(&(struct pb_arrival){ .c = c, .t = m->t, .bytes = n,
							    .t_post = t_post },
				      &pb, held);
			if (!quick) {	/* check mode */
				pmpi_pb_late(c, &pb);
				if (pmpi_wire.check)
					pmpi_pb_count(false, !pmpi_pb_matches(&pb, st, n));
			}
		}
		/* after the rule, which ends the wait at m */
		charge_taken(c, m, copied, held);
	});
}

/* A message arrived on side d with status st: its data to the user, its
 * piggyback merged. */
static void arrived(struct pmpi_call *c, const struct p2p_side *d, MPI_Status *st)
{
	struct cost_mark m;
	uint64_t n;

	if (!d->hdr || !wire_present(d->hdr))
		return;
	n = arrival_begin(c, st, &m, false);
	if (d->packed && !d->unpacked)
		p2p_unpack(d, d->hdr + pmpi_wire.len, n);
	arrival_end(c, d->hdr, &m, n, d->packed ? n : 0, d->t_post, st, false);
}

bool pmpi_p2p_delivered(int rc)
{
	int cls;

	return rc == MPI_SUCCESS ||
	       (PMPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TRUNCATE);
}

/* Flattened, as the small receive: every completed receive request
 * comes here. */
__attribute__((flatten))
void pmpi_p2p_arrived(struct pmpi_call *c, const struct p2p_side *d, MPI_Status *st)
{
	if (status_has_message(st))
		arrived(c, d, st);
}

void pmpi_p2p_seen(struct p2p_side *d, MPI_Status *st)
{
	uint64_t n;

	if (!d->hdr || !wire_present(d->hdr) || !status_has_message(st))
		return;
	n = status_fix(st, false);
	if (d->packed && !d->unpacked)
		p2p_unpack(d, d->hdr + pmpi_wire.len, n);
	d->unpacked = true;
}

/* Messages a matched probe took on a communicator without the piggyback,
 * until MPI_Mrecv or MPI_Imrecv receives them: a message handle does not
 * tell its communicator.  Only a process with communicators that span
 * worlds has any (one not kept for want of memory would be received as
 * if it had a header). */
static struct {
	pthread_mutex_t lock;
	MPI_Message *msg;
	size_t n, cap;
} plain_msgs = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void message_keep_plain(MPI_Message msg)
{
	pthread_mutex_lock(&plain_msgs.lock);
	if (plain_msgs.n == plain_msgs.cap) {
		size_t cap = plain_msgs.cap ? 2 * plain_msgs.cap : 16;
		MPI_Message *m = realloc(plain_msgs.msg, cap * sizeof(*m));

		if (m) {
			plain_msgs.msg = m;
			plain_msgs.cap = cap;
		}
	}
	if (plain_msgs.n < plain_msgs.cap)
		plain_msgs.msg[plain_msgs.n++] = msg;
	pthread_mutex_unlock(&plain_msgs.lock);
}

/* Was msg matched on a communicator without the piggyback?  Forgets it:
 * the caller receives it now. */
static bool message_plain(MPI_Message msg)
{
	bool found = false;

	if (!__atomic_load_n(&pmpi_wire.by_comm, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&plain_msgs.lock);
	for (size_t i = 0; i < plain_msgs.n && !found; i++)
		if (plain_msgs.msg[i] == msg) {
			plain_msgs.msg[i] = plain_msgs.msg[--plain_msgs.n];
			found = true;
		}
	pthread_mutex_unlock(&plain_msgs.lock);
	return found;
}

/* A receive of the common message (send_small), without a side;
 * flattened, as send_small, its arrival inline. */
__attribute__((flatten))
static int recv_small(struct pmpi_call *c, void *buf, int64_t bytes, int src, int tag,
		      MPI_Comm comm, MPI_Status *st, enum pmpi_way quick)
{
	unsigned char m[WIRE_MAX + P2P_SAMPLED_COPY];
	unsigned len = quick ? WIRE_CORE : pmpi_wire.len;
	struct cost_mark k;
	uint64_t n;
	int rc;

	wire_clear(m);
	rc = PMPI_Recv(m, (int)(len + (unsigned)bytes), MPI_BYTE, src, tag, comm, st);
	if (!pmpi_p2p_delivered(rc) || !wire_present(m))
		return rc;
	n = arrival_begin(c, st, &k, quick);
	if (n && bytes)
		pmpi_copy(buf, m + len, n < (uint64_t)bytes ? n : (uint64_t)bytes);
	arrival_end(c, m, &k, n, n, c->t0, st, quick);
	return rc;
}

/* Any other blocking receive: its side laid out.  Out of line, as
 * send_sided. */
__attribute__((noinline))
static int recv_sided(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, int src,
		      int tag, MPI_Comm comm, MPI_Status *st)
{
	unsigned char stack[WIRE_MAX + PMPI_P2P_SMALL];
	struct p2p_side d;
	int rc;

	rc = p2p_side_make(&d, buf, count, type, P2P_ON_STACK(stack), P2P_COPY_SMALL);
	if (rc != MPI_SUCCESS)
		return rc;
	d.t_post = c ? c->t0 : 0;
	charge_recv_layout(c, &d);
	rc = PMPI_Recv(d.mbuf, d.mcount, d.mtype, src, tag, comm, st);
	p2p_side_untype(&d);
	if (pmpi_p2p_delivered(rc))	/* a blocking receive cannot be cancelled */
		arrived(c, &d, st);
	pmpi_p2p_release(&d);
	return rc;
}

int pmpi_x_recv_headed(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, int src,
		       int tag, MPI_Comm comm, MPI_Status *st, enum pmpi_way quick)
{
	MPI_Status own;
	int64_t small;

	if (st == MPI_STATUS_IGNORE)
		st = &own;
	if (c && (small = small_bytes(buf, count, type)) >= 0)
		return recv_small(c, buf, small, src, tag, comm, st, quick);
	if (quick && pmpi_p2p_refused(count, type))	/* pmpi_p2p_headed left it */
		return PMPI_Recv(buf, count, type, src, tag, comm, st);
	return recv_sided(c, buf, count, type, src, tag, comm, st);
}

int pmpi_x_mrecv(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, MPI_Message *msg,
		 MPI_Status *st)
{
	unsigned char stack[WIRE_MAX + PMPI_P2P_SMALL];
	struct p2p_side d;
	MPI_Status own;
	int rc;

	if (!pmpi_wire.len || *msg == MPI_MESSAGE_NO_PROC || pmpi_p2p_refused(count, type) ||
	    message_plain(*msg))
		return PMPI_Mrecv(buf, count, type, msg, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	rc = p2p_side_make(&d, buf, count, type, P2P_ON_STACK(stack), P2P_COPY_SMALL);
	if (rc != MPI_SUCCESS)
		return rc;
	d.t_post = c ? c->t0 : 0;
	charge_recv_layout(c, &d);
	rc = PMPI_Mrecv(d.mbuf, d.mcount, d.mtype, msg, st);
	p2p_side_untype(&d);
	if (pmpi_p2p_delivered(rc))
		arrived(c, &d, st);
	pmpi_p2p_release(&d);
	return rc;
}

/* A receive posted as the program's call asks it. */
static int post_recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
		     MPI_Message *msg, bool persistent, MPI_Request *req)
{
	return msg ? PMPI_Imrecv(buf, count, type, msg, req) :
	       persistent ? PMPI_Recv_init(buf, count, type, src, tag, comm, req) :
	       PMPI_Irecv(buf, count, type, src, tag, comm, req);
}

/* Irecv, Imrecv (msg not NULL) and Recv_init (persistent); flattened, as
 * pmpi_x_isend. */
__attribute__((flatten))
int pmpi_x_irecv(struct pmpi_call *c, void *buf, int count, MPI_Datatype type, int src, int tag,
		 MPI_Comm comm, MPI_Message *msg, bool persistent, MPI_Request *req)
{
	bool plain = !pmpi_wire.len || pmpi_p2p_refused(count, type) ||
		     (msg ? *msg == MPI_MESSAGE_NO_PROC || message_plain(*msg) :
			    src == MPI_PROC_NULL || !pmpi_pb_comm(comm));
	struct pmpi_tracked *t;
	struct p2p_side *d;
	int rc;

	if (plain && !c)	/* no header, no statistics: nothing to follow */
		return post_recv(buf, count, type, src, tag, comm, msg, persistent, req);
	t = pmpi_req_new();
	d = &t->side;
	if (plain) {
		*d = p2p_side_plain(buf, count, type);
		d->mbuf = buf;
		d->mcount = count;
		d->mtype = type;
	} else if ((rc = p2p_side_make(d, buf, count, type, pmpi_req_room(t), P2P_COPY_LATER)) !=
		   MPI_SUCCESS) {
		pmpi_req_drop(t);
		return rc;
	} else {
		/* a persistent receive is posted by each start: unknown here */
		d->t_post = c && !persistent ? c->t0 : 0;
		charge_recv_layout(c, d);
	}
	rc = post_recv(d->mbuf, d->mcount, d->mtype, src, tag, comm, msg, persistent, req);
	return side_to_request(rc, c, req, persistent ? P2P_PRECV : P2P_RECV, t, comm, src, tag);
}

/* A side before it is laid out, or MPI_PROC_NULL's, which MPI gets as
 * given: what the call and a release read of it.  (Clearing the whole
 * structure, as an initializer does, compiles to `rep stos`: 5 ns a side
 * on the development VM.) */
static void side_unmade(struct p2p_side *d, void *buf, int count, MPI_Datatype type)
{
	d->mbuf = buf;
	d->mcount = count;
	d->mtype = type;
	d->packed = true;
	d->hdr = NULL;
	d->heap = NULL;
	d->kept = false;
	d->own_type = false;
}

int pmpi_x_sendrecv(struct pmpi_call *c, const void *sbuf, int scount, MPI_Datatype stype,
		    int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype, int src,
		    int rtag, MPI_Comm comm, MPI_Status *st, bool replace)
{
	unsigned char sstack[WIRE_MAX + PMPI_P2P_SMALL], rstack[WIRE_MAX + PMPI_P2P_SMALL];
	struct p2p_side s, r;
	MPI_Status own;
	uint64_t t = 0;
	int rc = MPI_SUCCESS;

	if (!pmpi_pb_comm(comm) || (dest == MPI_PROC_NULL && src == MPI_PROC_NULL) ||
	    pmpi_p2p_refused(scount, stype) || pmpi_p2p_refused(rcount, rtype))
		return replace ? PMPI_Sendrecv_replace(rbuf, rcount, rtype, dest, stag, src, rtag,
						       comm, st) :
		       PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
				     comm, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	/* MPI_Sendrecv_replace sends from a copy, the receive lands in place:
	 * the two buffers MPI sees are apart, even on a side that moves nothing */
	if (replace && dest == MPI_PROC_NULL)
		side_unmade(&s, NULL, 0, MPI_BYTE);
	else
		side_unmade(&s, (void *)(uintptr_t)sbuf, scount, stype);
	if (replace && src == MPI_PROC_NULL)
		side_unmade(&r, NULL, 0, MPI_BYTE);
	else
		side_unmade(&r, rbuf, rcount, rtype);
	/* the receive side first: the send's stamp then ends the layout */
	if (src != MPI_PROC_NULL)
		rc = p2p_side_make(&r, rbuf, rcount, rtype, P2P_ON_STACK(rstack), P2P_COPY_SMALL);
	if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
		rc = side_send(&s, c, sbuf, scount, stype, stag, comm, P2P_ON_STACK(sstack),
			       replace ? P2P_COPY_ALWAYS : P2P_COPY_SMALL, &t, false);
	/* the receive side was laid out first: a timed stamp ends both
	 * layouts, a sampled one stands for both when the receive's is a
	 * few stores */
	if (t && (!layout_sampled(&s) || !recv_layout_timed(&r)))
		charge_stamped(c, &s, t, PMPI_SLOW);
	else
		charge_recv_layout(c, &r);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Sendrecv(s.mbuf, s.mcount, s.mtype, dest, stag, r.mbuf, r.mcount, r.mtype,
				   src, rtag, comm, st);
	r.t_post = c ? c->t0 : 0;
	if (pmpi_p2p_delivered(rc) && src != MPI_PROC_NULL)
		arrived(c, &r, st);
	if (dest != MPI_PROC_NULL)
		pmpi_p2p_release(&s);
	if (src != MPI_PROC_NULL)
		pmpi_p2p_release(&r);
	return rc;
}

/* --- probes: the size MPI saw, less the header */

int pmpi_x_probe(int rc, const int *flag, MPI_Status *st, MPI_Comm comm, const MPI_Message *msg)
{
	if (rc != MPI_SUCCESS || !pmpi_wire.len || (flag && !*flag))
		return rc;
	if (!pmpi_pb_comm(comm)) {
		if (msg && *msg != MPI_MESSAGE_NO_PROC)
			message_keep_plain(*msg);
		return rc;
	}
	if (st != MPI_STATUS_IGNORE && st->MPI_SOURCE != MPI_PROC_NULL)
		status_fix(st, false);
	return rc;
}

/* --- buffered mode: room for a header per message in the attached buffer */

static struct {
	pthread_mutex_t lock;
	void *user, *ours;
	int size;
} attached = { .lock = PTHREAD_MUTEX_INITIALIZER };

int pmpi_x_buffer_attach(void *buf, int size)
{
	int rc, more;
	void *ours;

	if (!pmpi_wire.len || size < 0)
		return PMPI_Buffer_attach(buf, size);
	/* every message takes at least MPI_BSEND_OVERHEAD bytes of it */
	more = (size / MPI_BSEND_OVERHEAD + 1) * (int)pmpi_wire.len;
	if (size > INT_MAX - more || !(ours = malloc((size_t)size + (size_t)more)))
		return PMPI_Buffer_attach(buf, size);
	pthread_mutex_lock(&attached.lock);
	rc = PMPI_Buffer_attach(ours, size + more);
	if (rc == MPI_SUCCESS) {
		attached.user = buf;
		attached.ours = ours;
		attached.size = size;
	} else {
		free(ours);
	}
	pthread_mutex_unlock(&attached.lock);
	return rc;
}

int pmpi_x_buffer_detach(void *addr, int *size)
{
	void *p = NULL;
	int rc = PMPI_Buffer_detach(&p, size);

	pthread_mutex_lock(&attached.lock);
	if (rc == MPI_SUCCESS && p && p == attached.ours) {
		free(p);
		p = attached.user;
		*size = attached.size;
		attached.ours = NULL;
	}
	pthread_mutex_unlock(&attached.lock);
	if (rc == MPI_SUCCESS)
		memcpy(addr, &p, sizeof(p));
	return rc;
}

/* The send functions by mode, for the tables in p2p.h. */
int (*const pmpi_p2p_send_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm) = {
	[P2P_STANDARD] = PMPI_Send, [P2P_BUFFERED] = PMPI_Bsend,
	[P2P_SYNCHRONOUS] = PMPI_Ssend, [P2P_READY] = PMPI_Rsend,
};
int (*const pmpi_p2p_isend_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) = {
	[P2P_STANDARD] = PMPI_Isend, [P2P_BUFFERED] = PMPI_Ibsend,
	[P2P_SYNCHRONOUS] = PMPI_Issend, [P2P_READY] = PMPI_Irsend,
};
int (*const pmpi_p2p_init_fn[])(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) = {
	[P2P_STANDARD] = PMPI_Send_init, [P2P_BUFFERED] = PMPI_Bsend_init,
	[P2P_SYNCHRONOUS] = PMPI_Ssend_init, [P2P_READY] = PMPI_Rsend_init,
};
