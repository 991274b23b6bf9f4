/*
 * runtime-code.h - what of a process is the runtimes' own code rather
 * than the program's work (docs/threads.md "Waits and service threads"):
 * the call paths that wait (an OpenMP runtime's barriers and idle loops,
 * MPI progress polling, sched_yield loops), the frames that open a
 * parallel region or start a thread, and the threads a library
 * starts for itself (an MPI library's progress and event threads), which
 * a thread's idleness does not count.  One table each, in runtime-code.c.
 */
#ifndef CPPERF_RUNTIME_CODE_H
#define CPPERF_RUNTIME_CODE_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/symtab.h"

/* What is known of each frame of a symbol table, filled as frames are
 * asked about; drain thread. */
struct wait_frames {
	uint8_t *kind;		/* [cap] 0 not yet looked at, else enum in .c */
	uint32_t cap;
};

/* Whether a sample with this call path (frames[0] outermost, n of them)
 * waits in a runtime: its leaf is in a runtime's module, or one of its
 * innermost frames is a waiting function. */
bool wait_path(struct wait_frames *w, const struct symtab *st, const uint32_t *frames, int n);
/* The index in frames of the innermost frame that opened a parallel
 * region (GOMP_parallel, __kmpc_fork_call, ...), -1 when none: the
 * thread works in that region, where its team's waits belong. */
int region_frame(struct wait_frames *w, const struct symtab *st, const uint32_t *frames, int n);
/* Whether frame id is the C library's start of a thread (_start,
 * __libc_start_main, start_thread, clone3, ...). */
bool start_frame(struct wait_frames *w, const struct symtab *st, uint32_t id);
void wait_frames_release(struct wait_frames *w);

/* Whether a thread started by code at `creator` (the return address of
 * its pthread_create) is a library's service thread. */
bool service_thread_creator(const void *creator);

#endif
