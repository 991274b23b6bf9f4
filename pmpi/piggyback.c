/*
 * piggyback.c - the piggyback's common parts (piggyback.h): its start at
 * MPI_Init, where the ranks agree on the header's layout and learn who
 * shares their host; this rank's piggyback for a call; the communicators
 * it travels on; the collective numbers of each communicator; and the
 * check mode (CPPERF_PIGGYBACK_CHECK=1), which verifies every received
 * piggyback against the message it came with.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sampler/rt.h"
#include "call.h"
#include "comms.h"
#include "piggyback.h"
#include "pb-units.h"
#include "critpath.h"
#include "compensate.h"
#include "clock-align.h"
#include "status.h"

bool pmpi_pb_on, pmpi_pb_checking;
struct wire_layout pmpi_wire;
MPI_Datatype pmpi_pb_type = MPI_DATATYPE_NULL;
size_t pmpi_pb_bytes;
static int world_rank;
static unsigned char *same_host;	/* a bit per world rank */
static int same_host_n;
static int host_ranks = 1;	/* world ranks on this host, this one included */

void pmpi_pb_fill(struct pmpi_pb *pb, const struct pmpi_call *c, int site, uint64_t t_send,
		  enum pmpi_way quick)
{
	pmpi_pb_core_clear(pb);
	if (!quick && pmpi_wire.zero)	/* quick: the core alone */
		memset(pb->share, 0, sizeof(*pb) - PMPI_PB_CORE);
	pb->version = PMPI_PB_VERSION;
	pb->flags = c->flags & PMPI_CALL_SYNC ? PMPI_PB_F_SYNC : 0;
	pb->rank = world_rank;
	pb->site = site;
	pb->t_send = t_send;
	pb_units_stamp(pb, c, quick);
}

/* Every message's header: inlined into the sends by the link-time
 * optimizer, which would otherwise call it from both. */
__attribute__((always_inline)) inline void pmpi_pb_stamp_core(unsigned char *hdr,
							     const struct pmpi_call *c, int site,
							     uint64_t t_send, enum pmpi_way quick)
{
	struct pmpi_pb_core k = { .t_send = t_send, .cp = -1 };

	pb_units_stamp_core(&k, c, quick);
	wire_put_core(hdr, c->flags & PMPI_CALL_SYNC ? WIRE_F_SYNC : 0, site, world_rank, &k);
}

void pmpi_pb_fill_none(struct pmpi_pb *pb, uint64_t t_send)
{
	memset(pb, 0, sizeof(*pb));
	pb->version = PMPI_PB_VERSION;
	pb->rank = world_rank;
	pb->site = -1;
	pb->cp = -1;
	pb->t_send = t_send;
}

int pmpi_pb_rank(void)
{
	return world_rank;
}

int pmpi_pb_host_ranks(void)
{
	return host_ranks;
}

bool pmpi_pb_same_host(int rank)
{
	unsigned r = (unsigned)rank;	/* a negative rank is past the end */

	return same_host && r < (unsigned)same_host_n && (same_host[r / 8] >> (r % 8)) & 1;
}

/* --- collective numbers per communicator: open addressing by handle,
 * tombstones on free */

#define COMMS 16384		/* communicators alive at once (power of 2) */

struct comm_seq {
	bool used, dead;
	MPI_Comm comm;
	uint64_t coll_seq;	/* collectives started on comm */
};

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct comm_seq comms[COMMS];
/* The entry found last: a program's collectives mostly go to one
 * communicator.  Entries stay where they are; a slot taken again holds
 * another communicator, or the same one's new count. */
static struct comm_seq *last_entry;

static unsigned comm_home(MPI_Comm comm)
{
	return (unsigned)((PMPI_HKEY(comm) * 0x9e3779b97f4a7c15ull) >> 40) & (COMMS - 1);
}

/* comm's live entry, made when missing; NULL when the table is full.
 * Caller holds comm_lock. */
