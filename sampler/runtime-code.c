/*
 * runtime-code.c - the runtimes' waits and service threads
 * (runtime-code.h): the tables, and their look-ups.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime-code.h"

/* Modules whose own code, at a sample's leaf, is the runtime's time, not
 * the program's: OpenMP runtimes (GCC's, LLVM's, Intel's) spin at
 * barriers and for work there (their internal functions have no symbols
 * in distributions' builds, so the module decides). */
static const char *const wait_modules[] = { "libgomp.so", "libomp.so", "libiomp5.so" };

/* Functions that wait, matched as prefixes of a frame's name among a
 * sample's innermost WAIT_DEPTH frames. */
static const char *const wait_functions[] = {
	/* libgomp with symbols, LLVM and Intel OpenMP */
	"gomp_barrier_wait", "gomp_team_barrier_wait", "gomp_simple_barrier_wait",
	"gomp_mutex_lock_slow", "gomp_sem_wait_slow", "gomp_ptrlock_get_slow",
	"__kmp_wait", "__kmp_suspend", "__kmp_hyper_barrier", "__kmp_fork_barrier",
	"__kmp_join_barrier", "__kmp_yield",
	/* MPI progress polling: Open MPI, MPICH, UCX, libfabric */
	"opal_progress", "ompi_request_default_wait", "MPID_Progress_wait",
	"MPIDI_CH3I_Progress", "MPIDI_progress_test", "MPIR_Wait", "ucp_worker_progress",
	"uct_worker_progress", "fi_cq_read",
	/* yield loops (glibc's symbol tables name sched_yield __sched_yield) */
	"sched_yield", "__sched_yield", "pthread_yield", "pthread_spin_lock",
};
#define WAIT_DEPTH 6

/* Functions that open a parallel region and run the opening thread's
 * part of it (GCC's and LLVM's OpenMP entry points): under them, the
 * thread works in the region that its team's waits belong to. */
static const char *const fork_functions[] = {
	"GOMP_parallel", "GOMP_teams", "__kmpc_fork_call", "__kmpc_fork_teams",
};

/* Functions of the C library that start a thread and call its entry
 * (main, a pthread's start routine): every call of the thread has the
 * same frames from them outwards.  Names as the symbol tables give them,
 * without a symbol version; only in the C library's module (a program
 * may name a function of its own start_thread), but for the executable's
 * _start. */
static const char *const start_functions[] = {
	"__libc_start_main", "__libc_start_call_main", "start_thread", "clone3", "__clone3",
	"clone", "__clone",
};
#define PROGRAM_START "_start"
/* The C library's module: glibc's libc.so.6 (libc-2.x.so before 2.34). */
static const char *const c_library_modules[] = { "libc.", "libc-" };

/* Modules that start service threads: MPI libraries and what they use
 * (PMIx, libevent, UCX, libfabric, hwloc, CUDA). */
static const char *const service_modules[] = {
	"libmpi", "libopen-pal", "libopen-rte", "libpmix", "mca_", "libmpich", "libucs",
	"libucp", "libuct", "libfabric", "libevent", "libhwloc", "libcuda", "libpsm",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { KIND_UNKNOWN, KIND_WORK, KIND_WAIT_MODULE, KIND_WAIT_FUNCTION, KIND_FORK, KIND_START };

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool has_prefix(const char *s, const char *const *table, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(s, table[i], strlen(table[i])))
			return true;
	return false;
}

/* Whether s, up to a symbol version ("@@GLIBC_2.34"), is in table. */
static bool named_in(const char *s, const char *const *table, size_t n)
{
	size_t len = strcspn(s, "@");

	for (size_t i = 0; i < n; i++)
		if (strlen(table[i]) == len && !strncmp(s, table[i], len))
			return true;
	return false;
}

/* Whether frame f lies in a module whose file name begins as one in table. */
static bool in_module(const struct symtab *st, const struct sym_frame *f,
		      const char *const *table, size_t n)
{
	return f->module != SYMTAB_NO_MODULE && f->module < st->nmodules &&
	       has_prefix(base_name(st->modules[f->module].path), table, n);
}

static uint8_t frame_kind(const struct symtab *st, uint32_t id)
{
	const struct sym_frame *f = &st->frames[id];

	if (!strcmp(f->function, PROGRAM_START) ||
	    (named_in(f->function, start_functions, COUNT(start_functions)) &&
	     in_module(st, f, c_library_modules, COUNT(c_library_modules))))
		return KIND_START;

	if (has_prefix(f->function, wait_functions, COUNT(wait_functions)))
		return KIND_WAIT_FUNCTION;
	if (has_prefix(f->function, fork_functions, COUNT(fork_functions)))
		return KIND_FORK;
	if (in_module(st, f, wait_modules, COUNT(wait_modules)))
		return KIND_WAIT_MODULE;
	return KIND_WORK;
}

/* The kind of frame id, looked up once; KIND_WORK when memory is short. */
static uint8_t kind_of(struct wait_frames *w, const struct symtab *st, uint32_t id)
{
	if (id >= st->nframes)
		return KIND_WORK;
	if (id >= w->cap) {
		uint32_t cap = w->cap ? w->cap : 1024;
		uint8_t *k;

		while (cap <= id)
			cap *= 2;
		if (!(k = realloc(w->kind, cap)))
			return frame_kind(st, id);
		memset(k + w->cap, KIND_UNKNOWN, cap - w->cap);
		w->kind = k;
		w->cap = cap;
	}
	if (w->kind[id] == KIND_UNKNOWN)
		w->kind[id] = frame_kind(st, id);
	return w->kind[id];
}

bool wait_path(struct wait_frames *w, const struct symtab *st, const uint32_t *frames, int n)
{
	if (n <= 0)
		return false;
	if (kind_of(w, st, frames[n - 1]) == KIND_WAIT_MODULE)
		return true;
	for (int i = n - 1; i >= 0 && i >= n - WAIT_DEPTH; i--)
		if (kind_of(w, st, frames[i]) == KIND_WAIT_FUNCTION)
			return true;
	return false;
}

int region_frame(struct wait_frames *w, const struct symtab *st, const uint32_t *frames, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (kind_of(w, st, frames[i]) == KIND_FORK)
			return i;
	return -1;
}

bool start_frame(struct wait_frames *w, const struct symtab *st, uint32_t id)
{
	return kind_of(w, st, id) == KIND_START;
}

void wait_frames_release(struct wait_frames *w)
{
	free(w->kind);
	w->kind = NULL;
	w->cap = 0;
}

bool service_thread_creator(const void *creator)
{
	Dl_info info;

	if (!creator || !dladdr(creator, &info) || !info.dli_fname)
		return false;
	return has_prefix(base_name(info.dli_fname), service_modules, COUNT(service_modules));
}
