/*
 * piggyback.c - the point-to-point side of the piggyback transport
 * (piggyback.h): shadow communicators, the piggyback sends in flight, the
 * receive after the user's receive, matched-probe messages, and the check
 * mode (CPPERF_PIGGYBACK_CHECK=1) that verifies every received piggyback
 * against the message it came with.
 *
 * Deadlock: the piggyback is always a standard-mode PMPI_Isend posted
 * before the user's send, so a sender never waits for it; its receive is
 * posted only after the user's receive completed, when the piggyback was
 * already sent.  The send's buffer stays in a ring of slots until MPI
 * completes the send (the slot is waited for when the ring comes round).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmpi.h"
#include "piggyback.h"
#include "critpath.h"
#include "compensate.h"

bool pmpi_pb_on, pmpi_pb_checking;
MPI_Datatype pmpi_pb_type = MPI_DATATYPE_NULL;
static int world_rank;
static atomic_uint_fast64_t send_seq;

void pmpi_pb_fill(struct pmpi_pb *pb, const struct pmpi_call *c, int site, uint64_t lead)
{
	memset(pb, 0, sizeof(*pb));
	pb->version = PMPI_PB_VERSION;
	pb->rank = world_rank;
	pb->site = site;
	pb->t_send = rt_now_ns() + lead;
	pmpi_cp_stamp(c, pb);
	pmpi_comp_stamp(pb, c->t0);
}

/* --- shadow communicators: open addressing by handle, tombstones on free */

#define SHADOWS 1024		/* communicators alive at once (power of 2) */

struct shadow {
	bool used, dead;
	MPI_Comm comm, shadow;
	uint64_t coll_seq;	/* collectives started on comm */
};

static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shadow shadows[SHADOWS];

static unsigned shadow_home(MPI_Comm comm)
{
	return (unsigned)((PMPI_HKEY(comm) * 0x9e3779b97f4a7c15ull) >> 40) & (SHADOWS - 1);
}

/* The live entry of comm, or NULL.  Caller holds shadow_lock. */
static struct shadow *shadow_find(MPI_Comm comm)
{
	for (unsigned i = shadow_home(comm), n = 0; n < SHADOWS && shadows[i].used;
	     i = (i + 1) & (SHADOWS - 1), n++)
		if (!shadows[i].dead && shadows[i].comm == comm)
			return &shadows[i];
	return NULL;
}

/* Enter comm's shadow; false when the table is full.  Caller holds shadow_lock. */
static bool shadow_add(MPI_Comm comm, MPI_Comm sh)
{
	for (unsigned i = shadow_home(comm), n = 0; n < SHADOWS; i = (i + 1) & (SHADOWS - 1), n++) {
		struct shadow *s = &shadows[i];

		if (!s->used || s->dead) {
			*s = (struct shadow){ .used = true, .comm = comm, .shadow = sh };
			return true;
		}
	}
	return false;
}

bool pmpi_pb_shadow(MPI_Comm comm, MPI_Comm *sh, uint64_t *coll_seq)
{
	struct shadow *s;

	if (!pmpi_pb_on)
		return false;
	pthread_mutex_lock(&shadow_lock);
	s = shadow_find(comm);
	if (s) {
		*sh = s->shadow;
		if (coll_seq)
			*coll_seq = ++s->coll_seq;
	}
	pthread_mutex_unlock(&shadow_lock);
	return s != NULL;
}

void pmpi_pb_comm_new(MPI_Comm comm)
{
	MPI_Comm sh;
	bool ok;

	if (!pmpi_pb_on || comm == MPI_COMM_NULL || PMPI_Comm_dup(comm, &sh) != MPI_SUCCESS)
		return;
	pthread_mutex_lock(&shadow_lock);
	ok = shadow_add(comm, sh);
	pthread_mutex_unlock(&shadow_lock);
	if (!ok)	/* every rank fills its table alike: none piggybacks on comm */
		PMPI_Comm_free(&sh);
}

void pmpi_pb_comm_free(MPI_Comm comm)
{
	struct shadow *s;
	MPI_Comm sh = MPI_COMM_NULL;

	if (!pmpi_pb_on)
		return;
	pthread_mutex_lock(&shadow_lock);
	s = shadow_find(comm);
	if (s) {
		sh = s->shadow;
		s->dead = true;
	}
	pthread_mutex_unlock(&shadow_lock);
	if (sh != MPI_COMM_NULL)
		PMPI_Comm_free(&sh);	/* our sends on it still complete */
}

