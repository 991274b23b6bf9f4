/*
 * launcher.c - job id and rank from the launcher's environment.  Checked
 * with `mpirun -np 2 env`: Open MPI 4.1 sets OMPI_MCA_ess_base_jobid and
 * PMIX_NAMESPACE (the same number) and OMPI_COMM_WORLD_RANK / PMIX_RANK;
 * MPICH 4.0's hydra sets only PMI_RANK, PMI_SIZE and PMI_FD (no job id);
 * PMIx launchers (srun --mpi=pmix, prterun) set PMIX_NAMESPACE; Slurm sets
 * SLURM_JOB_ID, SLURM_STEP_ID and SLURM_PROCID.  The size: Open MPI's
 * OMPI_COMM_WORLD_SIZE, hydra's PMI_SIZE, Slurm's SLURM_NTASKS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

int launcher_job_id(char *buf, size_t len)
{
	const char *id = getenv("OMPI_MCA_ess_base_jobid");
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");

	if (!id || !*id)
		id = getenv("PMIX_NAMESPACE");
	if (id && *id)
		snprintf(buf, len, "%s", id);
	else if (job && *job)
		snprintf(buf, len, "%s.%s", job, step && *step ? step : "batch");
	else
		return -1;
	for (char *s = buf; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			*s = '_';
	return 0;
}

/* The first of vars[0..n) that is set, as a number; -1 when none is. */
static int first_set(const char *const *vars, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return atoi(v);
	}
	return -1;
}

int launcher_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID" };

	return first_set(vars, sizeof(vars) / sizeof(vars[0]));
}

int launcher_size(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS" };

	return first_set(vars, sizeof(vars) / sizeof(vars[0]));
}
