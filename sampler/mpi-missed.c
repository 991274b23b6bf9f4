/*
 * mpi-missed.c - a program that loaded an MPI library under a runtime
 * without wrappers for it: one it loaded while it ran (with dlopen, as a
 * Python module does), or the one a program it exec'd links.
 * cpperf-record chose the runtime from the libraries the program it
 * started links, so these MPI calls went to MPI unseen.  Said once, at
 * the end of a complete run, with what to set.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi-libs.h"
#include "rt.h"

/* A loaded MPI library: which MPI, its file name. */
struct found {
	enum mpi_lib mpi;
	const char *name;
};

/* dl_iterate_phdr's step: the MPI of a loaded object's file name. */
static int find_mpi(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = strrchr(info->dlpi_name, '/');
	struct found *f = data;

	(void)size;
	f->name = base ? base + 1 : info->dlpi_name;
	f->mpi = mpi_lib_of(f->name);
	return f->mpi != MPI_LIB_NONE;
}

/* Whether MPI_Init, as the program calls it, is this library's wrapper. */
static bool wrapped_here(const Dl_info *self)
{
	void *init = dlsym(RTLD_DEFAULT, "MPI_Init");
	Dl_info it;

	return init && dladdr(init, &it) && it.dli_fbase == self->dli_fbase;
}

/* Whether mpi's runtime lies beside this one: else cpperf-record said at
 * the start that it was not built, and CPPERF_MPI would not help. */
static bool runtime_beside(const Dl_info *self, enum mpi_lib mpi)
{
	const char *slash = strrchr(self->dli_fname, '/');
	char path[4096];

	snprintf(path, sizeof(path), "%.*s%s", slash ? (int)(slash - self->dli_fname + 1) : 0,
		 self->dli_fname, mpi_libs[mpi].runtime);
	return access(path, R_OK) == 0;
}

void rt_mpi_missed_notice(const struct rt_state *rt)
{
	struct found f = { MPI_LIB_NONE, NULL };
	Dl_info self;

	/* CPPERF_MPI: the runtime was the user's choice */
	if (getenv("CPPERF_MPI") || !dladdr((void *)rt_mpi_missed_notice, &self) ||
	    wrapped_here(&self))
		return;
	dl_iterate_phdr(find_mpi, &f);
	if (f.mpi != MPI_LIB_NONE && runtime_beside(&self, f.mpi))
		rt_notice(rt, "the program loaded %s (%s), which cpperf-record did not find among "
			  "the libraries it links: its MPI calls were not profiled; run it with "
			  "CPPERF_MPI=%s", mpi_libs[f.mpi].title, f.name, mpi_libs[f.mpi].name);
}
