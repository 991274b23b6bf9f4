/*
 * facts.h - what a call hands stats.c: its bytes, messages and peers, read
 * from its arguments and statuses, and a site's later receives and sends.
 */
#ifndef CPPERF_PMPI_FACTS_H
#define CPPERF_PMPI_FACTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "call.h"
#include "comms.h"
#include "datatypes.h"
#include "status.h"

/* The size of MPI_COMM_WORLD (stats.c). */
extern int pmpi_world_size;

/* The call's site index (looked up at its entry), -1 when the table is
 * full.  A new site's path is captured now rather than at the call's
 * end. */
int pmpi_site(struct pmpi_call *c);
/* Add a received message of `bytes` to a site (a receive completed later
 * than the call that started it), and a persistent send's message started
 * now.  peer < 0: no peer. */
void pmpi_site_recv(int site, uint64_t bytes);
void pmpi_site_send(int site, uint64_t bytes, int64_t peer);
/* A wait state of kind (enum prof_wait_kind) at a site: measured and
 * compensated ns (waits.c). */
void pmpi_site_wait(int site, unsigned kind, uint64_t ns, uint64_t comp_ns);

/* Facts of a call.  Counts and types are read only here.  Bytes of
 * count elements of type: inline, as the size of a predefined datatype,
 * which every call that moves data asks. */
static inline uint64_t pmpi_bytes(int count, MPI_Datatype type)
{
	int64_t size;

	if (count <= 0 || (size = pmpi_type_size(type)) <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

uint64_t pmpi_bytes_v(const int *counts, MPI_Datatype type, int n);
uint64_t pmpi_bytes_w(const int *counts, const MPI_Datatype *types, int n);

/* A message of `bytes` that call c sent to world rank peer (-1: not in
 * this world) or received, and a collective's or a one-sided call's
 * bytes: into its site's counters at once (c->counts, set at its entry;
 * MPI_Init tells none), nothing kept in c for its end to read back. */
void pmpi_count_sent(struct pmpi_call *c, uint64_t bytes, int64_t peer);
void pmpi_count_received(struct pmpi_call *c, uint64_t bytes);

/* A call sends at most one point-to-point message.  Inline, as the
 * receive's below: every such call tells it; its size once (the
 * transport's, when it worked it out). */
static inline __attribute__((always_inline))
void pmpi_sent(struct pmpi_call *c, int count, MPI_Datatype type, int dest, MPI_Comm comm)
{
	if (dest == MPI_PROC_NULL)
		return;
	/* MPI_COMM_WORLD's ranks are the world's: most sends ask nothing */
	pmpi_count_sent(c, c->flags & PMPI_CALL_SIZED ? c->bytes : pmpi_bytes(count, type),
			comm == MPI_COMM_WORLD ? ((unsigned)dest < (unsigned)pmpi_world_size ? dest : -1)
					       : pmpi_world_rank(comm, dest));
}

/* A blocking receive, which cannot have been cancelled: a message unless
 * from MPI_PROC_NULL.  quick: as call.h says (statuses read in place). */
static inline void pmpi_received(struct pmpi_call *c, const MPI_Status *st, enum pmpi_way quick)
{
	if (st->MPI_SOURCE != MPI_PROC_NULL)
		pmpi_count_received(c, (uint64_t)pmpi_status_count(st, quick));
}
/* Bytes of a received message from its status; 0 for MPI_PROC_NULL or a
 * cancelled request. *msg says whether there was a message at all. */
uint64_t pmpi_status_bytes(const MPI_Status *st, bool *msg);
/* A collective's bytes sent and received, on the communicator of facts cf. */
void pmpi_coll(struct pmpi_call *c, const struct pmpi_comm_facts *cf, uint64_t sent, uint64_t recv);
void pmpi_rma(struct pmpi_call *c, uint64_t sent, uint64_t recv);

#endif
