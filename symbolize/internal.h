/*
 * internal.h - the session state shared by the files of symbolize/.
 *
 * session.c owns the Dwfl and the module table, unwind.c drives
 * dwfl_getthread_frames over a sample's copied stack, resolve.c turns lookup
 * addresses into interned frames and caches them.  Nothing here is part of
 * the interface (symbolize.h); a session is used by one thread at a time
 * (the drain thread that opened it).
 */
#ifndef CPPERF_SYMBOLIZE_INTERNAL_H
#define CPPERF_SYMBOLIZE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <elfutils/libdwfl.h>
#include "symbolize.h"

/* One cached lookup address: its frames are ids[first .. first+count). */
struct sym_cache_slot {
	uint64_t addr;
	uint32_t first;
	uint16_t count;		/* 0: empty slot */
	uint16_t unknown;	/* resolved while no module covered addr */
};

/* Open-addressing cache addr -> frames, and the pool of frame ids. */
struct sym_cache {
	struct sym_cache_slot *slots;
	uint32_t nslots, used;	/* nslots is a power of two or 0 */
	uint32_t *ids;
	uint32_t nids, ids_alloc;
};

struct sym_session {
	struct symtab *st;	/* caller's, outlives the session */
	Dwfl *dwfl;
	pid_t pid;
	bool changed;		/* an mmap was seen since the last reload */
	bool attached;		/* dwfl_attach_state succeeded */
	/* The sample being unwound and where its addresses go; set by
	 * sym_unwind around dwfl_getthread_frames only. */
	const struct sym_stack *cur;
	uint64_t *out;
	int max, n;
	bool read_failed;	/* a memory read failed since the last frame */
	struct sym_cache cache;
};

/* session.c: re-read /proc/PID/maps, adding new modules (old ones stay).
 * Returns 0, or -1 when libdw failed (the old module list stays usable). */
int sym_reload_modules(struct sym_session *s);

/* session.c: the symtab module index of mod, interned on first use with
 * its path and build id.  SYMTAB_NO_MODULE when memory is short. */
uint32_t sym_module_index(struct sym_session *s, Dwfl_Module *mod);

/* unwind.c: attach the thread callbacks to s->dwfl; once per session.
 * Returns 0, or -1 with a message in err. */
int sym_attach(struct sym_session *s, char *err, size_t errlen);

/* resolve.c: free the address cache. */
void sym_cache_release(struct sym_cache *c);

#endif
