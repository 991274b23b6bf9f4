/*
 * mpi-missed.c - a program that loaded an MPI library under a runtime
 * without wrappers for it: one it loaded while it ran (with dlopen, as a
 * Python module does), or the one a program it exec'd links.
 * cpperf-record chose the runtime from the libraries the program it
 * started links, so these MPI calls went to MPI unseen.  Said once, at
 * the end of a complete run, with what to set.  /proc/self/maps tells
 * both which runtime this is and which libraries are mapped: the
 * loader's own functions (dladdr, dl_iterate_phdr) would wait for its
 * lock, which a thread of the program may hold as the process ends.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi-libs.h"
#include "rt.h"

/* What the mappings say: the file of this runtime, and the first MPI
 * library's. */
struct mapped {
	char own[PATH_MAX];
	enum mpi_lib mpi;
	char mpi_file[256];
};

static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* One line of /proc/self/maps into m; self is an address of this runtime.
 * A line longer than the buffer comes in pieces, which match nothing. */
static void take_mapping(const char *line, uintptr_t self, struct mapped *m)
{
	unsigned long lo, hi;
	int at = 0;
	const char *path;

	if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &at) < 2 || !at || line[at] != '/')
		return;
	path = line + at;
	if (self >= lo && self < hi)
		snprintf(m->own, sizeof(m->own), "%.*s", (int)strcspn(path, "\n"), path);
	if (m->mpi == MPI_LIB_NONE) {
		snprintf(m->mpi_file, sizeof(m->mpi_file), "%.*s",
			 (int)strcspn(file_name(path), "\n"), file_name(path));
		m->mpi = mpi_lib_of(m->mpi_file);
	}
}

static void read_mappings(uintptr_t self, struct mapped *m)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 128];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		take_mapping(line, self, m);
	fclose(f);
}

/* Whether this runtime, file own, has wrappers for some MPI. */
static bool wraps_mpi(const char *own)
{
	for (int i = MPI_LIB_NONE + 1; i < MPI_LIB_COUNT; i++)
		if (!strcmp(file_name(own), mpi_libs[i].runtime))
			return true;
	return false;
}

/* Whether mpi's runtime lies beside this one, file own: else
 * cpperf-record said at the start that it was not built, and CPPERF_MPI
 * would not help. */
static bool runtime_beside(const char *own, enum mpi_lib mpi)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%.*s%s", (int)(file_name(own) - own), own, mpi_libs[mpi].runtime);
	return access(path, R_OK) == 0;
}

void rt_mpi_missed_notice(const struct rt_state *rt)
{
	struct mapped m = { .mpi = MPI_LIB_NONE };

	/* CPPERF_MPI: the runtime was the user's choice */
	if (getenv("CPPERF_MPI"))
		return;
	read_mappings((uintptr_t)rt_mpi_missed_notice, &m);
	if (m.own[0] && !wraps_mpi(m.own) && m.mpi != MPI_LIB_NONE && runtime_beside(m.own, m.mpi))
		rt_notice(rt, "the program loaded %s (%s), which cpperf-record did not find among "
			  "the libraries it links: its MPI calls were not profiled; run it with "
			  "CPPERF_MPI=%s", mpi_libs[m.mpi].title, m.mpi_file, mpi_libs[m.mpi].name);
}
