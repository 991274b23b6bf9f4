/*
 * prog-check.c - whether cpperf-record can start and profile a program
 * (prog-check.h), judged from the file before anything runs.
 *
 * The runtime reaches a program through LD_PRELOAD, which only the
 * dynamic loader reads: a statically linked program never runs the loader,
 * and the loader ignores the variable in secure-execution mode (AT_SECURE),
 * which the kernel sets when an exec changes the process's user or group
 * (set-user-ID, set-group-ID) or gives it capabilities.  Either way the
 * program would run unprofiled and leave an empty experiment, so they are
 * refused, naming what to do.  A script runs its interpreter (#!), so the
 * interpreter is judged, up to the kernel's four levels of nesting; the
 * set-user-ID and set-group-ID bits of a script itself are ignored by the
 * kernel, and so here.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "elf-needed.h"
#include "prog-check.h"

#define MAX_NESTED_INTERP 4	/* #! interpreters the kernel follows */
#define SHEBANG_MAX 256		/* bytes of a #! line the kernel reads */

/* The interpreter named by the #! line of file into interp; false when
 * the file is no script (or its line names none) or cannot be read. */
static bool script_interp(const char *file, char *interp, size_t len)
{
	char line[SHEBANG_MAX + 1];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, line, SHEBANG_MAX) : -1;
	size_t start, end;

	if (fd >= 0)
		close(fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return false;
	line[n] = 0;
	start = 2 + strspn(line + 2, " \t");
	end = start + strcspn(line + start, " \t\n");
	if (end == start || end - start >= len)
		return false;
	memcpy(interp, line + start, end - start);
	interp[end - start] = 0;
	return true;
}

/* Whether file has file capabilities that an exec by a caller other than
 * root would gain (effective, or permitted ones). */
static bool gains_capabilities(const char *file)
{
	struct vfs_ns_cap_data caps;
	ssize_t n = getxattr(file, "security.capability", &caps, sizeof(caps));

	if (n < (ssize_t)XATTR_CAPS_SZ_1)
		return false;
	if (le32toh(caps.magic_etc) & VFS_CAP_FLAGS_EFFECTIVE)
		return true;
	return caps.data[0].permitted || (n >= (ssize_t)XATTR_CAPS_SZ_2 && caps.data[1].permitted);
}

/* The name of user (or group, when group) id, else its number, into buf. */
static const char *id_name(bool group, unsigned id, char *buf, size_t len)
{
	struct passwd *pw = group ? NULL : getpwuid((uid_t)id);
	struct group *gr = group ? getgrgid((gid_t)id) : NULL;

	if (pw || gr)
		snprintf(buf, len, "%s", pw ? pw->pw_name : gr->gr_name);
	else
		snprintf(buf, len, "%u", id);
	return buf;
}

/*
 * Whether the kernel would exec the program file (whose stat is sb) in
 * secure-execution mode for this caller; if so, the reason and what to do
 * into err after what (the program as the message names it).  As the
 * kernel: set-user-ID to another user than the caller's real one,
 * set-group-ID (with group execute, else it is no set-group-ID) to
 * another group than its real one, capabilities for a caller who is not
 * root; none of them on a nosuid file system or under no_new_privs.
 */
static bool secure_exec(const char *file, const struct stat *sb, const char *what, char *err,
			size_t errlen)
{
	static const char loader[] = "the dynamic loader ignores LD_PRELOAD for a program that";
	struct statvfs vfs;
	char name[64];

	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ||
	    (statvfs(file, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)))
		return false;
	if ((sb->st_mode & S_ISUID) && sb->st_uid != getuid()) {
		id_name(false, sb->st_uid, name, sizeof(name));
		snprintf(err, errlen, "%s is set-user-ID to %s: %s runs as another user (secure-execution "
			 "mode), so the runtime cannot be preloaded; run cpperf-record as %s, or profile a "
			 "copy of %s without the bit (cp, then chmod u-s)", what, name, loader, name, file);
		return true;
	}
	if ((sb->st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && sb->st_gid != getgid()) {
		id_name(true, sb->st_gid, name, sizeof(name));
		snprintf(err, errlen, "%s is set-group-ID to %s: %s runs as another group (secure-execution "
			 "mode), so the runtime cannot be preloaded; run cpperf-record with %s as your group "
			 "(sg %s), or profile a copy of %s without the bit (cp, then chmod g-s)", what, name,
			 loader, name, name, file);
		return true;
	}
	if (getuid() != 0 && gains_capabilities(file)) {
		snprintf(err, errlen, "%s has file capabilities (getcap %s): %s gains privileges "
			 "(secure-execution mode), so the runtime cannot be preloaded; run cpperf-record as "
			 "root, or profile a copy without them (cp drops them)", what, file, loader);
		return true;
	}
	return false;
}

