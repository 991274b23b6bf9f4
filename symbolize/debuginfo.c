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

int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name)
{
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);

	if (fd >= 0 || !file_name || !debuglink_file)
		return fd;
	return find_by_debuglink(file_name, debuglink_file, debuglink_crc, debuginfo_file_name);
}
