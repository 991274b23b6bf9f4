/*
 * prog-check.h - whether cpperf-record can start and profile a program:
 * what the kernel and the dynamic loader will make of the file, judged
 * before anything runs.
 *
 * Nothing here prints or exits: a check that fails returns the exit
 * status with a message in err that names the file, what is wrong and
 * what to do.
 */
#ifndef CPPERF_PROG_CHECK_H
#define CPPERF_PROG_CHECK_H

#include <stddef.h>

/* Exit statuses (a shell's for a file it cannot execute; the option
 * errors' for a program that runs but cannot be profiled). */
#define PROG_NOT_EXECUTABLE 126
#define PROG_NOT_FOUND 127
#define PROG_NOT_PROFILABLE 2

/*
 * Whether the runtime can be preloaded into the program at path (prog as
 * the user named it, for messages), as the kernel and the loader would
 * judge it: path must not be a directory or another non-regular file; a
 * script (#!) is judged by its interpreter, which must exist; the program
 * that finally runs must start the dynamic loader (not be statically
 * linked, static-pie included), be of this machine, and not run in the
 * loader's secure-execution mode, which ignores LD_PRELOAD: set-user-ID or
 * set-group-ID to someone the caller is not, or file capabilities for a
 * caller other than root (unless the file system is mounted nosuid or the
 * caller set no_new_privs, which make the kernel ignore them).  A file
 * that cannot be read or is of a format cpperf does not know is left to
 * the exec.  Returns 0, or PROG_NOT_EXECUTABLE / PROG_NOT_PROFILABLE with
 * err.
 */
int prog_check(const char *prog, const char *path, char *err, size_t errlen);

/*
 * The message for path, which the exec or access(2) refused with errno e:
 * strerror(e) and, where the file says why, what was wrong and what to do
 * (not executable, on a noexec file system, a directory).  Returns
 * PROG_NOT_FOUND for ENOENT, else PROG_NOT_EXECUTABLE.
 */
int prog_access_error(const char *path, int e, char *err, size_t errlen);

#endif
