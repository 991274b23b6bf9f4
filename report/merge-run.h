/*
 * merge-run.h - a run's ranks' files merged into one merged profile after
 * the run (merge-run.c), as `cpperf-record --merge=mpi` merges them at
 * MPI_Finalize.
 */
#ifndef CPPERF_REPORT_MERGE_RUN_H
#define CPPERF_REPORT_MERGE_RUN_H

#include <stddef.h>
#include "../common/profile.h"

/*
 * Read the ranks' files of one run of dir (run, or the newest) and merge
 * them into out, which this function initialises: a merged profile
 * (docs/format.md "Merged profiles").  Every file must be a whole MPI
 * rank's profile.  Returns 0, or -1 with a message naming the file that
 * cannot be merged; out is then released.
 */
int merge_run(const char *dir, const char *run, struct profile *out, char *err, size_t errlen);

#endif
