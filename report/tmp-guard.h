/*
 * tmp-guard.h - remove a command's temporary file when SIGINT, SIGTERM or
 * SIGHUP ends it (tmp-guard.c), so that an interrupted `cpperf report -o
 * FILE` or `cpperf merge` leaves nothing behind.
 */
#ifndef CPPERF_REPORT_TMP_GUARD_H
#define CPPERF_REPORT_TMP_GUARD_H

/*
 * Until tmp_guard_disarm, SIGINT, SIGTERM and SIGHUP unlink path, then
 * end the process as they would have (the default disposition restored,
 * the signal raised again).  A signal the process ignores (nohup) stays
 * ignored.  One path at a time: arming again replaces it.  A path longer
 * than PATH_MAX - 1, which no open accepts, is not guarded.  Cannot fail.
 */
void tmp_guard_arm(const char *path);
/* Forget the path and give the three signals back the dispositions
 * tmp_guard_arm found.  Cannot fail. */
void tmp_guard_disarm(void);

#endif
