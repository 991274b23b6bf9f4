/*
 * comms.h - facts about communicators, cached per handle (comms.c).
 */
#ifndef CPPERF_PMPI_COMMS_H
#define CPPERF_PMPI_COMMS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

/* What the wrappers ask of a communicator, copied from one lookup: a
 * collective's steps read it again and again. */
struct pmpi_comm_facts {
	MPI_Comm comm;
	int rank, size;		/* in the local group */
	bool inter;
	int npeers;		/* size, or remote size of an intercommunicator */
	int nin, nout;		/* neighbours of a topology, else npeers */
};
struct pmpi_comm_facts pmpi_comm_facts(MPI_Comm comm);
int pmpi_comm_rank(MPI_Comm comm);

enum pmpi_peers { PMPI_PEERS_N, PMPI_PEERS_NIN, PMPI_PEERS_NOUT };
/* Peers a collective exchanges with: the size (remote size of an
 * intercommunicator), or the neighbour in/out degree of a topology. */
static inline int pmpi_npeers(const struct pmpi_comm_facts *f, enum pmpi_peers kind)
{
	return kind == PMPI_PEERS_NIN ? f->nin : kind == PMPI_PEERS_NOUT ? f->nout : f->npeers;
}

/* Root significance of a rooted collective (see mpi-api.def): an
 * intracommunicator's root is rank root; in an intercommunicator the
 * root passes MPI_ROOT, the rest of its group MPI_PROC_NULL, and the
 * other group the root's rank. */
static inline bool pmpi_is_root(const struct pmpi_comm_facts *f, int root)
{
	return f->inter ? root == MPI_ROOT : f->rank == root;
}

static inline bool pmpi_is_leaf(const struct pmpi_comm_facts *f, int root)
{
	return f->inter ? root != MPI_ROOT && root != MPI_PROC_NULL : true;
}

static inline bool pmpi_is_nonroot(const struct pmpi_comm_facts *f, int root)
{
	return f->inter ? root != MPI_ROOT && root != MPI_PROC_NULL : f->rank != root;
}

/* Does every member of comm (both groups of an intercommunicator)
 * belong to this process's MPI_COMM_WORLD?  Asked of MPI once per
 * communicator, from its groups: local calls, no message.  False for
 * MPI_COMM_NULL. */
bool pmpi_comm_in_world(MPI_Comm comm);
/* World rank of rank r of comm's peer group (the remote group of an
 * intercommunicator), -1 when it has none (MPI_PROC_NULL, another world). */
int64_t pmpi_world_rank(MPI_Comm comm, int r);
/* Drop what is cached about a communicator being freed. */
void pmpi_comm_forget(MPI_Comm comm);

#endif
