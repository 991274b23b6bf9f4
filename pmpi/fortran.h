/*
 * fortran.h - the Fortran bindings' conventions (fortran.c): statuses,
 * buffers and request arrays as the generated Fortran wrappers pass them.
 */
#ifndef CPPERF_PMPI_FORTRAN_H
#define CPPERF_PMPI_FORTRAN_H

#include <mpi.h>

#include "call.h"
#include "requests.h"

#ifdef MPI_F_STATUS_SIZE
#define PMPI_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define PMPI_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))
#endif
/* `use mpi_f08`'s MPI_STATUS(ES)_IGNORE: Open MPI's is mpif.h's; MPICH's
 * is an object of its own.  TYPE(MPI_Status) has the layout of mpif.h's
 * status in both, so the same conversions serve. */
#ifdef MPICH
#define PMPI_F08_STATUS_IGNORE ((MPI_Fint *)MPI_F08_STATUS_IGNORE)
#define PMPI_F08_STATUSES_IGNORE ((MPI_Fint *)MPI_F08_STATUSES_IGNORE)
#define PMPI_F08_INDEX_BASE pmpi_f08_index_base()
/* What MPICH's mpi_f08 numbers the first request in the index its Waitany,
 * Testany, Waitsome and Testsome return: 0 before MPICH 4.1, which fixed
 * it to Fortran's 1. */
int pmpi_f08_index_base(void);
#else
#define PMPI_F08_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define PMPI_F08_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#define PMPI_F08_INDEX_BASE 1
#endif
/* The MPI library's own definition of name, found past this library (it
 * has no PMPI name for mpi_f08's procedures under MPICH); exits with a
 * message when there is none. */
void (*pmpi_f08_next(const char *name))(void);
/* static void pNAME PARAMS: calls the library's NAME with ARGS (looked up
 * once) */
#define PMPI_F08_NEXT(name, params, args)						\
	static void p##name params							\
	{										\
		static void (*next_) params;						\
		void (*fn_) params = __atomic_load_n(&next_, __ATOMIC_RELAXED);		\
											\
		if (!fn_) {								\
			fn_ = (void (*) params)pmpi_f08_next(#name);			\
			__atomic_store_n(&next_, fn_, __ATOMIC_RELAXED);		\
		}									\
		fn_ args;								\
	}
/* A Fortran buffer argument as C sees it: MPI_IN_PLACE for the library's
 * Fortran MPI_IN_PLACE sentinel, else buf. */
const void *pmpi_f_buf(const void *buf);
/* The bytes of n blocks of counts[i] x the Fortran datatype types[i]: a
 * side of MPI_Alltoallw, whose datatypes come as an array of handles. */
uint64_t pmpi_f_bytes_w(const int *counts, const MPI_Fint *types, int n);
/* A Fortran status into st; returns st. */
const MPI_Status *pmpi_f_status(const MPI_Fint *fst, MPI_Status *st);
void pmpi_f_req_start(struct pmpi_call *c, MPI_Fint n, const MPI_Fint *freqs);
/* ignore: the binding's MPI_STATUS(ES)_IGNORE, which stands for none */
void pmpi_f_reqs_before(struct pmpi_snap *s, MPI_Fint n, const MPI_Fint *freqs,
			MPI_Fint **fstatuses, int many, const MPI_Fint *ignore);
/* base: what the binding numbers the first request (index, indices) */
void pmpi_f_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, MPI_Fint rc, MPI_Fint *fstatuses,
		       const MPI_Fint *index, const MPI_Fint *flag, const MPI_Fint *outcount,
		       const MPI_Fint *indices, int base);

#endif
