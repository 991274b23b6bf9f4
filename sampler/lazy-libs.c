/*
 * lazy-libs.c - libpfm4 and PAPI, opened when an event first needs them.
 *
 * Linked in, both were loaded by cpperf-record and again by every program
 * it launches, though the default event (task-clock) needs neither:
 * relocating libpfm4's tables (41 000 relocations) and pfm_initialize's
 * probes of the PMUs cost a process about 10 ms of CPU on the development
 * VM, twice a rank (docs/record.md).  Opened here with dlopen, they cost
 * nothing until an event name needs libpfm4 or --backend=papi is chosen.
 * PAPI needs libpfm4 itself, which the loader then brings along.
 */
#include "lazy-libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define LAZY_DEFINE(f) __typeof__(f) *sym_##f;
LAZY_PFM_FUNCS(LAZY_DEFINE)
#if HAVE_PAPI
LAZY_PAPI_FUNCS(LAZY_DEFINE)
#endif

struct lazy_func {
	const char *name;
	void **ptr;
};

struct lazy_lib {
	const char *soname;
	const char *package;	/* the Debian package that provides it */
	const struct lazy_func *funcs;
	pthread_once_t once;
	char err[256];		/* "" once opened */
};

#define LAZY_ENTRY(f) { #f, (void **)&sym_##f },
static const struct lazy_func pfm_funcs[] = { LAZY_PFM_FUNCS(LAZY_ENTRY) { NULL, NULL } };
static struct lazy_lib pfm_lib = {
	LIBPFM_SONAME, "libpfm4", pfm_funcs, PTHREAD_ONCE_INIT, "",
};

#if HAVE_PAPI
static const struct lazy_func papi_funcs[] = { LAZY_PAPI_FUNCS(LAZY_ENTRY) { NULL, NULL } };
static struct lazy_lib papi_lib = {
	LIBPAPI_SONAME, "libpapi7.0", papi_funcs, PTHREAD_ONCE_INIT, "",
};
#endif

/* dlopen lib and resolve its functions, or leave the reason in lib->err.
 * The handle is kept for the life of the process: the pointers use it. */
static void lazy_load(struct lazy_lib *lib)
{
	void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(lib->err, sizeof(lib->err), "cannot load %s (%s); install %s",
			 lib->soname, dlerror(), lib->package);
		return;
	}
	for (const struct lazy_func *f = lib->funcs; f->name; f++) {
		*f->ptr = dlsym(h, f->name);
		if (!*f->ptr) {
			snprintf(lib->err, sizeof(lib->err), "%s has no %s: not the version "
				 "cpperf was built with", lib->soname, f->name);
			return;
		}
	}
}

static void pfm_load(void)
{
	lazy_load(&pfm_lib);
}

static int lazy_open(struct lazy_lib *lib, void (*load)(void), char *err, size_t errlen)
{
	pthread_once(&lib->once, load);
	if (!lib->err[0])
		return 0;
	snprintf(err, errlen, "%s", lib->err);
	return -1;
}

int lazy_pfm_open(char *err, size_t errlen)
{
	return lazy_open(&pfm_lib, pfm_load, err, errlen);
}

#if HAVE_PAPI
static void papi_load(void)
{
	lazy_load(&papi_lib);
}

int lazy_papi_open(char *err, size_t errlen)
{
	return lazy_open(&papi_lib, papi_load, err, errlen);
}
#else
int lazy_papi_open(char *err, size_t errlen)
{
	snprintf(err, errlen, "cpperf was built without PAPI");
	return -1;
}
#endif
