/*
 * init.c - MPI start-up and end as the profile sees them: rank, size and
 * library at MPI_Init, one experiment directory and one run identity for
 * all ranks, the MPI region (exit of MPI_Init to entry of MPI_Finalize, in
 * which the report measures wall, CPU and MPI time), and the final
 * profile written before MPI_Abort ends the process.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/hash.h"
#include "call.h"
#include "compensate.h"
#include "datatypes.h"
#include "freed.h"
#include "graph.h"
#include "init.h"
#include "status.h"
#include "critpath.h"
#include "cp-fold.h"
#include "piggyback.h"
#include "reduce.h"
#include "stats.h"
#include "wrap-types.h"

/* What the MPI layer adds to the runtime, from MPI_Init on. */
static const struct rt_hooks hooks = {
	.fill_profile = pmpi_fill_profile,
	.resolve = pmpi_resolve_paths,
	.sample = pmpi_cp_sample,
	.tagged = pmpi_graph_sample,
	.published = pmpi_comp_published,
};

/* The MPI region: set by the thread that calls MPI_Init, then MPI_Finalize;
 * read when the profile is written. */
static struct {
	uint64_t start, end;	/* CLOCK_MONOTONIC ns; end 0 before MPI_Finalize */
	uint64_t cpu_start, cpu_end;	/* process CPU time ns */
	atomic_bool started, ended;
} region;



/*
 * cpperf-record chose a directory of this process's own when it saw no
 * launcher job id (CPPERF_OUTPUT_AGREE=1): take rank 0's instead and
 * remove ours.  Otherwise only check that every rank writes to the same
 * place and say so once if not.
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
		if (!strcmp(dir, rt->opt.output))
			return;
		if (mkdir(dir, opt_dir_mode(&rt->opt)) == 0)
			(void)chmod(dir, opt_dir_mode(&rt->opt));	/* whatever the umask */
		else if (errno != EEXIST)
			return;
		rt_move_output(rt, dir);
		return;
	}
	h[0] = hash_str(rt->opt.output);
	h[1] = ~h[0];
	if (PMPI_Allreduce(h, max, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS &&
	    rank == 0 && max[0] != ~max[1])
		rt_notice(rt, "ranks write to different experiment directories (CPPERF_OUTPUT differs); "
			  "rank 0 writes to %s", rt->opt.output);
}

/* Every rank takes rank 0's run identity: the same already when the
 * launcher gave a job id, each process's own otherwise (MPICH's hydra). */
static void agree_run(struct rt_state *rt)
{
	char run[128] = "";

	snprintf(run, sizeof(run), "%s", rt->prof.run ? rt->prof.run : "");
	if (PMPI_Bcast(run, (int)sizeof(run), MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		return;
	run[sizeof(run) - 1] = 0;
	free(rt->prof.run);
	rt->prof.run = strdup(run);
}

/* Rank, size and library into the profile, which a checkpoint may be
 * writing on the drain thread. */
static void set_identity(struct rt_state *rt, int rank, int size)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int len = 0;

	if (PMPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
		lib[strcspn(lib, "\r\n")] = 0;
		for (char *t = lib; *t; t++)
			*t = *t == '\t' ? ' ' : *t;	/* MPICH: "MPICH Version:\t4.0.2" */
		len = (int)strlen(lib);
		while (len > 0 && (lib[len - 1] == ' ' || lib[len - 1] == ','))
			lib[--len] = 0;
	}
	rt_lock(&rt->agg_lock);
	rt->prof.rank = rank;
	rt->prof.size = size;
	free(rt->prof.mpi_library);
	rt->prof.mpi_library = strdup(lib);
	agree_run(rt);
	rt_unlock(&rt->agg_lock);
}

void pmpi_init_done(struct pmpi_call *c)
{
	struct rt_state *rt = rt_current();
	int rank = 0, size = 1;

	(void)c;
	if (!rt)
		return;	/* this process is not profiled: wrappers only pass on */
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	set_identity(rt, rank, size);
	rt_set_hooks(rt, &hooks);
	agree_output(rt, rank);
	if (rt->opt.merge == MERGE_MPI)
		pmpi_reduce_open();
	pmpi_types_start();
	pmpi_status_start();
	pmpi_pb_start(rt->opt.piggyback, rank, size, rt);
	pmpi_calls_start(size);
}

/* The MPI region starts where the program's MPI_Init returns: after the
 * tool's own start (its calibration and barrier, tens of ms), which the
 * program does not see as its own time. */
void pmpi_region_start(void)
{
	region.cpu_start = rt_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	region.start = rt_now_ns();
	atomic_store(&region.started, true);
}

/* The MPI region ends at the entry of MPI_Finalize. */
static void region_end(void)
{
	if (!atomic_load(&region.started) || atomic_load(&region.ended))
		return;
	region.end = rt_now_ns();
	region.cpu_end = rt_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	atomic_store(&region.ended, true);
}

void pmpi_finalize_enter(void)
{
	region_end();
	pmpi_freed_at_finalize();
	pmpi_pb_finalize();
	pmpi_cpfold_end();
	pmpi_cpfold_close();
	pmpi_pb_coll_stop();
	pmpi_x_allreduce_stop();
	pmpi_reduce_at_finalize();
	pmpi_wrap_types_release();
}

bool pmpi_region_fill(struct profile *p)
{
	bool ended = atomic_load(&region.ended);

	if (!atomic_load(&region.started))
		return true;
	p->mpi_wall_ns = (ended ? region.end : rt_now_ns()) - region.start;
	p->mpi_cpu_ns = (ended ? region.cpu_end : rt_clock_ns(CLOCK_PROCESS_CPUTIME_ID)) - region.cpu_start;
	return ended;
}

void pmpi_abort(int errorcode)
{
	char reason[64];

	snprintf(reason, sizeof(reason), "MPI_Abort(%d)", errorcode);
	rt_finish(reason);
}
