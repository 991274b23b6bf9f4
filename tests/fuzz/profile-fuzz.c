/*
 * profile-fuzz.c - libFuzzer target for the profile reader.  Each input is
 * parsed twice: as is (the real entry point, where the trailer's length and
 * CRC stop almost every mutation early) and with PROFILE_PARSE_NO_CHECKSUM,
 * so mutated records reach the record parser.  Either way the parser must
 * not crash, leak or read out of bounds, and a profile it accepts must be
 * internally consistent (checked here, aborting on a violation).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/profile.h"

/* The MPI records name existing frames and peers inside the job. */
static void check_mpi(const struct profile *p)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		if (!p->mpi_sites[i].function)
			abort();
		for (uint32_t k = 0; k < p->mpi_sites[i].nframes; k++)
			if (p->mpi_sites[i].frames[k] >= p->syms.nframes)
				abort();
	}
	for (uint32_t i = 0; i < p->nmpi_peers; i++)
		if (p->mpi_peers[i].peer < 0 ||
		    (p->size > 0 && p->mpi_peers[i].peer >= p->size))
			abort();
	for (uint32_t i = 0; i < p->nmpi_colls; i++)
		if (!p->mpi_colls[i].function)
			abort();
}

/* Abort when an accepted profile breaks an invariant the readers rely on. */
static void check_profile(const struct profile *p)
{
	const struct cct *t = &p->tree;

	if (t->nnodes < 1 || t->nevents != p->nevents)
		abort();
	for (uint32_t i = 0; i < p->nevents; i++)
		if (p->events[i].leader > i || !p->events[i].name)
			abort();
	for (uint32_t i = 0; i < p->syms.nframes; i++)
		if (p->syms.frames[i].module != SYMTAB_NO_MODULE &&
		    p->syms.frames[i].module >= p->syms.nmodules)
			abort();
	for (uint32_t id = 1; id < t->nnodes; id++)
		if (t->parent[id] >= id || t->frame[id] >= p->syms.nframes)
			abort();
	if (!p->host || !p->backend || !p->call_graph || !p->mpi_library)
		abort();
	check_mpi(p);
}

static void parse_once(const uint8_t *data, size_t size, unsigned flags)
{
	struct profile p;
	char err[256];

	profile_init(&p);
	if (profile_parse_flags(&p, (const char *)data, size, flags, err,
				sizeof(err)) == 0)
		check_profile(&p);
	else if (!err[0])
		abort();	/* a refusal must say why */
	profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_once(data, size, 0);
	parse_once(data, size, PROFILE_PARSE_NO_CHECKSUM);
	return 0;
}
