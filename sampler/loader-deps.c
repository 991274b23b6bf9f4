/*
 * loader-deps.c - the MPI a program reaches only through the libraries it
 * links, e.g. a solver's library that needs libmpi where the program
 * itself does not (loader-deps.h).  Who resolves the libraries as the
 * program will see them, with its run paths, LD_LIBRARY_PATH and the
 * loader's cache, is the dynamic loader: its --list mode maps them and
 * prints them, and runs no code of theirs nor the program's.  The loader
 * asked is cpperf-record's own, never the one the program names, which
 * may not know the option and start the program instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader-deps.h"

extern char **environ;

/* The listing kept: a program's few hundred libraries fit; what is past
 * it is read and dropped, so the loader never blocks on a full pipe. */
#define LISTING_MAX 65536

/* The name at the start of line l (after its indentation): up to the
 * first blank, the part after its last '/', into name of size n. */
static void line_name(const char *l, char *name, size_t n)
{
	size_t len, base = 0;

	l += strspn(l, " \t");
	len = strcspn(l, " \t\n");
	for (size_t i = 0; i < len; i++)
		if (l[i] == '/')
			base = i + 1;
	len -= base;
	len = len < n - 1 ? len : n - 1;
	memcpy(name, l + base, len);
	name[len] = 0;
}

enum mpi_lib loader_list_mpi(const char *text)
{
	char name[256];
	enum mpi_lib mpi = MPI_LIB_NONE;
	const char *l = text;

	while (mpi == MPI_LIB_NONE && *l) {
		line_name(l, name, sizeof(name));
		mpi = mpi_lib_of(name);
		l += strcspn(l, "\n");
		l += *l == '\n';
	}
	return mpi;
}

/* What the child on fd writes, the first size - 1 bytes into buf (NUL
 * terminated), the rest read and dropped. */
static void read_all(int fd, char *buf, size_t size)
{
	char drop[4096];
	size_t n = 0;
	ssize_t r;

	for (;;) {
		r = n < size - 1 ? read(fd, buf + n, size - 1 - n) : read(fd, drop, sizeof(drop));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (n < size - 1)
			n += (size_t)r;
	}
	buf[n] = 0;
}

/* Run loader --list prog, its output into buf; whether it listed them. */
static bool list_libraries(const char *loader, const char *prog, char *buf, size_t size)
{
	char *argv[] = { (char *)loader, "--list", (char *)prog, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], st = 0, rc;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return false;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, loader, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc == 0)
		read_all(fds[0], buf, size);
	close(fds[0]);
	if (rc)
		return false;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

enum mpi_lib loader_deps_mpi(const char *prog, const struct elf_facts *f)
{
	static char listing[LISTING_MAX];

	if (!f->native || !f->interp || !*elf_own_loader() ||
	    !list_libraries(elf_own_loader(), prog, listing, sizeof(listing)))
		return MPI_LIB_NONE;
	return loader_list_mpi(listing);
}
