/*
 * read-ahead.h - profiles read on several threads, used in file order
 * (read-ahead.c).
 */
#ifndef CPPERF_REPORT_READ_AHEAD_H
#define CPPERF_REPORT_READ_AHEAD_H

#include <stddef.h>
#include "../common/profile.h"

/* What read_ahead does with each profile. */
struct read_ahead_ops {
	/* On a reading thread, right after p is read (may be NULL): work that
	 * needs p alone, on p or with its result in *extra.  Returns 0, or -1 with a
	 * message in err. */
	int (*prep)(struct profile *p, void **extra, char *err, size_t errlen);
	/* On the calling thread, in file order: take profile p, read from
	 * path, and prep's extra, which use owns from then on.  Returns 0 or
	 * -1 with a message in err.  p is released by read_ahead afterwards. */
	int (*use)(void *arg, struct profile *p, void *extra, const char *path,
		   char *err, size_t errlen);
	/* Free an extra that use never took (may be NULL if prep is). */
	void (*drop)(void *extra);
};

/*
 * Read paths[0..n) with as many threads as there are CPUs (8 at most) and
 * call ops->use on this thread for each, in order, with arg.  Stops at the
 * first file that cannot be read (err names it, as profile_read says) or
 * the first use that fails.  At most 8 profiles per thread are read
 * ahead of the one in use.
 * Returns 0 or -1.
 */
int read_ahead(const char *const *paths, size_t n, const struct read_ahead_ops *ops, void *arg,
	       char *err, size_t errlen);

#endif
