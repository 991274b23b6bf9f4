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

/* The call's site index (looked up on first use), -1 when the table is
 * full.  A new site's path is captured now; pmpi_site_later leaves that
 * to the call's end (a call that completed and must not wait now). */
int pmpi_site(struct pmpi_call *c);
int pmpi_site_later(struct pmpi_call *c);
/* Add a received message of `bytes` to a site (a receive completed later
 * than the call that started it), and a persistent send's message started
 * now.  peer < 0: no peer. */
void pmpi_site_recv(int site, uint64_t bytes);
void pmpi_site_send(int site, uint64_t bytes, int64_t peer);
/* A wait state of kind (enum prof_wait_kind) at a site: measured and
 * compensated ns (waits.c). */
void pmpi_site_wait(int site, unsigned kind, uint64_t ns, uint64_t comp_ns);

/* Facts of a call.  Counts and types are read only here. */
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

#endif
