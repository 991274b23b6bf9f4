/*
 * reserve.h - memory kept aside for what the MPI layer cannot do without
 * once MPI has taken a call: a non-blocking collective's piggyback and
 * blocks, the entry that follows a request to its completion.  Where
 * malloc fails, one of a few blocks kept aside serves; past them the job
 * is stopped with a message naming the rank, rather than left to lose a
 * message's data or with ranks that disagree on their collectives
 * (reserve.c).
 */
#ifndef CPPERF_PMPI_RESERVE_H
#define CPPERF_PMPI_RESERVE_H

#include <stdbool.h>
#include <stddef.h>

/* n blocks of size bytes at mem (at most 32), what they are for. */
struct pmpi_reserve {
	unsigned char *mem;
	size_t size;
	unsigned n, used;	/* used: a bit each */
	const char *what;
};

/* One of r's blocks, or the job stopped. */
void *pmpi_reserve_take(struct pmpi_reserve *r);
/* Give back q, one of r's blocks. */
void pmpi_reserve_put(struct pmpi_reserve *r, unsigned char *q);
/* Give p back to r; false when it is not one of r's: inline, every
 * request's entry is asked at its end. */
static inline bool pmpi_reserve_give(struct pmpi_reserve *r, void *p)
{
	unsigned char *q = p;

	if (q < r->mem || q >= r->mem + r->n * r->size)
		return false;
	pmpi_reserve_put(r, q);
	return true;
}
/* bytes (at most r->size) from malloc, else from r; and back. */
void *pmpi_reserve_alloc(struct pmpi_reserve *r, size_t bytes);
void pmpi_reserve_free(struct pmpi_reserve *r, void *p);
/* Stop the job: out of memory for what. */
__attribute__((noreturn)) void pmpi_stop_job(const char *what);

#endif
