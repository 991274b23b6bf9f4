/*
 * pb.h - the piggyback as the MPI layer uses it: what a rank knows of the
 * critical path, of the tool's delay and of its call's entry when its data
 * leave, merged by the receiver (piggyback.h moves it; wire.h encodes it on messages).
 * No MPI types here: the unit tests use it as it is.
 */
#ifndef CPPERF_PMPI_PB_H
#define CPPERF_PMPI_PB_H

#include <stddef.h>
#include <stdint.h>

#define PMPI_PB_VERSION 9
#define PMPI_PB_SHARES 8	/* selected functions for critical-path shares */

/* flags */
#define PMPI_PB_F_COLL 1u	/* a collective's companion, not a message */
#define PMPI_PB_F_MISMATCH 2u	/* merged companions of different collectives */
#define PMPI_PB_F_CPFN 4u	/* carries zeroing data: fn, share, net */
#define PMPI_PB_F_HOSTS 8u	/* merged from ranks on different hosts */
#define PMPI_PB_F_FOLD 16u	/* a collective's: its sender asks for a fold point
				 * (docs/critical-path.md "Fold points") */
#define PMPI_PB_F_SYNC 32u	/* a message's: a synchronous send, which waits for
				 * its receive (docs/waits.md) */

/*
 * The piggyback as the runtime uses it.  A collective's companion moves it
 * as bytes (a contiguous datatype): all ranks of a job run the same
 * cpperf, so layout and byte order agree.  The zeroing block is last, so
 * that a job without zeroing moves only the PMPI_PB_CORE bytes before it.
 * A message carries the fields wire.h encodes.
 */
struct pmpi_pb {
	uint16_t version;	/* PMPI_PB_VERSION */
	uint16_t flags;		/* PMPI_PB_F_* */
	int32_t rank;		/* sender's MPI_COMM_WORLD rank */
	int32_t site;		/* sender's call-site id, -1 when unknown */
	int32_t tag;		/* tag of the user's message (check mode) */
	uint64_t seq;		/* send sequence number of the sender; for a
				 * collective, its number on the communicator */
	uint64_t t_send;	/* CLOCK_MONOTONIC ns when the user's data left
				 * (collective: the latest) */
	uint64_t event;		/* sender's critical-path event (collective:
				 * the winner's), 0 when it has no path yet */
	int64_t cp;		/* critical-path length at that event, ns */
	int64_t delay;		/* overhead-compensation delay x, ns, at t_send
				 * (merged: the least) */
	uint64_t t_free;	/* t_send - delay: when the data would have been
				 * ready without measurement (merged: the latest) */
	uint64_t host;		/* hash of the sender's host: t_free is comparable
				 * with local clocks only on the same host */
	uint64_t turns;		/* a collective's: the delay that switches in the
				 * rank's last collective added, left out of delay
				 * and t_free (merged: the largest) */
	uint64_t t_enter;	/* a collective's: when its call was entered, on
				 * rank 0's clock (merged: the latest) */
	uint64_t t_enter_free;	/* the same without measurement: less the rank's
				 * delay (merged: the latest) */
	/* zeroing (PMPI_PB_F_CPFN): present when the job's layout has it */
	int64_t share[PMPI_PB_SHARES];	/* S_f: each selected function's time along cp */
	int64_t net[PMPI_PB_SHARES];	/* N_f: the path without that function */
	uint64_t fn[PMPI_PB_SHARES];	/* the selection: FNV-1a of the names, 0 unused */
	/* check mode's, out of the core: a fused collective's core and 8
	 * bytes of data then stay within 104 bytes, past which Open MPI's
	 * allreduce over shared memory takes 5 % longer (docs/mpi.md) */
	uint64_t bytes;		/* size of the user's message */
	int32_t source;		/* sender's rank in the message's communicator
				 * (check mode) */
};

#define PMPI_PB_CORE offsetof(struct pmpi_pb, share)

_Static_assert(sizeof(struct pmpi_pb) == 304 && PMPI_PB_CORE == 96,
	       "piggyback layout changed: bump PMPI_PB_VERSION and pmpi_pb_core_clear");

/* The core's fields zeroed one by one: a memset of its 96 bytes compiles
 * to `rep stos`, 5 ns on the development VM, and every message fills a
 * core on each side. */
static inline void pmpi_pb_core_clear(struct pmpi_pb *pb)
{
	pb->version = pb->flags = 0;
	pb->rank = pb->site = pb->tag = 0;
	pb->seq = pb->t_send = pb->event = 0;
	pb->cp = pb->delay = 0;
	pb->t_free = pb->host = pb->turns = 0;
	pb->t_enter = pb->t_enter_free = 0;
}

/* How a collective's companion moves the piggyback (mpi-api.def flags). */
enum pmpi_pb_dir {
	PMPI_PB_ALL,		/* every output depends on every input: allreduce */
	PMPI_PB_FROMROOT,	/* root to all: broadcast */
	PMPI_PB_TOROOT,		/* all to the root: reduce */
	PMPI_PB_PREFIX,		/* lower ranks to higher: scan */
	PMPI_PB_NBR,		/* topology neighbours: neighbour allgather */
};

/* What the analyses stamp on a message whose header is the core alone
 * (wire.h: a job without zeroing and check mode), written straight into
 * the header: the fields of struct pmpi_pb that such a header carries
 * besides the sender's rank, site and flags. */
struct pmpi_pb_core {
	uint64_t t_send;	/* set by the transport */
	uint64_t event;		/* 0: no path */
	int64_t cp;		/* < 0: no path */
	int64_t delay;
};

#endif
