/*
 * datatypes.h - sizes and layouts of MPI datatypes, cached per handle
 * (datatypes.c).
 */
#ifndef CPPERF_PMPI_DATATYPES_H
#define CPPERF_PMPI_DATATYPES_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

/* A datatype's size (-1 when MPI refuses it); with the
 * layout, also whether count elements of it lie in one piece (*contig),
 * at *at bytes from the buffer's address.  The predefined ones are read
 * at MPI_Init (pmpi_types_start). */
void pmpi_types_start(void);
int64_t pmpi_type_size(MPI_Datatype type);
int64_t pmpi_type_layout(MPI_Datatype type, int count, bool *contig, MPI_Aint *at);
/* The size of a predefined datatype whose elements lie end to end; 0 for
 * any other. */
int64_t pmpi_type_named_size(MPI_Datatype type);
/* Whether MPI defines predefined operator op on type: a predefined
 * datatype without padding of a group op takes (MPI 4.0, 6.9.2); never a
 * derived datatype, which MPI refuses, nor one the table lacks. */
bool pmpi_op_defined_on(MPI_Op op, MPI_Datatype type);

#endif
