/*
 * outfile.h - -o FILE written atomically (outfile.c).
 */
#ifndef CPPERF_REPORT_OUTFILE_H
#define CPPERF_REPORT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;		/* where to write */
	char *path;		/* NULL for stdout */
	char *tmp;		/* temporary name beside path */
};

/* Open path for writing through a temporary file in the same directory
 * (NULL or "-" means stdout), which SIGINT, SIGTERM and SIGHUP remove
 * until of_commit or of_abort (tmp_guard_arm).  Returns 0, or -1 with a
 * message naming path. */
int of_open(struct outfile *o, const char *path, char *err, size_t errlen);
/* Flush, close and rename into place.  Returns 0, or -1 with a message (the
 * temporary is then removed). */
int of_commit(struct outfile *o, char *err, size_t errlen);
/* Drop the output: close and remove the temporary. */
void of_abort(struct outfile *o);

#endif
