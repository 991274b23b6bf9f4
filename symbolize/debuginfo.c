/*
 * debuginfo.c - where a module's separate debug file is looked for: by
 * build id in the local debug directories (dwfl_build_id_find_debuginfo),
 * then by its .gnu_debuglink name beside the module, in its .debug
 * directory and under /usr/lib/debug, as gdb does.  Never a debuginfod
 * server.
 *
 * libdw's standard search ends, when nothing local is found, in its
 * debuginfod client: elfutils 0.188 then loads libdebuginfod into the
 * process, and with it libcurl, GnuTLS, Kerberos and some twenty more
 * libraries, whatever DEBUGINFOD_URLS says (18-30 ms on the drain thread
 * of every rank, the first time a Debian library such as libmpi is named,
 * and foreign constructors run inside the profiled program).  The
 * runtime lives inside production jobs: it reads only local files.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "../common/owned-fd.h"
#include "internal.h"

/* The CRC-32 of the file open at fd, as .gnu_debuglink records it. */
static bool file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	*crc = (uint32_t)c;
	return n == 0;
}

/* path opened when it exists and its CRC is crc; -1 otherwise. */
static int open_checked(const char *path, uint32_t crc)
{
	uint32_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (!file_crc(fd, &got) || got != crc || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The debuglink file of the module at file_name: beside it, in its .debug
 * directory, then under /usr/lib/debug with the module's directory.  The
 * fd, with a malloc'd path in *found; -1 when none is there. */
static int find_by_debuglink(const char *file_name, const char *link, uint32_t crc, char **found)
{
	const char *slash = strrchr(file_name, '/');
	int dirlen = slash ? (int)(slash - file_name) : 0;
	const char *const fmt[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
	char path[PATH_MAX];

	if (!slash || strchr(link, '/'))
		return -1;
	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		int fd;

		if (snprintf(path, sizeof(path), fmt[i], dirlen, file_name, link) >= (int)sizeof(path) ||
		    !strcmp(path, file_name))
			continue;
		if ((fd = open_checked(path, crc)) >= 0) {
			if (!(*found = strdup(path))) {
				close(fd);
				return -1;
			}
			return fd;
		}
	}
	return -1;
}

/*
 * The descriptors of the debug files handed to libdwfl, which keeps them
 * until the session ends and closes them then (it maps each file whole
 * and reads nothing through them meanwhile).  Moved high and noted, so
 * that the session's end can tell whether the program has taken one
 * (sym_debug_fds_taken).  Touched by the thread that symbolizes (the drain
 * thread, or one folding its own samples, under the runtime's agg_lock)
 * and by the session's end.
 */
static struct owned_fd *debug_fds;
static size_t ndebug_fds, debug_fds_cap;

static int keep_debug_fd(int fd)
{
	struct owned_fd o;

	if (fd < 0 || ofd_keep(&o, fd) < 0)
		return -1;
	if (ndebug_fds == debug_fds_cap) {
		size_t cap = debug_fds_cap ? 2 * debug_fds_cap : 16;
		struct owned_fd *p = realloc(debug_fds, cap * sizeof(*p));

		if (!p) {
			close(o.fd);	/* one debug file less, rather than one unchecked */
			return -1;
		}
		debug_fds = p;
		debug_fds_cap = cap;
	}
	debug_fds[ndebug_fds++] = o;
	return o.fd;
}

bool sym_debug_fds_taken(void)
{
	for (size_t i = 0; i < ndebug_fds; i++)
		if (ofd_taken(&debug_fds[i]))
			return true;
	return false;
}

void sym_debug_fds_forget(void)
{
	free(debug_fds);
	debug_fds = NULL;
	ndebug_fds = debug_fds_cap = 0;
}

int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name)
{
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);

	if (fd < 0 && file_name && debuglink_file)
		fd = find_by_debuglink(file_name, debuglink_file, debuglink_crc, debuginfo_file_name);
	return keep_debug_fd(fd);
}
