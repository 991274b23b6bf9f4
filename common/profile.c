/*
 * profile.c - life cycle of a struct profile (init, release) and the table
 * of scalar records that the writer and the reader share.  Writing is in
 * profile-write.c, reading and validation in profile-read.c.
 */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "profile-int.h"

#define SCALAR(k, s, t, f) { k, s, t, offsetof(struct profile, f) }

const struct prof_scalar prof_scalars[PROF_NSCALARS] = {
	SCALAR("host", PS_META, PK_STR, host),
	SCALAR("pid", PS_META, PK_I64, pid),
	SCALAR("rank", PS_META, PK_I64, rank),
	SCALAR("size", PS_META, PK_I64, size),
	SCALAR("start_ns", PS_META, PK_U64, start_ns),
	SCALAR("end_ns", PS_META, PK_U64, end_ns),
	SCALAR("backend", PS_META, PK_STR, backend),
	SCALAR("call_graph", PS_META, PK_STR, call_graph),
	SCALAR("mpi_library", PS_META, PK_STR, mpi_library),
	SCALAR("samples", PS_COUNTER, PK_U64, samples),
	SCALAR("lost", PS_COUNTER, PK_U64, lost),
	SCALAR("throttled", PS_COUNTER, PK_U64, throttled),
	SCALAR("unwind_complete", PS_COUNTER, PK_U64, unwind_complete),
	SCALAR("unwind_truncated", PS_COUNTER, PK_U64, unwind_truncated),
	SCALAR("unwind_ns", PS_COUNTER, PK_U64, unwind_ns),
	SCALAR("drain_cpu_ns", PS_COUNTER, PK_U64, drain_cpu_ns),
	SCALAR("cpu_ns", PS_COUNTER, PK_U64, cpu_ns),
};

/* See profile.h.  Cannot fail; the tree is left zeroed (no root) until the
 * owner calls cct_init(&p->tree, p->nevents). */
void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->rank = -1;
	symtab_init(&p->syms);
}

/* See profile.h.  Cannot fail. */
void profile_release(struct profile *p)
{
	for (uint32_t i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	free(p->host);
	free(p->backend);
	free(p->call_graph);
	for (uint32_t i = 0; i < p->nevents; i++)
		free(p->events[i].name);
	free(p->events);
	for (uint32_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].samples);
	free(p->threads);
	symtab_release(&p->syms);
	cct_release(&p->tree);
	free(p->mpi_library);
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		free(p->mpi_sites[i].function);
		free(p->mpi_sites[i].frames);
	}
	free(p->mpi_sites);
	free(p->mpi_peers);
	for (uint32_t i = 0; i < p->nmpi_colls; i++)
		free(p->mpi_colls[i].function);
	free(p->mpi_colls);
	profile_init(p);
}