static struct comm_seq *comm_entry(MPI_Comm comm)
{
	struct comm_seq *free_slot = NULL;
	unsigned i = comm_home(comm);

	if (last_entry && last_entry->comm == comm && !last_entry->dead)
		return last_entry;
	for (unsigned n = 0; n < COMMS && comms[i].used; i = (i + 1) & (COMMS - 1), n++) {
		if (!comms[i].dead && comms[i].comm == comm)
			return last_entry = &comms[i];
		if (comms[i].dead && !free_slot)
			free_slot = &comms[i];
	}
	if (!free_slot && !comms[i].used)
		free_slot = &comms[i];
	if (free_slot)
		*free_slot = (struct comm_seq){ .used = true, .comm = comm };
	return free_slot ? last_entry = free_slot : NULL;
}

bool pmpi_pb_coll_seq(MPI_Comm comm, uint64_t *seq, enum pmpi_way quick)
{
	struct comm_seq *e;

	/* quick: every communicator carries it; one thread counts unless
	 * the way is locked */
	if (comm == MPI_COMM_NULL || (!quick && !pmpi_pb_comm(comm)))
		return false;
	if (quick != PMPI_QUICK)
		pmpi_lock(&comm_lock);
	/* past the table's room the collective is numbered 0, which check
	 * mode reports, rather than skipped by this rank alone: its members
	 * may have fewer communicators alive */
	e = comm_entry(comm);
	*seq = e ? ++e->coll_seq : 0;
	if (quick != PMPI_QUICK)
		pmpi_unlock(&comm_lock);
	return true;
}

void pmpi_pb_comm_born(MPI_Comm comm)
{
	if (!pmpi_wire.len || comm == MPI_COMM_NULL ||
	    __atomic_load_n(&pmpi_wire.by_comm, __ATOMIC_RELAXED) || pmpi_comm_in_world(comm))
		return;
	__atomic_store_n(&pmpi_wire.by_comm, 1, __ATOMIC_RELEASE);
	pmpi_quick_part(PMPI_QUICK_WIRE, false);
}

void pmpi_pb_comm_free(MPI_Comm comm)
{
	if (!pmpi_pb_on)
		return;
	pmpi_lock(&comm_lock);
	for (unsigned i = comm_home(comm), n = 0; n < COMMS && comms[i].used;
	     i = (i + 1) & (COMMS - 1), n++)
		if (!comms[i].dead && comms[i].comm == comm)
			comms[i].dead = true;
	pmpi_unlock(&comm_lock);
}

/* --- check mode */

static atomic_uint_fast64_t n_msgs, n_colls, n_bad, n_late, late_ns;

void pmpi_pb_late(const struct pmpi_call *c, const struct pmpi_pb *pb)
{
	/* counted only where it is printed: a locked add right after a
	 * receive waits for the stores MPI just made to lines the peer
	 * polls */
	if (pmpi_pb_checking && pb->t_send > c->t0) {
		atomic_fetch_add(&n_late, 1);
		atomic_fetch_add(&late_ns, pb->t_send - c->t0);
	}
}

void pmpi_pb_count(bool coll, bool mismatch)
{
	atomic_fetch_add(coll ? &n_colls : &n_msgs, 1);
	if (mismatch)
		atomic_fetch_add(&n_bad, 1);
}

bool pmpi_pb_matches(const struct pmpi_pb *pb, const MPI_Status *st, uint64_t bytes)
{
	return pb->source == st->MPI_SOURCE && pb->tag == st->MPI_TAG && pb->bytes == bytes;
}

/* --- start and end */

/* Which world ranks share this rank's host: a bit each, from every rank's
 * host hash (a blocking allgather: a communicator made here would have
 * Open MPI poll its non-blocking collectives' engine for the rest of the
 * run, a few per cent of a small message's latency). */
