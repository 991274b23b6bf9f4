/*
 * launcher.c - job id, rank and size from the launcher's environment,
 * from one table: a launcher is a row (checked with `mpirun -np 2 env`
 * and `srun env`).  The first row whose variable is set gives each fact,
 * so a launcher that sets another's variables too (srun --mpi=pmix sets
 * PMIx's; Open MPI's mpirun sets PMIx's as well) is read as the earlier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

static const struct launcher {
	const char *job;	/* the launch's id, NULL when it sets none */
	const char *step;	/* a part of the job (Slurm's step), NULL: none */
	const char *rank, *size;	/* NULL when it sets none */
} launchers[] = {
	/* Open MPI 4.1's mpirun */
	{ "OMPI_MCA_ess_base_jobid", NULL, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
	/* PMIx launchers (prterun, srun --mpi=pmix) */
	{ "PMIX_NAMESPACE", NULL, "PMIX_RANK", NULL },
	/* MPICH 4.0's hydra (and PMI-2 launchers): no job id */
	{ NULL, NULL, "PMI_RANK", "PMI_SIZE" },
	/* Slurm's srun */
	{ "SLURM_JOB_ID", "SLURM_STEP_ID", "SLURM_PROCID", "SLURM_NTASKS" },
};
#define NLAUNCHERS (sizeof(launchers) / sizeof(launchers[0]))

/* The value of variable name when it is set and not empty, else NULL. */
static const char *set(const char *name)
{
	const char *v = name ? getenv(name) : NULL;

	return v && *v ? v : NULL;
}

int launcher_job_id(char *buf, size_t len)
{
	const struct launcher *l = NULL;

	for (size_t i = 0; i < NLAUNCHERS && !l; i++)
		if (set(launchers[i].job))
			l = &launchers[i];
	if (!l)
		return -1;
	if (l->step)	/* a job's steps are launches of their own */
		snprintf(buf, len, "%s.%s", set(l->job), set(l->step) ? set(l->step) : "batch");
	else
		snprintf(buf, len, "%s", set(l->job));
	for (char *s = buf; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			*s = '_';
	return 0;
}

/* The first row's variable at offset `field` that is set, as a number;
 * -1 when none is. */
static int first_number(size_t field)
{
	for (size_t i = 0; i < NLAUNCHERS; i++) {
		const char *v = set(*(const char *const *)((const char *)&launchers[i] + field));

		if (v)
			return atoi(v);
	}
	return -1;
}

int launcher_rank(void)
{
	return first_number(offsetof(struct launcher, rank));
}

int launcher_size(void)
{
	return first_number(offsetof(struct launcher, size));
}
