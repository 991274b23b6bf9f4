/*
 * datatypes.h - sizes and layouts of MPI datatypes, cached per handle
 * (datatypes.c).
 */
#ifndef CPPERF_PMPI_DATATYPES_H
#define CPPERF_PMPI_DATATYPES_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "here.h"

/* The predefined datatypes read, at MPI_Init. */
void pmpi_types_start(void);

/* A predefined datatype as the table keeps it. */
struct pmpi_named {
	MPI_Datatype type;
	int size;		/* 0: a free slot */
	unsigned groups;	/* the operator groups it belongs to */
};
const struct pmpi_named *pmpi_named_probe(MPI_Datatype type);

/* type's entry, NULL for a derived datatype or one the table lacks.  The
 * one the thread found last first (pmpi_here.named_last): a program moves
 * the same one or two, and comparing its handle costs less than the hash
 * (pmpi_named_probe). */
static inline const struct pmpi_named *pmpi_named_find(MPI_Datatype type)
{
	const struct pmpi_named *n = pmpi_here.named_last;

	return n && n->type == type ? n : pmpi_named_probe(type);
}

/* MPI's answer, in MPI_Count: a derived datatype may hold more than
 * INT_MAX bytes, for which MPI_Type_size gives MPI_UNDEFINED. */
int64_t pmpi_type_asked_size(MPI_Datatype type);

/* A datatype's size (-1 when MPI refuses it); with the layout, also
 * whether count elements of it lie in one piece (*contig), at *at bytes
 * from the buffer's address. */
static inline int64_t pmpi_type_size(MPI_Datatype type)
{
	const struct pmpi_named *n = pmpi_named_find(type);

	return n ? n->size : pmpi_type_asked_size(type);
}
/* The layout of a datatype the table lacks, asked of MPI; the table's
 * in line (every non-blocking message describes its data). */
int64_t pmpi_type_layout_asked(MPI_Datatype type, int count, bool *contig, MPI_Aint *at);
static inline int64_t pmpi_type_layout(MPI_Datatype type, int count, bool *contig, MPI_Aint *at)
{
	const struct pmpi_named *n = pmpi_named_find(type);

	if (!n)
		return pmpi_type_layout_asked(type, count, contig, at);
	*contig = true;		/* the table keeps those whose elements lie end to end */
	*at = 0;
	return n->size;
}
/* The size of a predefined datatype whose elements lie end to end; 0 for
 * any other. */
int64_t pmpi_type_named_size(MPI_Datatype type);
/* Whether MPI defines predefined operator op on type: a predefined
 * datatype without padding of a group op takes (MPI 4.0, 6.9.2); never a
 * derived datatype, which MPI refuses, nor one the table lacks. */
bool pmpi_op_defined_on(MPI_Op op, MPI_Datatype type);

#endif