static void find_host_peers(int size)
{
	uint32_t mine = (uint32_t)pmpi_host_hash(), *all = malloc((size_t)size * sizeof(*all));

	same_host = calloc((size_t)size / 8 + 1, 1);
	if (all && same_host &&
	    PMPI_Allgather(&mine, 1, MPI_UINT32_T, all, 1, MPI_UINT32_T, MPI_COMM_WORLD) == MPI_SUCCESS) {
		host_ranks = 0;
		for (int i = 0; i < size; i++)
			if (all[i] == mine) {
				same_host[i / 8] |= (unsigned char)(1u << (i % 8));
				host_ranks++;
			}
		same_host_n = size;
	}
	free(all);
}

/* Collective over MPI_COMM_WORLD: the layout every rank's messages will
 * use, from what any rank needs (zeroing, check mode); off when any rank
 * has it off. */
static void agree_layout(bool on, const struct rt_state *rt)
{
	const char *check = getenv("CPPERF_PIGGYBACK_CHECK");
	int mine = (on ? 0 : 1) | (check && !strcmp(check, "1") ? 2 : 0) |
		   (rt->opt.cp_functions[0] || rt->opt.cp_auto > 0 ? 4 : 0), all = 1;

	if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD) != MPI_SUCCESS || (all & 1))
		return;
	pmpi_pb_checking = all & 2;
	pmpi_wire = wire_layout(all & 4, all & 2);
}

/* The datatype of one piggyback in a collective's companion: its bytes
 * without the zeroing block unless the job zeroes, at the stride of the
 * struct (neighbours' arrays). */
static int make_pb_type(void)
{
	MPI_Datatype bytes;
	int rc;

	pmpi_pb_bytes = pmpi_wire.zero ? sizeof(struct pmpi_pb) : PMPI_PB_CORE;
	rc = PMPI_Type_contiguous((int)pmpi_pb_bytes, MPI_BYTE, &bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = PMPI_Type_create_resized(bytes, 0, (MPI_Aint)sizeof(struct pmpi_pb), &pmpi_pb_type);
	PMPI_Type_free(&bytes);
	if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&pmpi_pb_type)) != MPI_SUCCESS)
		PMPI_Type_free(&pmpi_pb_type);
	return rc;
}

void pmpi_pb_start(bool on, int rank, int size, const struct rt_state *rt)
{
	MPI_Comm parent = MPI_COMM_NULL;

	world_rank = rank;
	pb_units_start(rt);
	agree_layout(on, rt);
	if (!pmpi_wire.len || make_pb_type() != MPI_SUCCESS) {
		pmpi_wire.len = 0;
		return;
	}
	if (pmpi_pb_coll_start() != MPI_SUCCESS) {
		PMPI_Type_free(&pmpi_pb_type);
		pmpi_wire.len = 0;
		return;
	}
	find_host_peers(size);
	pmpi_clock_start(rank, size);
	pmpi_pb_on = true;
	/* the common case's messages (call.h); statuses were checked before */
	pmpi_quick_part(PMPI_QUICK_WIRE, pmpi_wire.len == WIRE_CORE && !pmpi_pb_checking &&
					 pmpi_status_direct);
	if (PMPI_Comm_get_parent(&parent) == MPI_SUCCESS)	/* spawned by another world */
		pmpi_pb_comm_born(parent);
}

void pmpi_pb_finalize(void)
{
	pmpi_cp_end();
	if (!pmpi_pb_on)
		return;
	pmpi_quick_part(PMPI_QUICK_WIRE, false);
	pmpi_clock_finalize();
	if (pmpi_pb_checking)
		fprintf(stderr, "cpperf: rank %d piggyback check: %llu messages, %llu collectives, "
			"%llu mismatches; late sender %llu times, %.6f s\n", world_rank,
			(unsigned long long)n_msgs, (unsigned long long)n_colls,
			(unsigned long long)n_bad, (unsigned long long)n_late, (double)late_ns / 1e9);
	pmpi_pb_on = false;
	PMPI_Type_free(&pmpi_pb_type);
}
