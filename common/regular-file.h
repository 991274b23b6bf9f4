/*
 * regular-file.h - open a file of an experiment for reading only when it
 * is a regular file (regular-file.c).
 */
#ifndef CPPERF_REGULAR_FILE_H
#define CPPERF_REGULAR_FILE_H

#include <stddef.h>

/*
 * Open path read-only (close-on-exec) when it is a regular file, whatever
 * a symlink points to; never blocks, even on a FIFO or a device.  Returns
 * the descriptor (in blocking mode), or -1 with errno set and a message
 * naming path in err: "cannot open PATH: ERROR", or "PATH: a FIFO, not a
 * regular file; cpperf reads only regular files" (errno EINVAL).
 */
int regfile_open(const char *path, char *err, size_t errlen);

#endif
