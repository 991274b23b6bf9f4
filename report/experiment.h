/*
 * experiment.h - find an experiment directory, read every profile of one run
 * in it and merge them (experiment.c).
 */
#ifndef CPPERF_REPORT_EXPERIMENT_H
#define CPPERF_REPORT_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include "data.h"

/* Find the newest (by mtime) directory named cpperf-* in parent and write its
 * path to out.  Returns 0, or -1 with a message when there is none. */
int exp_find_newest(const char *parent, char *out, size_t outlen,
		    char *err, size_t errlen);

/*
 * Read the *.cpprof files of dir that belong to one run (files whose name
 * starts with '.' are temporaries and skipped) and merge them into d,
 * which this function initialises: run when not NULL, else the newest run
 * (the one whose latest process started last); the other runs are listed
 * in d.  Of two files of one process (its name changed when MPI_Init gave
 * it a rank) the later is read.  Partial profiles, and the ranks of the
 * job that left none, are listed in d too.  When the run left a merged
 * profile (docs/format.md "Merged profiles") only that is read, unless
 * flags has EXP_RANK_FILES.  Returns 0, or -1 with a
 * message naming the directory or the file that is wrong (or the runs
 * there when run is not one of them); d is then released.
 */
#define EXP_RANK_FILES 1u	/* the ranks' files even when a merged profile is there */
int exp_load(struct rep_data *d, const char *dir, const char *run, unsigned flags,
	     char *err, size_t errlen);
/* The paths of the ranks' files of one run of dir (run, or the newest),
 * as exp_load with EXP_RANK_FILES would read them, into *paths (n of
 * them; the caller frees each and the array).  Returns 0, or -1 with a
 * message. */
int exp_run_paths(const char *dir, const char *run, char ***paths, size_t *n,
		  char *err, size_t errlen);
/* Read the one profile at path into d, which this function initialises
 * (a rank's own view).  Returns 0, or -1 with a message; d is then
 * released. */
int exp_load_file(struct rep_data *d, const char *path, char *err, size_t errlen);
/* The same with kept tree k of the merged profile at path (its rank's
 * own view: profile_kept_rank). */
int exp_load_kept(struct rep_data *d, const char *path, uint32_t k, char *err, size_t errlen);
/* Whether some checkpoint of d was written by a process that still runs. */
bool exp_live(const struct rep_data *d);

#endif
