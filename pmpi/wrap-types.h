/*
 * wrap-types.h - datatypes for a header and a payload sent or received as
 * one message (wrap-types.c): reusable ones for a contiguous payload, one
 * call's for any other.
 */
#ifndef CPPERF_PMPI_WRAP_TYPES_H
#define CPPERF_PMPI_WRAP_TYPES_H

#include <mpi.h>
#include <stdbool.h>

/* A committed datatype of hlen bytes at hdr then bytes bytes at data, for
 * MPI_BOTTOM; *owned says whether the caller must free it (true only when
 * memory is short), else the calling thread's cache keeps it.  Returns an
 * MPI error code. */
int pmpi_wrap_type(const void *hdr, int hlen, const void *data, int bytes, MPI_Datatype *type,
		   bool *owned);

/* A committed datatype of hlen bytes at hdr then count x type at buf (any
 * layout, absolute addresses from MPI_BOTTOM included), for MPI_BOTTOM,
 * made for one call: the caller frees it.  Returns an MPI error code. */
int pmpi_wrap_struct(const void *hdr, int hlen, const void *buf, int count, MPI_Datatype type,
		     MPI_Datatype *out);

/* Free every thread's kept types: MPI_Finalize's entry. */
void pmpi_wrap_types_release(void);

#endif
