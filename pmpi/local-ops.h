/*
 * local-ops.h - MPI's predefined operators on the C integer and floating
 * types applied by a loop of our own (local-ops.c), for the operator of
 * the fused allreduce (allreduce.c), which MPI_Reduce_local would cost
 * some 180 instructions a call in Open MPI.
 */
#ifndef CPPERF_PMPI_LOCAL_OPS_H
#define CPPERF_PMPI_LOCAL_OPS_H

#include <mpi.h>

/* inout[i] = in[i] op inout[i] for count elements, as MPI_Reduce_local. */
typedef void pmpi_local_op(const void *in, void *inout, int count);

/* op on type as a loop of ours that gives what MPI_Reduce_local gives,
 * NULL when MPI must apply it (a datatype or operator without a loop
 * here, or one whose loops disagree with MPI's).  Calls MPI. */
pmpi_local_op *pmpi_local_op_find(MPI_Op op, MPI_Datatype type);

#endif
