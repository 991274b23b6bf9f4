/*
 * outfile.c - `-o FILE`: write the report beside FILE under a temporary
 * name and rename it into place, so FILE is either the old file or the
 * whole new report, never half of one.  The temporary is created before
 * the experiment is read, so an unwritable -o fails fast, and it is
 * removed however the command ends: by a failure, or by SIGINT, SIGTERM
 * or SIGHUP while it exists (tmp-guard.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outfile.h"
#include "tmp-guard.h"

int of_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	size_t n = strlen(path) + 32;
	int fd = -1;

	o->path = strdup(path);
	o->tmp = malloc(n);
	if (!o->path || !o->tmp) {
		of_abort(o);
		snprintf(err, errlen, "-o %s: out of memory", path);
		return -1;
	}
	/* A name no one else uses: pid plus a counter, created exclusively. */
	for (int i = 0; fd < 0 && i < 100; i++) {
		snprintf(o->tmp, n, "%s.tmp-%ld-%d", path, (long)getpid(), i);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "-o %s: cannot create the output file: %s",
			 path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		of_abort(o);
		return -1;
	}
	tmp_guard_arm(o->tmp);
	return 0;
}

int of_commit(struct outfile *o, char *err, size_t errlen)
{
	int rc = 0;

	if (!o->path) {
		if (fflush(o->f) != 0 || ferror(o->f)) {
			snprintf(err, errlen, "writing the report to stdout: %s", strerror(errno));
			rc = -1;
		}
		o->f = NULL;
		return rc;
	}
	if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) {
		snprintf(err, errlen, "-o %s: write failed: %s", o->path, strerror(errno));
		rc = -1;
	}
	if (fclose(o->f) != 0 && rc == 0) {
		snprintf(err, errlen, "-o %s: write failed: %s", o->path, strerror(errno));
		rc = -1;
	}
	o->f = NULL;
	if (rc == 0 && rename(o->tmp, o->path) != 0) {
		snprintf(err, errlen, "-o %s: cannot rename %s into place: %s", o->path,
			 o->tmp, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(o->tmp);
	tmp_guard_disarm();
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return rc;
}

void of_abort(struct outfile *o)
{
	if (o->f && o->path)
		fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		tmp_guard_disarm();
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
