/*
 * regular-file.c - regfile_open(): an experiment directory is written by
 * others, and any name in it may be a FIFO, a device or a socket, or a
 * symlink to one.  Opening a FIFO for reading waits for a writer, and
 * reading a device may never end, so the file is opened without blocking
 * and checked with fstat (the object opened, not the name) before a byte
 * is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "regular-file.h"

/* What st is, as a phrase for a message. */
static const char *kind_of(const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	return "an unknown kind of file";
}

/* See regular-file.h. */
int regfile_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags, e;
	struct stat st;

	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0 || (flags = fcntl(fd, F_GETFL)) < 0 ||
	    (S_ISREG(st.st_mode) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)) {
		e = errno;
		close(fd);
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: %s, not a regular file; cpperf reads only regular files",
			 path, kind_of(&st));
		errno = EINVAL;
		return -1;
	}
	return fd;
}