/* Whether the ELF program at file (a script's interpreter when interp)
 * can be preloaded; if not, why and what to do into err after what. */
static bool elf_refused(const char *file, bool interp, const char *what, char *err, size_t errlen)
{
	struct elf_facts f;

	if (elf_inspect(file, &f) || !f.elf)
		return false;
	if (!f.native) {
		if (f.is32)
			snprintf(err, errlen, "%s is a 32-bit program: the runtime, built for this machine's "
				 "64-bit programs, cannot be preloaded into it; profile it with a profiler "
				 "for 32-bit programs (perf record)", what);
		else
			snprintf(err, errlen, "%s is a program for another machine (ELF machine %u): the "
				 "runtime cannot be preloaded into it; profile it on its own machine", what,
				 f.machine);
		return true;
	}
	if (elf_is_static(&f)) {
		snprintf(err, errlen, "%s is statically linked%s: the runtime cannot be preloaded "
			 "(LD_PRELOAD is read by the dynamic loader, which a static program never runs); %s",
			 what, f.exec_type ? "" : " (static-pie)",
			 interp ? "name a dynamically linked interpreter in the script's #! line" :
			 f.exec_type ? "link it without -static, or profile it with perf record" :
			 "link it without -static-pie, or profile it with perf record");
		return true;
	}
	return false;
}

int prog_check(const char *prog, const char *path, char *err, size_t errlen)
{
	char file[PATH_MAX], interp[PATH_MAX], what[2 * PATH_MAX + 64];
	struct stat sb;
	int depth;

	snprintf(file, sizeof(file), "%s", path);
	snprintf(what, sizeof(what), "%s", prog);
	for (depth = 0;; depth++) {
		if (depth && (stat(file, &sb) || (!S_ISDIR(sb.st_mode) && access(file, X_OK)))) {
			int e = errno;

			snprintf(err, errlen, "%s: bad interpreter %s (its #! line): %s; install it, or "
				 "correct the #! line", prog, file, strerror(e));
			return e == ENOENT ? PROG_NOT_FOUND : PROG_NOT_EXECUTABLE;
		}
		if (!depth && stat(file, &sb))
			return 0;	/* the exec says why */
		if (!S_ISREG(sb.st_mode)) {
			snprintf(err, errlen, "%s is %s, not a program; give the path of the program to run",
				 what, S_ISDIR(sb.st_mode) ? "a directory" :
				 "not a regular file (a device, FIFO or socket)");
			return PROG_NOT_EXECUTABLE;
		}
		if (depth == MAX_NESTED_INTERP || !script_interp(file, interp, sizeof(interp)))
			break;	/* a program, or execute-only: judged by its mode alone */
		snprintf(file, sizeof(file), "%s", interp);
		snprintf(what, sizeof(what), "%s's interpreter %s", prog, interp);
	}
	if (elf_refused(file, depth > 0, what, err, errlen) || secure_exec(file, &sb, what, err, errlen))
		return PROG_NOT_PROFILABLE;
	return 0;
}

int prog_access_error(const char *path, int e, char *err, size_t errlen)
{
	struct stat sb;
	struct statvfs vfs;
	int n = snprintf(err, errlen, "%s: %s", path, strerror(e));
	size_t at = n < 0 ? 0 : (size_t)n < errlen ? (size_t)n : errlen - 1;

	if (e == ENOENT) {
		snprintf(err + at, errlen - at, "; check the program's path");
		return PROG_NOT_FOUND;
	}
	if (e == ENOEXEC)
		snprintf(err + at, errlen - at, ": neither a program of this machine nor a script whose "
			 "first line names its interpreter; add one (#!/bin/sh), or give the interpreter "
			 "as the program (sh %s)", path);
	else if (e != EACCES || stat(path, &sb))
		;	/* the reason is all there is to say */
	else if (S_ISDIR(sb.st_mode))
		snprintf(err + at, errlen - at, ": a directory, not a program; give the path of the "
			 "program to run");
	else if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NOEXEC))
		snprintf(err + at, errlen - at, ": its file system is mounted noexec; copy it to one "
			 "that lets programs run");
	else if (S_ISREG(sb.st_mode))
		snprintf(err + at, errlen - at, ": not executable (mode %04o); make it executable "
			 "(chmod +x %s), or give its interpreter as the program (sh %s)",
			 (unsigned)(sb.st_mode & 07777), path, path);
	return PROG_NOT_EXECUTABLE;
}
