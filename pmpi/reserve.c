/*
 * reserve.c - memory kept aside for when malloc fails (reserve.h).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "piggyback.h"
#include "reserve.h"

void pmpi_stop_job(const char *what)
{
	fprintf(stderr, "cpperf: rank %d: out of memory for %s; stopping the job, which cannot go "
		"on consistently without it\n", pmpi_pb_rank(), what);
	PMPI_Abort(MPI_COMM_WORLD, 1);
	abort();	/* PMPI_Abort does not return */
}

void *pmpi_reserve_take(struct pmpi_reserve *r)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!(__atomic_fetch_or(&r->used, 1u << i, __ATOMIC_ACQUIRE) & 1u << i))
			return r->mem + i * r->size;
	pmpi_stop_job(r->what);
}

void pmpi_reserve_put(struct pmpi_reserve *r, unsigned char *q)
{
	__atomic_fetch_and(&r->used, ~(1u << (q - r->mem) / r->size), __ATOMIC_RELEASE);
}

void *pmpi_reserve_alloc(struct pmpi_reserve *r, size_t bytes)
{
	void *p = malloc(bytes);

	return p ? p : pmpi_reserve_take(r);
}

/* Not inlined: the compiler cannot tell that a blocking collective's
 * piggyback on the stack never comes here. */
__attribute__((noinline)) void pmpi_reserve_free(struct pmpi_reserve *r, void *p)
{
	if (!pmpi_reserve_give(r, p))
		free(p);
}