/* --- sends: a ring of slots whose buffers MPI may still be reading */

#define RING 256

struct slot {
	MPI_Request req;
	struct pmpi_pb pb;
};

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot ring[RING];
static uint64_t isend_ns;	/* how long the shadow's Isend takes here (under ring_lock) */
static unsigned ring_head;

void pmpi_pb_send(struct pmpi_call *c, int count, MPI_Datatype type, int dest, int tag,
		  MPI_Comm comm)
{
	if (pmpi_pb_on && dest != MPI_PROC_NULL)
		pmpi_pb_send_at(c, pmpi_site(c), count, type, dest, tag, comm);
}

void pmpi_pb_send_at(const struct pmpi_call *c, int site, int count, MPI_Datatype type, int dest,
		     int tag, MPI_Comm comm)
{
	MPI_Comm sh;
	struct slot *s;
	struct comp_mark m;
	uint64_t t;

	if (dest == MPI_PROC_NULL || !pmpi_pb_shadow(comm, &sh, NULL))
		return;
	m = pmpi_comp_mark();
	pthread_mutex_lock(&ring_lock);
	s = &ring[ring_head];
	ring_head = (ring_head + 1) % RING;
	if (s->req != MPI_REQUEST_NULL)	/* a small standard send: done long ago */
		PMPI_Wait(&s->req, MPI_STATUS_IGNORE);
	/* the user's message leaves once this Isend has returned */
	pmpi_pb_fill(&s->pb, c, site, isend_ns);
	s->pb.seq = atomic_fetch_add(&send_seq, 1) + 1;
	s->pb.tag = tag;
	s->pb.bytes = pmpi_pb_checking ? pmpi_bytes(count, type) : 0;
	PMPI_Isend(&s->pb, 1, pmpi_pb_type, dest, tag, sh, &s->req);
	t = rt_now_ns();
	isend_ns = (7 * isend_ns + (t - m.t)) / 8;	/* a moving average */
	pthread_mutex_unlock(&ring_lock);
	pmpi_comp_piggyback(&m);
}

/* --- check mode: sequence numbers per (sender, shadow, tag) must grow */

#define SEQS 4096

struct last_seq {
	bool used;
	int32_t rank, tag;
	MPI_Comm shadow;
	uint64_t seq;
};

static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;
static struct last_seq seqs[SEQS];
static atomic_uint_fast64_t n_msgs, n_colls, n_bad, n_late, late_ns;

void pmpi_pb_count(bool coll, bool mismatch)
{
	atomic_fetch_add(coll ? &n_colls : &n_msgs, 1);
	if (mismatch)
		atomic_fetch_add(&n_bad, 1);
}

/* Is seq later than the last one from (rank, sh, tag)?  A full table
 * accepts. */
static bool seq_grows(int32_t rank, MPI_Comm sh, int32_t tag, uint64_t seq)
{
	uint64_t h = ((uint64_t)(uint32_t)rank << 32 | (uint32_t)tag) ^ PMPI_HKEY(sh);
	bool grows = true;

	pthread_mutex_lock(&check_lock);
	for (unsigned i = (unsigned)((h * 0x9e3779b97f4a7c15ull) >> 52), n = 0; n < SEQS;
	     i = (i + 1) % SEQS, n++) {
		struct last_seq *e = &seqs[i];

		if (!e->used)
			*e = (struct last_seq){ .used = true, .rank = rank, .tag = tag, .shadow = sh };
		else if (e->rank != rank || e->tag != tag || e->shadow != sh)
			continue;
		grows = seq > e->seq;
		e->seq = seq;
		break;
	}
	pthread_mutex_unlock(&check_lock);
	return grows;
}

/* Does pb belong to the message st received on comm? */
static bool pb_matches(const struct pmpi_pb *pb, MPI_Comm comm, MPI_Comm sh, const MPI_Status *st)
{
	MPI_Count n = -1;

	PMPI_Get_elements_x(st, MPI_BYTE, &n);
	return pb->version == PMPI_PB_VERSION && !(pb->flags & PMPI_PB_F_COLL) &&
	       pb->rank == pmpi_world_rank(comm, st->MPI_SOURCE) && pb->tag == st->MPI_TAG &&
	       (MPI_Count)pb->bytes == n && seq_grows(pb->rank, sh, pb->tag, pb->seq);
}

/* --- receives */

