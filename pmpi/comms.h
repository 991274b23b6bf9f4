/*
 * comms.h - facts about communicators, cached per handle (comms.c).
 */
#ifndef CPPERF_PMPI_COMMS_H
#define CPPERF_PMPI_COMMS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

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

#endif
