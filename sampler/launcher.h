/*
 * launcher.h - what cpperf-record and the runtime learn from the
 * environment an MPI launcher (Open MPI's mpirun, MPICH's hydra, Slurm's
 * srun) gives each rank.
 */
#ifndef CPPERF_LAUNCHER_H
#define CPPERF_LAUNCHER_H

#include <stddef.h>

/* Write an id shared by all ranks of one launch into buf (only characters
 * safe in a file name) and return 0; -1 when the launcher sets none (MPICH
 * hydra) or there is no launcher. */
int launcher_job_id(char *buf, size_t len);

/* This process's rank as the launcher numbers it, and the number of
 * ranks; -1 when not launched by one. */
int launcher_rank(void);
int launcher_size(void);

#endif
