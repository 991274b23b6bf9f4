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

/* The error of opening path (errno e) into err, and into errno.  Returns
 * -1. */
static int open_failed(const char *path, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
	errno = e;
	return -1;
}

/* Refuse path, which is st (closing fd when it is open).  Returns -1. */
static int not_regular(const char *path, int fd, const struct stat *st, char *err,
		       size_t errlen)
{
	if (fd >= 0)
		close(fd);
	snprintf(err, errlen, "%s: %s, not a regular file; cpperf reads only regular files",
		 path, kind_of(st));
	errno = EINVAL;
	return -1;
}

/* See regular-file.h.  A socket cannot be opened at all (ENXIO): stat
 * then says what the name is. */
int regfile_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags, e;
	struct stat st;

	if (fd < 0) {
		e = errno;
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return not_regular(path, -1, &st, err, errlen);
		return open_failed(path, e, err, errlen);
	}
	if (fstat(fd, &st) < 0 || (flags = fcntl(fd, F_GETFL)) < 0) {
		e = errno;
		close(fd);
		return open_failed(path, e, err, errlen);
	}
	if (!S_ISREG(st.st_mode))
		return not_regular(path, fd, &st, err, errlen);
	if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		e = errno;
		close(fd);
		return open_failed(path, e, err, errlen);
	}
	return fd;
}
