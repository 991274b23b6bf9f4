/*
 * init.c - MPI start-up and abnormal end as the profile sees them: rank,
 * size and library at MPI_Init, one experiment directory for all ranks,
 * and the profile written before MPI_Abort ends the process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmpi.h"
#include "piggyback.h"

/* FNV-1a of a string. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * cpperf-record chose a directory of this process's own when it saw no
 * launcher job id (CPPERF_OUTPUT_AGREE=1): take rank 0's instead and
 * remove ours, still empty.  Otherwise only check that every rank writes
 * to the same place and say so once if not.
 */
static void agree_output(struct rt_state *rt, int rank)
{
	const char *agree = getenv("CPPERF_OUTPUT_AGREE");
	uint64_t h[2], max[2];

	if (agree && !strcmp(agree, "1")) {
		char dir[sizeof(rt->opt.output)];

		memcpy(dir, rt->opt.output, sizeof(dir));
		if (PMPI_Bcast(dir, (int)sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
			return;
		dir[sizeof(dir) - 1] = 0;
		if (!strcmp(dir, rt->opt.output) || (mkdir(dir, 0777) && errno != EEXIST))
			return;
		rmdir(rt->opt.output);
		memcpy(rt->opt.output, dir, sizeof(dir));
		return;
	}
	h[0] = hash_str(rt->opt.output);
	h[1] = ~h[0];
	if (PMPI_Allreduce(h, max, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS &&
	    rank == 0 && max[0] != ~max[1])
		rt_notice(rt, "ranks write to different experiment directories (CPPERF_OUTPUT differs); "
			  "rank 0 writes to %s", rt->opt.output);
}

void pmpi_init_done(struct pmpi_call *c)
{
	struct rt_state *rt = rt_current();
	char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int rank = 0, size = 1, len = 0;

	(void)c;
	if (!rt)
		return;	/* this process is not profiled: wrappers only pass on */
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	rt->prof.rank = rank;
	rt->prof.size = size;
	if (PMPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
		lib[strcspn(lib, "\r\n")] = 0;
		for (char *t = lib; *t; t++)
			*t = *t == '\t' ? ' ' : *t;	/* MPICH: "MPICH Version:\t4.0.2" */
		len = (int)strlen(lib);
		while (len > 0 && (lib[len - 1] == ' ' || lib[len - 1] == ','))
			lib[--len] = 0;
		free(rt->prof.mpi_library);
		rt->prof.mpi_library = strdup(lib);
	}
	agree_output(rt, rank);
	pmpi_pb_start(rt->opt.piggyback, rank);
	pmpi_activate(size);
}

void pmpi_abort(void)
{
	rt_finish();
}
