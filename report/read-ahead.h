/*
 * read-ahead.h - profiles read on several threads, used in file order
 * (read-ahead.c).
 */
#ifndef CPPERF_REPORT_READ_AHEAD_H
#define CPPERF_REPORT_READ_AHEAD_H

#include <stddef.h>
#include "../common/profile.h"

/* Take profile p, read from path; returns 0 or -1 with a message in err.
 * p is released by the caller afterwards. */
typedef int (*read_ahead_use)(void *arg, struct profile *p, const char *path,
			      char *err, size_t errlen);

/*
 * Read paths[0..n) with as many threads as there are CPUs (8 at most) and
 * call use on this thread for each, in order.  Stops at the first file that
 * cannot be read (err names it, as profile_read says) or the first use
 * that fails.  At most two profiles per thread wait in memory.  Returns 0
 * or -1.
 */
int read_ahead(const char *const *paths, size_t n, read_ahead_use use, void *arg,
	       char *err, size_t errlen);

#endif