/* Late sender: the receiving call was entered before the send started. */
static void late_sender(const struct pmpi_call *c, const struct pmpi_pb *pb)
{
	if (pb->t_send > c->t0) {
		atomic_fetch_add(&n_late, 1);
		atomic_fetch_add(&late_ns, pb->t_send - c->t0);
	}
}

void pmpi_pb_recv(const struct pmpi_call *c, MPI_Comm comm, const MPI_Status *st)
{
	struct pmpi_pb pb;
	MPI_Comm sh;
	int cancelled = 0;
	struct comp_mark m;

	if (!pmpi_pb_on || st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE == MPI_ANY_SOURCE ||
	    PMPI_Test_cancelled(st, &cancelled) != MPI_SUCCESS || cancelled ||
	    !pmpi_pb_shadow(comm, &sh, NULL))
		return;
	m = pmpi_comp_mark_counts();	/* the user's receive completed: its wait ends */
	if (PMPI_Recv(&pb, 1, pmpi_pb_type, st->MPI_SOURCE, st->MPI_TAG, sh, MPI_STATUS_IGNORE) !=
	    MPI_SUCCESS)
		return;
	/* merged first: the shadow receive is tool time after the user's
	 * receive completed, and so adds to the delay the merge leaves */
	pmpi_comp_merge(c, &pb, &m);
	pmpi_comp_piggyback(&m);
	late_sender(c, &pb);
	pmpi_cp_merge(c, &pb, true);
	if (pmpi_pb_checking)
		pmpi_pb_count(false, !pb_matches(&pb, comm, sh, st));
}

/* --- matched probes: message handle -> communicator until its Mrecv */

#define MESSAGES 256

static pthread_mutex_t msg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	MPI_Message msg;
	MPI_Comm comm;
} messages[MESSAGES];
static unsigned msg_next;

void pmpi_pb_message(MPI_Message msg, MPI_Comm comm)
{
	if (!pmpi_pb_on || msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC)
		return;
	pthread_mutex_lock(&msg_lock);
	messages[msg_next].msg = msg;	/* the oldest is overwritten: 256 in flight */
	messages[msg_next].comm = comm;
	msg_next = (msg_next + 1) % MESSAGES;
	pthread_mutex_unlock(&msg_lock);
}

MPI_Comm pmpi_pb_message_comm(MPI_Message msg)
{
	MPI_Comm comm = MPI_COMM_NULL;

	if (!pmpi_pb_on || msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC)
		return MPI_COMM_NULL;
	pthread_mutex_lock(&msg_lock);
	for (unsigned i = 0; i < MESSAGES; i++)
		if (messages[i].msg == msg && messages[i].comm != MPI_COMM_NULL) {
			comm = messages[i].comm;
			messages[i].comm = MPI_COMM_NULL;	/* a handle is received once */
			break;
		}
	pthread_mutex_unlock(&msg_lock);
	return comm;
}

/* --- start and end */

void pmpi_pb_start(bool on, int rank)
{
	const char *check = getenv("CPPERF_PIGGYBACK_CHECK");

	world_rank = rank;
	for (int i = 0; i < RING; i++)
		ring[i].req = MPI_REQUEST_NULL;
	if (!on || PMPI_Type_contiguous((int)sizeof(struct pmpi_pb), MPI_BYTE, &pmpi_pb_type) != MPI_SUCCESS ||
	    PMPI_Type_commit(&pmpi_pb_type) != MPI_SUCCESS)
		return;
	pmpi_pb_checking = check && !strcmp(check, "1");
	pmpi_pb_on = true;
	pmpi_pb_comm_new(MPI_COMM_WORLD);
	pmpi_pb_comm_new(MPI_COMM_SELF);
}

void pmpi_pb_finalize(void)
{
	pmpi_cp_end();
	if (!pmpi_pb_on)
		return;
	pthread_mutex_lock(&ring_lock);
	for (int i = 0; i < RING; i++)
		if (ring[i].req != MPI_REQUEST_NULL)
			PMPI_Wait(&ring[i].req, MPI_STATUS_IGNORE);
	pthread_mutex_unlock(&ring_lock);
	pmpi_pb_coll_stop();
	PMPI_Type_free(&pmpi_pb_type);
	if (pmpi_pb_checking)
		fprintf(stderr, "cpperf: rank %d piggyback check: %llu messages, %llu collectives, "
			"%llu mismatches; late sender %llu times, %.6f s\n", world_rank,
			(unsigned long long)n_msgs, (unsigned long long)n_colls,
			(unsigned long long)n_bad, (unsigned long long)n_late, (double)late_ns / 1e9);
	pmpi_pb_on = false;
}
